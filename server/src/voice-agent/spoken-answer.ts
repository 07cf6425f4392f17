// What the simulated callee answers to one field: a value of the declared type and the line that says it.
// The value is the truth the analyst must recover from the line alone.
import type { FieldDefinition } from '../generated/types.gen.js';
import { fieldLabel, fieldType, humaniseName } from '../conversation/field-label.js';
import type { Lexicon, Unit, ValueKind } from '../conversation/lexicon.js';
import type { SeededRandom } from './seeded-random.js';

export interface SpokenAnswer {
  text: string;
  value: string | number | boolean;
}

/** First match wins; keys are English, as field names usually are. */
const KINDS: [RegExp, ValueKind][] = [
  [/e-?mail/, 'email'],
  [/website|\burl\b|web site/, 'url'],
  [/phone|mobile|\btel\b|\bfax\b/, 'phone'],
  [/name|contact|person|manager|owner|\bwho\b/, 'name'],
  [/\bhours\b/, 'hours'],
  [/time|clos|open|\bwhen\b|start|finish/, 'time'],
  [/date/, 'date'],
  [/day/, 'day'],
  [/address|\bwhere\b|location|street/, 'address'],
  [/price|cost|fee|charge/, 'price'],
];

const UNITS: [RegExp, Unit][] = [
  [/hour/, 'hours'],
  [/minute/, 'minutes'],
  [/\bdays?\b/, 'days'],
  [/price|cost|fee|charge|amount|salary|budget|dollar|euro/, 'money'],
  [/percent|%|share|ratio/, 'percent'],
  [/people|staff|employees|seats|capacity|guests|persons/, 'people'],
];

function topic(field: FieldDefinition): string {
  return `${humaniseName(field.name)} ${fieldLabel(field)}`.toLowerCase();
}

function valueKind(field: FieldDefinition): ValueKind {
  const text = topic(field);
  return KINDS.find(([re]) => re.test(text))?.[1] ?? 'generic';
}

function unitOf(field: FieldDefinition): Unit | null {
  const text = topic(field);
  return UNITS.find(([re]) => re.test(text))?.[1] ?? null;
}

function say(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w)\}/g, (_, k: string) => slots[k]);
}

function numberAnswer(field: FieldDefinition, lex: Lexicon, rng: SeededRandom): SpokenAnswer {
  const unit = unitOf(field);
  const roll = rng.next();
  const words = lex.vocabulary.numberWords;
  let value: number;
  let spoken: string;
  if (roll < 0.25 && words.length > 20) {
    value = 1 + rng.int(20);
    spoken = words[value];
  } else if (roll < 0.5 && unit !== 'people') {
    // Head counts are whole; other quantities may be decimals.
    value = (10 + rng.int(990)) / 10;
    spoken = String(value).replace('.', lex.vocabulary.decimalSeparator);
  } else {
    value = rng.int(201);
    spoken = String(value);
  }
  const text = unit ? say(rng.pick(lex.callee.numberWithUnit), { n: spoken, u: lex.callee.units[unit] }) : say(rng.pick(lex.callee.number), { n: spoken });
  return { text: capitalise(text), value };
}

function stringAnswer(field: FieldDefinition, lex: Lexicon, fallback: Lexicon, rng: SeededRandom): SpokenAnswer {
  const kind = valueKind(field);
  const pool = lex.callee.values[kind] ?? fallback.callee.values[kind] ?? lex.callee.values.generic ?? [];
  const value = rng.pick(pool);
  // A bare `{v}.` would capitalise a lower-case value and change it; such values get a lead-in.
  const templates = /^\p{Ll}/u.test(value) ? lex.callee.string.filter((t) => !t.startsWith('{v}')) : lex.callee.string;
  return { text: say(rng.pick(templates), { v: value }), value };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The callee's answer to a field it knows. `fallback` lends values for kinds the language has no list for. */
export function spokenAnswer(field: FieldDefinition, lex: Lexicon, fallback: Lexicon, rng: SeededRandom): SpokenAnswer {
  switch (fieldType(field)) {
    case 'boolean': {
      const value = rng.next() < 0.5;
      return { text: rng.pick(value ? lex.callee.yes : lex.callee.no), value };
    }
    case 'number':
      return numberAnswer(field, lex, rng);
    default:
      return stringAnswer(field, lex, fallback, rng);
  }
}
