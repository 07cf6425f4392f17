// Text that neither store can hold the same way, and bytes that are not UTF-8. The HTTP tests run every entry
// against both stores: each must be refused at the door with the same status, token and message on both.

export const NUL = '\u0000';
export const LONE_SURROGATE = '\ud800';

const nulMessage = (path: string) => `\`${path}\` contains U+0000 (NUL), which text fields must not hold.`;
const surrogateMessage = (path: string) => `\`${path}\` contains a lone surrogate, which is not valid Unicode text.`;

export interface TextCase {
  what: string;
  /** Properties merged over a valid placement. */
  body: Record<string, unknown>;
  token: string;
  message: string;
  /** The field the problem names (a placement's `errors`). */
  field: string;
}

const valid = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' };

/** Where a faulty string can sit in a placement, with the token its property answers with. */
const places: { path: string; token: string; put: (text: string) => Record<string, unknown> }[] = [
  { path: 'objective', token: 'invalid_objective', put: (t) => ({ objective: `Ask about Sunday${t} hours.` }) },
  { path: 'context', token: 'invalid_context', put: (t) => ({ context: `The shop is on Main St${t}.` }) },
  { path: 'fields.0.name', token: 'invalid_fields', put: (t) => ({ fields: [{ name: `hours${t}` }] }) },
  { path: 'fields.1.description', token: 'invalid_fields', put: (t) => ({ fields: [{ name: 'open' }, { name: 'hours', description: `Opening${t} hours` }] }) },
  { path: 'voice', token: 'invalid_voice', put: (t) => ({ voice: `alloy${t}` }) },
  { path: 'language', token: 'invalid_language', put: (t) => ({ language: `en${t}` }) },
  { path: 'webhookUrl', token: 'invalid_webhook_url', put: (t) => ({ webhookUrl: `https://example.com/hook${t}` }) },
  { path: 'callerId', token: 'invalid_caller_id', put: (t) => ({ callerId: `+1415555${t}0100` }) },
  { path: 'to', token: 'invalid_number', put: (t) => ({ to: `+1415${t}5550123` }) },
];

export const textCases: TextCase[] = places.flatMap(({ path, token, put }) => [
  { what: `U+0000 in ${path}`, body: { ...valid, ...put(NUL) }, token, message: nulMessage(path), field: path },
  { what: `a lone surrogate in ${path}`, body: { ...valid, ...put(LONE_SURROGATE) }, token, message: surrogateMessage(path), field: path },
]);

/** JSON bodies whose bytes are not UTF-8; each would decode with U+FFFD to the same text as its neighbour. */
export const notUtf8: { what: string; bytes: Buffer }[] = [
  { what: 'Latin-1 é', bytes: Buffer.concat([Buffer.from('{"to":"+14155550123","objective":"Ask the caf'), Buffer.from([0xe9]), Buffer.from(' about hours."}')]) },
  { what: 'a lone continuation byte', bytes: Buffer.concat([Buffer.from('{"to":"+14155550123","objective":"Ask the caf'), Buffer.from([0x80]), Buffer.from(' about hours."}')]) },
  { what: 'an overlong slash', bytes: Buffer.concat([Buffer.from('{"to":"+14155550123","objective":"Ask the caf'), Buffer.from([0xc0, 0xaf]), Buffer.from(' about hours."}')]) },
  { what: 'an encoded surrogate (CESU-8)', bytes: Buffer.concat([Buffer.from('{"to":"+14155550123","objective":"Ask the caf'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(' about hours."}')]) },
  { what: 'a truncated sequence', bytes: Buffer.concat([Buffer.from('{"to":"+14155550123","objective":"Ask the caf'), Buffer.from([0xe2, 0x82]), Buffer.from(' about hours."}')]) },
];

export const NOT_UTF8_MESSAGE = 'The request body is not valid UTF-8; send JSON encoded as UTF-8.';
