// getCallRecording: the call's WAV file, whole or one byte range. The row stores the path writeRecording gave:
// relative to the data folder when the recordings folder is inside it, else absolute; resolve() takes either.
import type { Context } from 'koa';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { findCallForKey } from '../../store/calls-repo.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import { ApiError } from '../../errors/api-error.js';
import type { ValidatedRequest } from '../request-validator.js';
import { callNotFound } from '../../errors/api-error.js';

/** A single range `bytes=a-b`, `bytes=a-` or `bytes=-n`, clamped to the file; null when unsatisfiable. */
function parseRange(header: string, size: number): { start: number; end: number } | null | 'ignore' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'ignore'; // not a form we serve: send the whole file (RFC 9110)
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

export function recordingHandler({ store, config }: AppDeps) {
  return async function getCallRecording(ctx: Context, req: ValidatedRequest) {
    const { key } = ctx.state.caller as ApiCaller;
    const row = await findCallForKey(store, key.id, req.path.id);
    if (!row) throw callNotFound(req.path.id);
    if (!row.recording_path) throw new ApiError(404, 'not_found', `Call ${row.id} has no recording.`);
    const file = resolve(config.dataDir, row.recording_path);
    const info = await stat(file).catch(() => undefined);
    if (!info) throw new ApiError(404, 'not_found', `Call ${row.id} has no recording.`);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.type = 'audio/wav';
    const rangeHeader = req.headers.range;
    const range = rangeHeader ? parseRange(rangeHeader, info.size) : 'ignore';
    if (range === null) {
      throw new ApiError(416, 'range_not_satisfiable', `The recording is ${info.size} bytes long.`, { 'Content-Range': `bytes */${info.size}` });
    }
    if (range === 'ignore') {
      ctx.length = info.size;
      ctx.body = createReadStream(file);
      return;
    }
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    ctx.length = range.end - range.start + 1;
    ctx.body = createReadStream(file, { start: range.start, end: range.end });
  };
}
