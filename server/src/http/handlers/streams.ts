// streamCall and streamEvents: Server-Sent Events read from the store every SVC_STREAM_POLL_MS (calls/call-stream.ts
// says what is sent and how a stream resumes). A call's stream ends after its terminal status; the key's stream
// stays open, with a comment line every HEARTBEAT_MS so that proxies and clients see it alive. Every open stream
// is in OpenStreams, which ends them all when the service shuts down.
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import { formatCallCursor, parseCallCursor, readCall, readKey, STREAM_OVERLAP_MS, type StreamItem } from '../../calls/call-stream.js';
import { callNotFound } from '../../errors/api-error.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import type { ValidatedRequest } from '../request-validator.js';

const HEARTBEAT_MS = 15_000;
/** How long a client waits before reconnecting after the stream drops (the SSE `retry` field). */
const RETRY_MS = 1_000;

/** The streams open in this process, ended together at shutdown. */
export class OpenStreams {
  private readonly open = new Set<() => void>();
  private closing = false;
  /** Registers a stream's end; one opened once shutdown has begun is ended at once (its client reconnects elsewhere). */
  add(end: () => void): () => void {
    if (this.closing) {
      queueMicrotask(end);
      return () => {};
    }
    this.open.add(end);
    return () => this.open.delete(end);
  }
  endAll(): void {
    this.closing = true;
    for (const end of [...this.open]) end();
  }
}

/** An SSE response: events written as they come, a heartbeat, and a wait that ends early when the stream does. */
class SseResponse {
  private readonly out = new PassThrough();
  private closed = false;
  private wake: (() => void) | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unregister: () => void;

  constructor(ctx: Context, streams: OpenStreams) {
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.req.socket.setNoDelay(true);
    ctx.body = this.out;
    this.out.write(`retry: ${RETRY_MS}\n\n`);
    this.heartbeat = setInterval(() => this.out.write(': keep-alive\n\n'), HEARTBEAT_MS);
    this.unregister = streams.add(() => {
      ctx.set('Connection', 'close');
      this.end();
    });
    ctx.req.once('close', () => this.end());
    this.out.once('close', () => this.end());
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  send(id: string, item: StreamItem): void {
    if (!this.closed) this.out.write(`id: ${id}\nevent: ${item.event}\ndata: ${JSON.stringify(item.data)}\n\n`);
  }

  /** Resolves after `ms`, or at once when the stream ends; true while it is still open. */
  wait(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve(!this.closed);
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.unregister();
    this.wake?.();
    this.out.end();
  }
}

export function streamHandlers(deps: AppDeps, streams: OpenStreams) {
  const { store, clock, config, logger } = deps;

  /** Runs a stream's reads until it ends; a store fault ends the stream (the client resumes from its last id). */
  function pump(sse: SseResponse, step: () => Promise<boolean>, what: Record<string, string>): void {
    void (async () => {
      try {
        while (sse.isOpen) {
          if (await step()) break;
          if (!(await sse.wait(config.streamPollMs))) break;
        }
      } catch (err) {
        if (sse.isOpen) logger.warn({ err, ...what }, 'stream read failed; the stream ends and the client resumes it');
      } finally {
        sse.end();
      }
    })();
  }

  return {
    async streamCall(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const callId = String(req.path.id).toLowerCase();
      let cursor = parseCallCursor(req.headers['last-event-id']);
      // The first read answers 404 for another key's call before anything is streamed.
      let read = await readCall(store.db, key.id, callId, cursor, clock.now());
      if (!read) throw callNotFound(req.path.id);
      const sse = new SseResponse(ctx, streams);
      pump(
        sse,
        async () => {
          read ??= await readCall(store.db, key.id, callId, cursor, clock.now());
          if (!read) return true;
          for (const { item, cursor: after } of read.items) {
            sse.send(formatCallCursor(after), item);
            cursor = after;
          }
          const ended = read.ended;
          read = null;
          return ended;
        },
        { callId },
      );
    },

    async streamEvents(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      // Resumed: from the time in the last id (less the overlap the reads keep); new: from now.
      const resumed = /^\d{1,15}$/.exec(req.headers['last-event-id']?.trim() ?? '');
      let from = resumed ? Number(resumed[0]) : clock.now();
      // What was sent, by id, with when it happened, so the overlap of each read with the last is not sent twice.
      const sent = new Map<string, number>();
      const sse = new SseResponse(ctx, streams);
      pump(
        sse,
        async () => {
          const now = clock.now();
          const items = await readKey(store.db, key.id, from, now, new Set(sent.keys()));
          for (const item of items) {
            sent.set((item.data as { id: string }).id, item.at);
            sse.send(String(now), item);
          }
          from = now;
          for (const [id, at] of sent) if (at <= from - STREAM_OVERLAP_MS) sent.delete(id);
          return false;
        },
        { apiKeyId: key.id },
      );
    },
  };
}
