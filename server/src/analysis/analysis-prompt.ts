// What the analysis model is told: the brief's objective, context, language and fields, how the call ended,
// and the transcript. Nothing else about the call goes to the provider: not the number called, the caller id,
// the call id or any key.
import { fieldType } from '../conversation/field-label.js';
import type { AnalysisInput, EndReason } from './analyst.js';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

const SYSTEM = [
  'You analyse a finished phone call that an AI agent placed on behalf of a client.',
  'Answer with JSON only, matching the given schema.',
  '"summary": a short plain-English summary (in English whatever language the call was in) of the objective, the outcome and what was learnt.',
  '"extracted" (when fields are requested): each field\'s value as the callee gave it in the transcript, of the declared type, or null when the transcript does not establish it. Never guess.',
  '"opt_out": true when the callee asked not to be called again (to stop calling, to be taken off a list, not to call this number), in any words or language; otherwise false.',
  '"evidence" (when fields are requested): for each field with a value, the number in brackets of the transcript line where the callee gave it and the words of that line that give it, copied exactly; null for a null value. A value whose words are not in that line is discarded.',
].join('\n');

const ENDED: Record<EndReason, string> = {
  hung_up: 'the conversation came to its end',
  max_duration: 'cut short at the maximum call duration',
  minute_cap: "cut short when the account's minute allowance ran out",
  canceled: 'ended early by the client, who canceled the call while it was live',
  transferred: 'the agent handed the callee over to a person (a transfer) and left the call',
  hold_timeout: 'the agent hung up after waiting on hold for longer than the call allowed',
};

export function analysisMessages({ brief, transcript, endReason }: AnalysisInput): ChatMessage[] {
  const lines = [`Objective: ${brief.objective}`, `Context: ${brief.context?.trim() || '(none)'}`, `Language of the call: ${brief.language}`, `How the call ended: ${ENDED[endReason]}`];
  if (brief.fields.length > 0) {
    lines.push('Fields to extract:');
    for (const f of brief.fields) lines.push(`- ${f.name} (${fieldType(f)})${f.description?.trim() ? `: ${f.description.trim()}` : ''}`);
  } else {
    lines.push('Fields to extract: none');
  }
  // Each line numbered as the evidence cites it: [0] for the first turn.
  const numbered =
    transcript.trim() === ''
      ? ['(nothing was said)']
      : transcript
          .trim()
          .split('\n')
          .map((line, i) => `[${i}] ${line}`);
  lines.push('Transcript:', ...numbered);
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: lines.join('\n') },
  ];
}
