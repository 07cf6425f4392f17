// getCallRecording: the call's WAV file, whole or one byte range; with channels=2 its two-channel rendition, which
// only a carrier's recording has. A carrier's recording is the file its download stored; a sandbox call's is
// rendered at the first request for it (recording/call-recordings.ts). A render that fails (a full disk, the
// recorder's thread lost) is 503 recording_unavailable: the call keeps what the recording is rendered from, so a
// retry renders it.
import type { Context } from 'koa';
import { createReadStream } from 'node:fs';
import { findCallForKey } from '../../store/calls-repo.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import { ApiError } from '../../errors/api-error.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';
import { callNotFound } from '../../errors/api-error.js';
import type { CallRecordings } from '../../recording/call-recordings.js';

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

/** How long a client waits before asking again for a recording that could not be rendered. */
const RENDER_RETRY_AFTER_SEC = 5;

export function recordingHandler({ store, recordings, logger }: AppDeps & { recordings: CallRecordings }) {
  return async function getCallRecording(ctx: Context, req: ValidatedRequest) {
    const { key } = ctx.state.caller as ApiCaller;
    const row = await findCallForKey(store, key.id, req.path.id);
    if (!row) throw callNotFound(req.path.id);
    const channels = req.query.channels === 2 ? 2 : 1;
    const file = await recordings.fileOf(row, channels).catch((err: unknown) => {
      logger.error({ err, reqId: ctx.state.reqId, callId: row.id }, 'the recording could not be rendered');
      throw new ApiError(503, 'recording_unavailable', `The recording of call ${row.id} could not be made ready just now; retry in a few seconds.`, {
        'Retry-After': String(RENDER_RETRY_AFTER_SEC),
      });
    });
    if (!file) throw new ApiError(404, 'not_found', channels === 2 ? `Call ${row.id} has no two-channel recording.` : `Call ${row.id} has no recording.`);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.type = 'audio/wav';
    const rangeHeader = req.headers.range;
    const range = rangeHeader ? parseRange(rangeHeader, file.size) : 'ignore';
    if (range === null) {
      throw new ApiError(416, 'range_not_satisfiable', `The recording is ${file.size} bytes long.`, { 'Content-Range': `bytes */${file.size}` });
    }
    if (range === 'ignore') {
      ctx.length = file.size;
      ctx.body = createReadStream(file.path);
      return;
    }
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    ctx.length = range.end - range.start + 1;
    ctx.body = createReadStream(file.path, { start: range.start, end: range.end });
  };
}
