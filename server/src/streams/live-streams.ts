// The two live streams, each a cursor over what the hub read (stream-hub.ts), writing to its client at the
// client's pace. A stream writes until the client's socket is full, then waits for it to drain; a client that reads
// nothing for the stall limit has its stream ended (it resumes with Last-Event-ID), so no stream holds more than a
// socket's buffer and the event in hand.
//
// The key's stream first reads the store itself — from its Last-Event-ID less the overlap, at most the replay
// horizon back and the last REPLAY_MAX_ITEMS of each kind, or the last 5 seconds when new — a page at a time, then
// follows the hub's ring. Joining the ring,
// it remembers what its own reads sent until the hub can no longer find those again, so nothing is sent twice on
// one connection. A stream that falls out of the ring (its client read too slowly for too long) reads the store
// again from its last id; only then may an event near the cut come twice, as after a reconnect.
//
// A call's stream writes from the call as the hub last read it, after its cursor (the counts of statuses, turns and
// uses of tools it sent), and ends after the call's terminal status.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { isTerminal } from '../calls/call-status.js';
import type { Store } from '../store/store.js';
import type { HubStream, StreamHub } from './stream-hub.js';
import { dataJson, formatCallCursor, itemId, STREAM_OVERLAP_MS, type CallCursor, type StatusData, type StreamItem } from './stream-reads.js';

/** How far back a key's stream replays: a Last-Event-ID older than this replays from here. */
export const REPLAY_HORIZON_MS = 24 * 3600 * 1000;
/** The most items of each kind (status changes, calls placed, turns, uses of tools) a key's stream replays. */
export const REPLAY_MAX_ITEMS = 1000;

/** Where a stream writes: the client's connection. */
export interface StreamSink {
  readonly isOpen: boolean;
  /** Bytes written that the socket has not taken yet. */
  readonly buffered: number;
  /** Writes events (SSE frames); false once the client's socket is full (they are written: wait before the next). */
  write(frames: string): boolean;
  /** Writes a comment line. */
  note(text: string): void;
  /** True once the client has read what was written; false when the stream ended meanwhile or stalled too long. */
  drained(): Promise<boolean>;
  end(): void;
}

export interface LiveStreamDeps {
  hub: StreamHub;
  store: Store;
  clock: Clock;
  logger: Logger;
}

type Step = 'idle' | 'more' | 'blocked' | 'done';

/** An event as it is written: its id (where a reconnect resumes), its name and its data. */
export const sseFrame = (id: string, item: StreamItem): string => `id: ${id}\nevent: ${item.event}\ndata: ${dataJson(item)}\n\n`;

/** How much a stream gathers for one write: a client's socket takes one write a wake, not one an event. */
const BATCH_CHARS = 32 * 1024;

/** The frames of one write. */
class Batch {
  private parts: string[] = [];
  private size = 0;

  constructor(private readonly sink: StreamSink) {}

  /** Adds a frame; false when the batch was written and the socket is now full. */
  add(frame: string): boolean {
    this.parts.push(frame);
    this.size += frame.length;
    return this.size < BATCH_CHARS || this.flush();
  }

  /** Writes what it holds; false when the socket is now full. */
  flush(): boolean {
    if (this.parts.length === 0) return true;
    const text = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.parts = [];
    this.size = 0;
    return this.sink.write(text);
  }
}

/** The loop both streams share: one writer at a time, run again when woken while it writes. */
abstract class LiveStream implements HubStream {
  abstract readonly follows: 'key' | 'call';
  private running = false;
  private woken = false;

  constructor(
    protected readonly deps: LiveStreamDeps,
    protected readonly sink: StreamSink,
    readonly apiKeyId: string,
    readonly leaseId: string | null,
  ) {}

  get buffered(): number {
    return this.sink.buffered;
  }

  wake(): void {
    this.woken = true;
    if (!this.running) void this.run();
  }

  end(): void {
    this.sink.end();
  }

  /**
   * Writes what is there for it: 'idle' when it has written all it has, 'more' when there is more to read at once,
   * 'blocked' when the client's socket filled, 'done' when the stream is over.
   */
  protected abstract step(): Promise<Step>;

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.sink.isOpen) {
        this.woken = false;
        const outcome = await this.step();
        if (outcome === 'done') break;
        if (outcome === 'blocked') {
          if (!(await this.sink.drained())) return;
          continue;
        }
        if (outcome === 'idle' && !this.woken) return;
        // Between pages the event loop takes its turn: a replay never holds up the requests of others.
        if (outcome === 'more') await new Promise((resolve) => setImmediate(resolve));
      }
      this.sink.end();
    } catch (err) {
      if (this.sink.isOpen) this.deps.logger.warn({ err, apiKeyId: this.apiKeyId }, 'live stream read failed; it ends and its client resumes it');
      this.sink.end();
    } finally {
      this.running = false;
    }
  }
}

export class KeyStream extends LiveStream {
  readonly follows = 'key';
  /** Its place in the hub's ring once it follows it; null while it reads the store itself. */
  private seq: number | null = null;
  /** While reading the store: the time after which it reads (items up to it were sent). */
  private after: number;
  /** Ids its own reads sent, with when they happened, kept while the hub might add them to the ring again. */
  private sent = new Map<string, number>();
  /** Once the stream's place passes this, the hub can no longer add what `sent` holds. */
  private forgetAt: number | null = null;
  /** The page of the store being written, with where the ring was before it was read. */
  private page: { items: StreamItem[]; next: number; cut: number | null; joinAt: number; now: number } | null = null;

