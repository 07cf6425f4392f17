// Reads a JSON request body: 415 for another media type or bytes that are not UTF-8, 413 past the size limit, 400
// invalid_json when it does not parse. An empty body is reported as undefined and left to the operation's
// validator. Bytes that are not UTF-8 are refused rather than decoded with U+FFFD: two different bodies must never
// read as one (an Idempotency-Key compares bodies by what they read as).
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../errors/api-error.js';

export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  const bytes = await readBodyBytes(ctx, limitBytes);
  return bytes === undefined ? undefined : parseJsonBytes(bytes);
}

/** The body's bytes, as sent: undefined for none; 415 for another media type or charset, 413 past `limitBytes`. */
export async function readBodyBytes(ctx: Context, limitBytes: number): Promise<Buffer | undefined> {
  const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  if (!ctx.is('application/json', '+json')) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
  }
  const charset = ctx.request.charset;
  if (charset && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw new ApiError(415, 'unsupported_media_type', 'JSON bodies must be encoded as UTF-8.');
  }
  return readRawBody(ctx, limitBytes);
}

/** A JSON body's bytes as their value: 415 when they are not UTF-8, 400 invalid_json when they do not parse; undefined when blank. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  const text = decodeUtf8(bytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${whereJsonBreaks(text)}.`);
  }
}

/**
 * Where JSON.parse gave up on `text`, as "line L, column C" (or that it ends early). V8 names the position in most
 * of its messages but not for an unexpected character; that position is the shortest prefix that already fails
 * on a character rather than on its end, found by bisection (only on this error path).
 */
export function whereJsonBreaks(text: string): string {
  const failsBefore = (n: number): boolean => {
    try {
      JSON.parse(text.slice(0, n));
      return false;
    } catch (e) {
      const m = /position (\d+)/.exec((e as Error).message);
      return m ? Number(m[1]) < n : !/end of JSON input/.test((e as Error).message);
    }
  };
  let lo = 0;
  let hi = text.length;
  if (!failsBefore(hi)) return 'it ends before the JSON value is complete';
  // Invariant: the first `lo` characters do not fail on a character; the first `hi` do.
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (failsBefore(mid)) hi = mid;
    else lo = mid;
  }
  const before = text.slice(0, hi - 1).split('\n');
  return `unexpected ${JSON.stringify(text[hi - 1])} at line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The request body as text: 413 past `limitBytes`, 415 when it is not UTF-8, 400 when it ends early. */
export async function readUtf8Body(ctx: Context, limitBytes: number): Promise<string> {
  return decodeUtf8(await readRawBody(ctx, limitBytes));
}

async function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit: limitBytes, length: ctx.request.length });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      throw new ApiError(413, 'payload_too_large', `The request body is larger than ${limitBytes / 1024} KiB.`);
    }
    throw new ApiError(400, 'invalid_json', 'The request body could not be read completely.');
  }
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(415, 'unsupported_media_type', 'The request body is not valid UTF-8; send JSON encoded as UTF-8.');
  }
}

/**
 * Closes the connection once the answer is sent, so that the rest of a body the client is still sending is never
 * read: for a refusal made before the body (a batch while the key's window is full).
 */
export function closeUnread(ctx: Context): void {
  ctx.set('Connection', 'close');
  ctx.res.once('finish', () => ctx.req.socket.destroy());
}
