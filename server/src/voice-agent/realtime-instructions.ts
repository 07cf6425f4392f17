// What the realtime model is told to do on a call: its instructions (objective, context, language, each requested
// field by name and meaning, and when to call its tools, tools.ts). How they are sent is the interface's
// (realtime-protocol.ts).
import type { LineBrief } from './conversation.js';
import { fieldLabel, fieldType, type FieldType } from './field-label.js';
import { END_CALL_TOOL, OPT_OUT_TOOL } from './tools.js';

const TYPE_HINT: Record<FieldType, string> = { boolean: 'yes or no', number: 'a number', string: 'a short answer' };

/** `fr-CA` → `French (Canada)`; an unknown tag is given as it is. */
export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

export function realtimeInstructions(brief: LineBrief): string {
  const language = `${languageName(brief.language)} (${brief.language})`;
  const lines = [
    'You are an AI assistant making a phone call on behalf of a customer. You are speaking with the person who answered.',
    brief.mirrorLanguage
      ? `Start in ${language}; if the other person speaks another language, switch to theirs and keep to it.`
      : `Speak ${language} throughout, even if the other person switches language.`,
    'Introduce yourself briefly as an AI assistant calling on behalf of a customer, then pursue the objective. Be polite and concise: one question at a time, short sentences.',
    '',
    `Objective: ${brief.objective}`,
  ];
  if (brief.context) lines.push(`Context: ${brief.context}`);
  if (brief.fields.length > 0) {
    lines.push('', 'Find out each of the following, asking for them one by one:');
    for (const f of brief.fields) lines.push(`- ${f.name} (${TYPE_HINT[fieldType(f)]}): ${fieldLabel(f)}`);
    lines.push('When an answer is unclear, ask once more; if the person does not know or will not say, move on.');
  }
  lines.push(
    '',
    'Never invent information and never agree to anything beyond the objective. If you reach a voicemail or an automated menu you cannot use, say goodbye.',
    `If the person asks not to be called again, call the ${OPT_OUT_TOOL} function at once, then apologise, confirm they will not be called again, say goodbye and call ${END_CALL_TOOL}; ask nothing more.`,
    `When you have what you need, or the person cannot or will not help, thank them, say goodbye, and then call the ${END_CALL_TOOL} function to hang up.`,
  );
  return lines.join('\n');
}

/** The transcriber's language hint (ISO 639-1), unless the callee's language is not known yet. */
export function transcriptionLanguage(brief: LineBrief): string | undefined {
  return brief.mirrorLanguage ? undefined : brief.language.split('-')[0].toLowerCase();
}
