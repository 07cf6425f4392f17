// A live stream's connection (Server-Sent Events): events written as they come, a comment every HEARTBEAT_MS so
// that proxies and clients see it alive, and the client's pace honoured. A write that finds the socket full says
// so, and the stream waits for it to drain; a client that reads nothing for `stallMs` has its stream ended (its
// client resumes from the last id it read), so a client that never reads costs a socket's buffer, no more.
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import type { StreamSink } from '../streams/live-streams.js';
import type { StreamItem } from '../streams/stream-reads.js';

const HEARTBEAT_MS = 15_000;
/** How long a client waits before reconnecting after the stream drops (the SSE `retry` field). */
const RETRY_MS = 1_000;

export class SseResponse implements StreamSink {
  private readonly out = new PassThrough();
  private closed = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly ended: (() => void)[] = [];
  private readonly waiting = new Set<(drained: boolean) => void>();
  private res: Context['res'] | null = null;

  /** What is written before the stream is attached to its response waits in its buffer. */
  constructor(private readonly stallMs: number) {
    this.out.on('drain', () => this.settle(true));
    this.out.write(`retry: ${RETRY_MS}\n\n`);
  }

  /** Answers the request with the stream (200, text/event-stream); the stream ends when the client goes. */
  attach(ctx: Context): void {
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.req.socket.setNoDelay(true);
    this.res = ctx.res;
    ctx.body = this.out;
    this.heartbeat = setInterval(() => {
      if (!this.out.writableNeedDrain) this.note('keep-alive');
    }, HEARTBEAT_MS);
    ctx.req.once('close', () => this.end());
    this.out.once('close', () => this.end());
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  get buffered(): number {
    return this.out.writableLength + this.out.readableLength + (this.res?.writableLength ?? 0);
  }

  /** Runs `fn` once, when the stream ends for any reason. */
  onEnd(fn: () => void): void {
    if (this.closed) queueMicrotask(fn);
    else this.ended.push(fn);
  }

  send(id: string, item: StreamItem): boolean {
    if (this.closed) return false;
    return this.out.write(`id: ${id}\nevent: ${item.event}\ndata: ${JSON.stringify(item.data)}\n\n`);
  }

  note(text: string): void {
    if (!this.closed) this.out.write(`: ${text}\n\n`);
  }

  drained(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.out.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(done);
        resolve(false);
        // The client read nothing for the whole limit: it resumes from the last id it read.
        this.end();
        this.cut();
      }, this.stallMs);
      const done = (drained: boolean) => {
        clearTimeout(timer);
        resolve(drained);
      };
      this.waiting.add(done);
    });
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.settle(false);
    this.out.end();
    // What is written is flushed to a client that reads; one that reads nothing is let go with its socket.
    if (this.out.writableNeedDrain) setTimeout(() => this.cut(), this.stallMs).unref();
    for (const fn of this.ended.splice(0)) fn();
  }

  /** Closes the connection of a response its client never finished reading. */
  private cut(): void {
    if (this.res && !this.res.writableFinished) this.res.socket?.destroy();
  }

  private settle(drained: boolean): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const done of waiting) done(drained);
  }
}
