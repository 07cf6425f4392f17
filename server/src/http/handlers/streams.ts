// streamCall and streamEvents: Server-Sent Events served by the process's stream hub (streams/stream-hub.ts reads
// the store once for every stream; streams/live-streams.ts says what each stream sends and how it resumes). Opening
// a stream is counted against the key's request window, and a key holds at most SVC_STREAMS_PER_KEY open streams
// across every process (a lease each in the store); above it, 429 too_many_streams.
import type { Context } from 'koa';
import { ApiError, callNotFound } from '../../errors/api-error.js';
import { releaseStreamLease, takeStreamLease } from '../../store/stream-leases.js';
import { CallStream, KeyStream, REPLAY_HORIZON_MS, REPLAY_MAX_ITEMS, type LiveStreamDeps } from '../../streams/live-streams.js';
import type { StreamHub } from '../../streams/stream-hub.js';
import { parseCallCursor, replayStart, STREAM_OVERLAP_MS } from '../../streams/stream-reads.js';
import type { AppDeps } from '../app-deps.js';
import { chargeRequest, type ApiCaller } from '../key-gate.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';
import { SseResponse } from '../sse-response.js';

/** What a client refused for the cap waits before trying again: about the time a dead process's leases take to lapse. */
const CAP_RETRY_AFTER_SEC = 10;

export function streamHandlers(deps: AppDeps, hub: StreamHub) {
  const { store, clock, config, logger } = deps;
  const live: LiveStreamDeps = { hub, store, clock, logger };

  /** The key's lease for one more stream; 429 too_many_streams when it holds its cap. */
  async function lease(ctx: Context): Promise<string> {
    const { key } = ctx.state.caller as ApiCaller;
    const id = await takeStreamLease(store, key.id, config.streamsPerKey, clock.now());
    if (id) return id;
    throw new ApiError(
      429,
      'too_many_streams',
      `This API key already has ${config.streamsPerKey} live streams open (the most it may hold at once); close one, or retry after ${CAP_RETRY_AFTER_SEC} seconds.`,
      { 'Retry-After': String(CAP_RETRY_AFTER_SEC) },
    );
  }

  /** When the stream ends, however it ends: out of the hub, and its lease given back. */
  function closeWith(sse: SseResponse, stream: CallStream | KeyStream, leaseId: string): void {
    sse.onEnd(() => {
      hub.remove(stream);
      releaseStreamLease(store, leaseId).catch((err) => logger.warn({ err }, 'a live stream’s lease could not be given back; it lapses by itself'));
    });
  }

  /** Shutting down: the stream ends at once and the connection closes, so its client reconnects to another process. */
  function refuseWhileClosing(ctx: Context): boolean {
    if (!hub.closing) return false;
    ctx.set('Connection', 'close');
    const sse = new SseResponse(config.streamStallMs);
    sse.attach(ctx);
    sse.end();
    return true;
  }

  return {
    async streamCall(ctx: Context, req: ValidatedRequest) {
      await chargeRequest(ctx, deps);
      if (refuseWhileClosing(ctx)) return;
      const { key } = ctx.state.caller as ApiCaller;
      const callId = String(req.path.id).toLowerCase();
      const sse = new SseResponse(config.streamStallMs);
      const leaseId = await lease(ctx);
      const stream = new CallStream(live, sse, key.id, leaseId, callId, parseCallCursor(req.headers['last-event-id']));
      closeWith(sse, stream, leaseId);
      if (!hub.add(stream)) return sse.attach(ctx);
      let read: Awaited<ReturnType<typeof hub.watchCall>>;
      try {
        read = await hub.watchCall(stream, callId);
      } catch (err) {
        sse.end();
        throw err;
      }
      // Another key's call is a 404, as JSON, before anything is streamed.
      if (!read) {
        sse.end();
        throw callNotFound(req.path.id);
      }
      sse.attach(ctx);
      stream.wake();
    },

    async streamEvents(ctx: Context, req: ValidatedRequest) {
      await chargeRequest(ctx, deps);
      if (refuseWhileClosing(ctx)) return;
      const { key } = ctx.state.caller as ApiCaller;
      const now = clock.now();
      // Resumed: after the time in the last id, less the overlap the reads keep; new: the last few seconds. A replay
      // goes back at most 24 hours and REPLAY_MAX_ITEMS of each kind.
      const resumed = /^\d{1,15}$/.exec(req.headers['last-event-id']?.trim() ?? '');
      const asked = (resumed ? Number(resumed[0]) : now) - STREAM_OVERLAP_MS;
      const after = resumed ? await replayStart(store, key.id, Math.max(asked, now - REPLAY_HORIZON_MS), REPLAY_MAX_ITEMS) : asked;
      const sse = new SseResponse(config.streamStallMs);
      const leaseId = await lease(ctx);
      const stream = new KeyStream(live, sse, key.id, leaseId, after);
      closeWith(sse, stream, leaseId);
      sse.attach(ctx);
      if (!hub.add(stream)) return;
      if (after > asked) {
        sse.note(
          `replay starts at ${new Date(after).toISOString()}: at most 24 hours and the last ${REPLAY_MAX_ITEMS} calls, statuses, turns and uses of tools back; older changes are on GET /v1/agent/calls and each call's events`,
        );
      }
      stream.wake();
    },
  };
}
