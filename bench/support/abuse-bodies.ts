// The 15 MiB batches door-abuse.ts's abusers send: 10,000 calls of about 1.5 KiB each, every one refused.
//   invalid_calls: well-formed JSON whose every call has a number that is not E.164 (400 invalid_batch, 10,000 errors);
//   invalid_json:  the same calls, the body cut by its last byte (400 invalid_json, found where it breaks).

export type AbuseKind = 'invalid_calls' | 'invalid_json';

export function abuseBody(kind: AbuseKind): Buffer {
  const objective = 'Ask whether the shop is open on Sunday and until what time, and who runs it on weekends. '.repeat(17);
  const calls = Array.from({ length: 10_000 }, (_, i) => ({ to: `+1415${i}`, objective }));
  const text = JSON.stringify({ calls });
  return Buffer.from(kind === 'invalid_json' ? text.slice(0, -1) : text);
}