  /** `after`: the time it sends what happened after (its Last-Event-ID, or now, less the overlap). */
  constructor(deps: LiveStreamDeps, sink: StreamSink, apiKeyId: string, leaseId: string | null, after: number) {
    super(deps, sink, apiKeyId, leaseId);
    this.after = after;
  }

  protected async step(): Promise<Step> {
    if (this.seq === null) return this.readStore();
    const entries = this.deps.hub.since(this.seq);
    if (entries === null) {
      // Fell out of the ring: read the store from the last id sent, as a reconnect would.
      this.seq = null;
      return 'more';
    }
    const batch = new Batch(this.sink);
    for (const e of entries) {
      this.seq = e.seq;
      if (e.item.apiKeyId !== this.apiKeyId || this.sent.has(itemId(e.item))) continue;
      this.after = e.readAt - STREAM_OVERLAP_MS;
      if (!batch.add((e.frame ??= sseFrame(String(e.readAt), e.item)))) return 'blocked';
    }
    if (!batch.flush()) return 'blocked';
    this.forgetSent();
    return 'idle';
  }

  /**
   * Writes the page of the store after `after`, read when there is none in hand; at the last page, it joins the ring
   * where the ring was before that read. A page is kept while the client's socket is full, so a slow client costs
   * one read a page, not one a drain.
   */
  private async readStore(): Promise<Step> {
    const { hub, clock } = this.deps;
    if (!this.page) {
      const joinAt = hub.lastSeq;
      const now = clock.now();
      const { items, cut } = await hub.page(this.apiKeyId, this.after, now);
      if (!this.sink.isOpen) return 'done';
      this.page = { items, next: 0, cut, joinAt, now };
    }
    const page = this.page;
    const batch = new Batch(this.sink);
    while (page.next < page.items.length) {
      const item = page.items[page.next++];
      const id = itemId(item);
      if (this.sent.has(id)) continue;
      this.sent.set(id, item.at);
      // A replayed event's id is its own time: a reconnect resumes from there less the overlap.
      if (!batch.add((item.replayFrame ??= sseFrame(String(item.at), item)))) return 'blocked';
    }
    if (!batch.flush()) return 'blocked';
    this.page = null;
    if (page.cut !== null) {
      this.after = page.cut;
      // The next pages read after the cut; the hub may still add what happened after its own window's start.
      const forget = Math.min(page.cut, hub.forgetsBefore);
      for (const [id, at] of this.sent) if (at <= forget) this.sent.delete(id);
      return 'more';
    }
    this.seq = page.joinAt;
    this.after = page.now - STREAM_OVERLAP_MS;
    this.forgetAt = null;
    return 'more';
  }

  /** Forgets what its own reads sent once its place in the ring is past every entry that could repeat it. */
  private forgetSent(): void {
    if (this.sent.size === 0) return;
    const { hub } = this.deps;
    if (this.forgetAt === null) {
      const newest = Math.max(...this.sent.values());
      if (hub.forgetsBefore >= newest) this.forgetAt = hub.lastSeq;
    }
    if (this.forgetAt !== null && this.seq !== null && this.seq >= this.forgetAt) {
      this.sent.clear();
      this.forgetAt = null;
    }
  }
}

export class CallStream extends LiveStream {
  readonly follows = 'call';

  constructor(
    deps: LiveStreamDeps,
    sink: StreamSink,
    apiKeyId: string,
    leaseId: string | null,
    private readonly callId: string,
    private cursor: CallCursor,
  ) {
    super(deps, sink, apiKeyId, leaseId);
  }

  protected async step(): Promise<Step> {
    const read = this.deps.hub.callRead(this.callId);
    if (!read) return 'idle';
    const batch = new Batch(this.sink);
    for (const entry of read.items) {
      const { item, cursor } = entry;
      const fresh = item.event === 'status' ? cursor.statuses > this.cursor.statuses : item.event === 'turn' ? cursor.turns > this.cursor.turns : cursor.tools > this.cursor.tools;
      if (!fresh) continue;
      // Each kind's count only grows. A read can show a turn before the status that came before it (the status log
      // is read first, so a change committed between the queries shows only in the next read): the turn was sent,
      // and the status then comes after it, its id counting the turn, so neither is sent twice, nor on a resume.
      const at: CallCursor = { statuses: Math.max(cursor.statuses, this.cursor.statuses), turns: Math.max(cursor.turns, this.cursor.turns), tools: Math.max(cursor.tools, this.cursor.tools) };
      const shared = at.statuses === cursor.statuses && at.turns === cursor.turns && at.tools === cursor.tools;
      this.cursor = at;
      const open = batch.add(shared ? (entry.frame ??= sseFrame(formatCallCursor(cursor), item)) : sseFrame(formatCallCursor(at), item));
      if (item.event === 'status' && isTerminal((item.data as StatusData).status)) {
        batch.flush();
        return 'done';
      }
      if (!open) return 'blocked';
    }
    if (!batch.flush()) return 'blocked';
    // Resumed after its end: nothing more to send.
    return read.ended ? 'done' : 'idle';
  }
}
