// The default analyst: reads the transcript text alone (never the simulator) for each requested field, and writes
// a plain-English summary of the objective, the outcome and what was learnt.
import type { ExtractedValues, FieldDefinition } from '../generated/types.gen.js';
import { fieldLabel, fieldType, lowerFirst } from '../conversation/field-label.js';
import { lexiconFor } from '../conversation/lexicon.js';
import type { Analysis, AnalysisInput, Analyst, EndReason } from './analyst.js';
import { readAnswer } from './answer-reader.js';
import { heardOptOut } from './opt-out.js';
import { findExchanges, type FieldExchange } from './transcript-questions.js';

const ENDINGS: Record<EndReason, string> = {
  hung_up: 'The call was completed',
  max_duration: 'The call was cut short at the maximum call duration',
  minute_cap: "The call was cut short when the account's minute allowance ran out",
  canceled: 'The client ended the call early (canceled)',
  transferred: 'The agent transferred the call to a person',
  hold_timeout: 'The call was ended after waiting on hold for longer than its hold limit (hold.maxWaitSec)',
};

export class RuleBasedAnalyst implements Analyst {
  readonly name = 'rule-based';

  async analyse({ brief, transcript, endReason }: AnalysisInput): Promise<Analysis> {
    const lexicon = lexiconFor(brief.language);
    const { vocabulary } = lexicon;
    const exchanges = findExchanges(transcript, brief.fields, lexicon);
    // Built as entries: a field may be named `__proto__` or `constructor`, which an assignment would not make a key.
    const values: ExtractedValues = Object.fromEntries(
      brief.fields.map((field) => {
        const { reply } = exchanges.get(field.name)!;
        return [field.name, reply === null ? null : readAnswer(reply, fieldType(field), vocabulary)];
      }),
    );
    // It knows the answer it read: the callee's whole reply, the turn after the question.
    const evidence = Object.fromEntries(
      brief.fields.map((field) => {
        const { reply, replyTurn } = exchanges.get(field.name)!;
        return [field.name, values[field.name] === null || reply === null || replyTurn === null ? null : { turn: replyTurn, quote: reply }];
      }),
    );
    const optOut = heardOptOut(transcript, brief.language);
    const summary = summarise(brief.objective, brief.fields, exchanges, values, endReason);
    return {
      summary: optOut ? `${summary} ${OPTED_OUT}` : summary,
      extracted: brief.fields.length > 0 ? values : null,
      evidence: brief.fields.length > 0 ? evidence : null,
      optOut,
    };
  }
}

/** The summary's last sentence for a call in which the callee opted out. */
export const OPTED_OUT = 'The callee asked not to be called again; the number was added to the do-not-call list.';

function inWords(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function labelOf(field: FieldDefinition): string {
  return lowerFirst(fieldLabel(field));
}

function listOf(fields: readonly FieldDefinition[]): string {
  return fields.map(labelOf).join('; ');
}

function summarise(objective: string, fields: readonly FieldDefinition[], exchanges: ReadonlyMap<string, FieldExchange>, values: ExtractedValues, endReason: EndReason): string {
  const sentences = [
    `Objective: ${objective
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[.\s]+$/u, '')}.`,
  ];
  if (fields.length === 0) {
    sentences.push(`${ENDINGS[endReason]}; no fields were requested.`);
    return sentences.join(' ');
  }
  const asked = fields.filter((f) => exchanges.get(f.name)!.asked);
  const learnt = fields.filter((f) => values[f.name] !== null);
  const unanswered = asked.filter((f) => values[f.name] === null);
  const notAsked = fields.filter((f) => !exchanges.get(f.name)!.asked);
  sentences.push(`${ENDINGS[endReason]}; the agent asked ${asked.length} of ${fields.length} questions and got ${plural(learnt.length, 'answer')}.`);
  if (learnt.length > 0) sentences.push(`Learnt: ${learnt.map((f) => `${labelOf(f)}: ${inWords(values[f.name]!)}`).join('; ')}.`);
  if (unanswered.length > 0) sentences.push(`No answer for: ${listOf(unanswered)}.`);
  if (notAsked.length > 0) sentences.push(`Not asked${endReason === 'hung_up' ? '' : ' before the call ended'}: ${listOf(notAsked)}.`);
  return sentences.join(' ');
}
