// A live stream's connection (Server-Sent Events), written straight to the response: events as they come, a
// comment every HEARTBEAT_MS so that proxies and clients see it alive, and the client's pace honoured. A write that
// finds the socket full says so, and the stream waits for it to drain; a client that reads nothing for `stallMs`
// has its connection closed (it resumes from the last id it read), so a client that never reads costs a socket's
// buffer, no more.
import type { Context } from 'koa';
import { rateLimitHeaders } from '../accounts/rate-limit.js';
import type { StreamSink } from '../streams/live-streams.js';
import type { ApiCaller } from './key-gate.js';

const HEARTBEAT_MS = 15_000;
/** How long a client waits before reconnecting after the stream drops (the SSE `retry` field). */
const RETRY_MS = 1_000;

export class SseResponse implements StreamSink {
  private closed = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly ended: (() => void)[] = [];
  private readonly waiting = new Set<(drained: boolean) => void>();
  private res: Context['res'] | null = null;
  /** What is written before the response is attached: sent as it attaches. */
  private early: string[] = [`retry: ${RETRY_MS}\n\n`];

  constructor(private readonly stallMs: number) {}

  /**
   * Answers the request with the stream: 200, text/event-stream, with the rate-limit headers of the window the
   * caller spent (the response's head leaves now, before the key gate would write them). Koa leaves the response
   * to the stream from here; it ends when the client goes.
   */
  attach(ctx: Context): void {
    const caller = ctx.state.caller as ApiCaller | undefined;
    if (caller) ctx.set(rateLimitHeaders(caller.reported));
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.status = 200;
    ctx.respond = false;
    const res = ctx.res;
    this.res = res;
    res.socket?.setNoDelay(true);
    res.writeHead(200);
    res.on('drain', () => this.settle(true));
    res.once('close', () => this.end());
    if (this.closed) {
      res.end(this.early.join(''));
      return;
    }
    res.write(this.early.join(''));
    this.early = [];
    this.heartbeat = setInterval(() => {
      if (!res.writableNeedDrain) this.note('keep-alive');
    }, HEARTBEAT_MS);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  get buffered(): number {
    return this.res?.writableLength ?? this.early.reduce((n, s) => n + s.length, 0);
  }

  /** Runs `fn` once, when the stream ends for any reason. */
  onEnd(fn: () => void): void {
    if (this.closed) queueMicrotask(fn);
    else this.ended.push(fn);
  }

  write(text: string): boolean {
    if (this.closed) return false;
    if (!this.res) {
      this.early.push(text);
      return true;
    }
    return this.res.write(text);
  }

  note(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  drained(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.res?.writableNeedDrain) return Promise.resolve(true);
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
    const res = this.res;
    if (res) {
      res.end();
      // What is written is flushed to a client that reads; one that reads nothing is let go with its socket.
      if (res.writableNeedDrain) setTimeout(() => this.cut(), this.stallMs).unref();
    }
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
