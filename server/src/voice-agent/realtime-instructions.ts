// What the realtime model is told to do on a call: its instructions (objective, context, language, and each
// requested field by name and meaning), the end_call tool it hangs up with and the record_opt_out tool it
// records a callee's request not to be called again with. How they are sent is the
// interface's (realtime-protocol.ts).
import type { CallBrief } from './conversation.js';
import { fieldLabel, fieldType, type FieldType } from './field-label.js';

export const END_CALL_TOOL = 'end_call';

/** The end_call function as the model is offered it (the same in both interfaces). */
export const END_CALL_FUNCTION = {
  type: 'function',
  name: END_CALL_TOOL,
  description: 'Hang up the phone call. Call it only after you have said goodbye.',
  parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why the call is ending, in a few words.' } }, required: [] },
} as const;

export const OPT_OUT_TOOL = 'record_opt_out';

/**
 * The record_opt_out function: the callee asked not to be called again. The service answers it (the function's
 * output), and the model goes on to apologise and end the call; the number goes on the do-not-call list as the
 * call ends.
 */
export const OPT_OUT_FUNCTION = {
  type: 'function',
  name: OPT_OUT_TOOL,
  description:
    'Record that the person asked not to be called again (to stop calling, to be taken off the list). Call it as soon as they ask; then apologise briefly, confirm they will not be called again, say goodbye and call end_call.',
  parameters: { type: 'object', properties: {}, required: [] },
} as const;

/** The tools the model is offered, in both interfaces. */
export const TOOLS = [END_CALL_FUNCTION, OPT_OUT_FUNCTION];

/** A call placed with language `auto` mirrors whoever answers: the brief's language is only where it starts. */
export type LineBrief = CallBrief & { mirrorLanguage?: boolean };

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
