// Reads a JSON request body: 415 for another media type or bytes that are not UTF-8, 413 past the size limit, 400
// invalid_json when it does not parse. An empty body is reported as undefined and left to the operation's
// validator. Bytes that are not UTF-8 are refused rather than decoded with U+FFFD: two different bodies must never
// read as one (an Idempotency-Key compares bodies by what they read as).
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../errors/api-error.js';

export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  if (!ctx.is('application/json', '+json')) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
  }
  const charset = ctx.request.charset;
  if (charset && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw new ApiError(415, 'unsupported_media_type', 'JSON bodies must be encoded as UTF-8.');
  }
  const text = await readUtf8Body(ctx, limitBytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The request body as text: 413 past `limitBytes`, 415 when it is not UTF-8, 400 when it ends early. */
export async function readUtf8Body(ctx: Context, limitBytes: number): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.request.length });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      throw new ApiError(413, 'payload_too_large', `The request body is larger than ${limitBytes / 1024} KiB.`);
    }
    throw new ApiError(400, 'invalid_json', 'The request body could not be read completely.');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(415, 'unsupported_media_type', 'The request body is not valid UTF-8; send JSON encoded as UTF-8.');
  }
}
