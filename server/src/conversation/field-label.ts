// How a requested field is spoken about: its description when the client gave one, else its humanised name.
// The scripted agent asks with this label and the rule-based analyst finds the question by it, so both use this.
import type { FieldDefinition } from '../generated/types.gen.js';

export type FieldType = NonNullable<FieldDefinition['type']>;

export function fieldType(field: FieldDefinition): FieldType {
  return field.type ?? 'string';
}

/** `closing_time_sunday` → `closing time sunday`; `numberOfStaff` → `number of staff`. */
export function humaniseName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Lower-cases a leading capital unless it starts an acronym ("NHS number" stays), for use mid-sentence. */
export function lowerFirst(label: string): string {
  return /^\p{Lu}\p{Ll}/u.test(label) ? label[0].toLowerCase() + label.slice(1) : label;
}

/** The description (one line, without closing punctuation) or, when it is blank, the humanised name. */
export function fieldLabel(field: FieldDefinition): string {
  const description = (field.description ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.?!:;,]+$/u, '');
  return description || humaniseName(field.name) || field.name;
}
