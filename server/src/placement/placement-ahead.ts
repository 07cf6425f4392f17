// What a placement has computed ahead on the placement worker (placement-worker.ts) before its unit of write work
// runs: ELD's detection of its text, and the parse of its numbers (`to`, `callerId`, `transfer.to`). Asked for only
// when the body has them in a form the placement will use; anything not answered is computed in-thread by the
// placement itself.
import { fromFacts, type ParsedNumber } from './caller-id.js';
import { ELD_TEXT_LIMIT, eldSubset, textForEld, type AheadDetection } from './language.js';
import { placementWorker, type PlacementWorker } from './placement-worker.js';

export interface PlacementAhead {
  language?: AheadDetection;
  /** By the number's text, as parseE164 takes it (see withParsedNumbers). */
  numbers?: Map<string, ParsedNumber>;
}

export async function placementAhead(body: unknown, supported: readonly string[], worker: PlacementWorker = placementWorker): Promise<PlacementAhead> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const fields = body as Record<string, unknown>;
  const text = textForEld(fields, supported);
  const transfer = typeof fields.transfer === 'object' && fields.transfer !== null ? (fields.transfer as Record<string, unknown>).to : undefined;
  const numbers = [fields.to, fields.callerId, transfer].filter((n): n is string => typeof n === 'string');
  // Both asked before either is awaited, so they go to the worker in the same message.
  const detection = text === undefined ? null : worker.detect(text.slice(0, ELD_TEXT_LIMIT), eldSubset(supported));
  const parses = numbers.map((n) => worker.parseNumber(n));
  const raw = await detection;
  const facts = await Promise.all(parses);
  const ahead: PlacementAhead = {};
  if (raw && text !== undefined) ahead.language = { text, raw };
  numbers.forEach((n, i) => {
    const f = facts[i];
    if (f) (ahead.numbers ??= new Map()).set(n, fromFacts(f));
  });
  return ahead;
}
