// One reader for every live stream a process serves. The hub reads what changed for the keys of its open
// streams once every SVC_STREAM_POLL_MS (one query set, however many streams), keeps what it read as a short log
// in memory (the ring), and wakes the streams, each of which writes what is new for it at its own pace. So the
// store's work grows with the changes, not with the streams open; a stream whose client reads slowly falls
// behind in the ring, and one that falls out of it catches up from the store a page at a time.
//
// A call's stream needs the call's whole state (its statuses, turns and uses of tools in their order, the ending
// held back until the turns and uses before it are shown), so the hub also keeps, for each call with a stream
// open, the call as last read, read again once whenever the ring shows a change of it.
//
// Every few seconds the hub checks that the keys of its streams are still active (not revoked, account still
// there) and ends the streams of those that are not; and it renews the store leases that count its streams
// against their keys' caps.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { activeKeys, renewStreamLeases, STREAM_LEASE_MS } from '../store/stream-leases.js';
import type { Store } from '../store/store.js';
import { CALL_START, itemId, readCall, readKeys, STREAM_OVERLAP_MS, type CallRead, type KeyItems, type StreamItem } from './stream-reads.js';

/** A change in the ring: the item, and the time of the read that found it (the key stream's event id). */
export interface HubEntry {
  seq: number;
  readAt: number;
  item: StreamItem;
  /** The event as a key's stream writes it, made once for all of them. */
  frame?: string;
}

/** What the hub asks of an open stream. */
export interface HubStream {
  readonly apiKeyId: string;
  /** Bytes written for its client that the process still holds (not yet taken by the socket). */
  readonly buffered: number;
  /** Every call of its key, or one call (woken when that call is read again). */
  readonly follows: 'key' | 'call';
  /** Its lease in the store, renewed while it is open. */
  readonly leaseId: string | null;
  /** Something new may be there for it (in the ring, or its call read again). */
  wake(): void;
  /** Ends it: the service is shutting down, or its key is no longer active. */
  end(): void;
}

interface WatchedCall {
  apiKeyId: string;
  /** The call as last read, from its start (null: not the key's call). */
  read: CallRead | null;
  /** The read under way; it never rejects (a failure ends the call's streams and is kept in `failed`). */
  reading: Promise<void> | null;
  failed: unknown;
  /** A change was seen while it was being read: read it once more after. */
  stale: boolean;
  streams: Set<HubStream>;
}

export interface StreamHubOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  pollMs: number;
  /** How many recent changes the ring keeps for streams that fall behind. */
  ringSize?: number;
  /** How often the keys of open streams are checked. */
  keyCheckMs?: number;
}

/** Store reads for streams catching up that run at once in a process; the others wait their turn. */
const CATCH_UP_READS = 4;
/** Items of each kind in a page of a stream's catch-up. */
const PAGE = 100;
/** Items of the pages kept for other streams replaying the same history. */
const PAGE_CACHE_ITEMS = 20_000;
/** The most items of each kind one read of the hub takes; a longer backlog is read over the next polls. */
const READ_LIMIT = 2_000;
const RENEW_MS = STREAM_LEASE_MS / 3;

/** What the hub has done, for metrics and tests: the store's work is in `reads` and `catchUpReads`. */
export interface HubStats {
  /** Polls made: each reads the changes of every key with a stream open, once. */
  polls: number;
  /** Store reads by the hub: one per poll, and one per followed call each time it changes. */
  reads: number;
  /** Store reads for streams catching up on what they missed (a page each; a page kept serves other streams). */
  catchUpReads: number;
}

/** Streams woken in one turn of the event loop: a change for thousands of streams is written in slices, between which other requests are served. */
const WAKE_SLICE = 4;

async function wakeInTurns(streams: readonly HubStream[]): Promise<void> {
  for (let i = 0; i < streams.length; i += WAKE_SLICE) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const s of streams.slice(i, i + WAKE_SLICE)) s.wake();
  }
}

export class StreamHub {
  readonly stats: HubStats = { polls: 0, reads: 0, catchUpReads: 0 };
  private readonly ring: HubEntry[] = [];
  private nextSeq = 1;
  /** Items found by the reads whose window may still see them again, by id, with when they happened. */
  private readonly seen = new Map<string, number>();
  /** The end of the last read's window; null until the first read. */
  private readTo: number | null = null;
  private readonly streams = new Set<HubStream>();
  private readonly keys = new Map<string, Set<HubStream>>();
  private readonly calls = new Map<string, WatchedCall>();
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  private isClosing = false;
  private lastKeyCheck = 0;
  private lastRenew = 0;
  private readonly ringSize: number;
  private readonly keyCheckMs: number;
  private catchingUp = 0;
  private readonly waitingToCatchUp: (() => void)[] = [];
  /** Pages of history already read (key and start → the page), oldest use first, and reads under way. */
  private readonly pages = new Map<string, KeyItems>();
  private pageItems = 0;
  private readonly pageReads = new Map<string, Promise<KeyItems>>();

  constructor(private readonly o: StreamHubOptions) {
    this.ringSize = o.ringSize ?? 10_000;
    this.keyCheckMs = o.keyCheckMs ?? 2_000;
  }

  get open(): number {
    return this.streams.size;
  }

  /** Bytes the process holds for the clients of its open streams. */
  get buffered(): number {
    let n = 0;
    for (const s of this.streams) n += s.buffered;
    return n;
  }

  /** The sequence number of the newest change in the ring (0 before any). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /**
   * The start of the window of the hub's next read: an item that happened at or before it is never added to the ring
   * again, so a stream that joined with what it had read itself need not remember it any longer.
   */
  get forgetsBefore(): number {
    return (this.readTo ?? this.o.clock.now()) - STREAM_OVERLAP_MS;
  }

  /** The changes after `seq`, oldest first; null when some of them have left the ring. */
  since(seq: number): HubEntry[] | null {
    const first = this.ring.length > 0 ? this.ring[0].seq : this.nextSeq;
    if (seq + 1 < first) return null;
    return this.ring.slice(seq + 1 - first);
  }

  /** True once shutdown has begun: a stream opened now ends at once, and its client resumes it elsewhere. */
  get closing(): boolean {
    return this.isClosing;
  }

  /**
   * A page of a key's changes after `after` (up to `now`), for a stream catching up. Pages of settled history (their
   * cut older than the overlap) are kept for the other streams replaying the same history, and a page being read is
   * shared with those that ask for it meanwhile, so a thousand replays from the same place read the store once. The
   * reads take turns, a few at a time: replays share the store (and on SQLite the event loop) with every request.
   */
  page(apiKeyId: string, after: number, now: number): Promise<KeyItems> {
    const key = `${apiKeyId}:${after}`;
    const kept = this.pages.get(key);
    if (kept) {
      this.pages.delete(key);
      this.pages.set(key, kept);
      return Promise.resolve(kept);
    }
    let reading = this.pageReads.get(key);
    if (!reading) {
      reading = this.readPage(apiKeyId, after, now).finally(() => this.pageReads.delete(key));
      this.pageReads.set(key, reading);
    }
    return reading;
  }

  private async readPage(apiKeyId: string, after: number, now: number): Promise<KeyItems> {
    const release = await this.catchUpTurn();
    try {
      this.stats.catchUpReads++;
      const page = await readKeys(this.o.store, [apiKeyId], after, now, PAGE);
      if (page.cut !== null && page.cut <= now - STREAM_OVERLAP_MS) this.keepPage(`${apiKeyId}:${after}`, page);
      return page;
    } finally {
      release();
    }
  }

  private keepPage(key: string, page: KeyItems): void {
    this.pages.set(key, page);
    this.pageItems += page.items.length;
    for (const [k, p] of this.pages) {
      if (this.pageItems <= PAGE_CACHE_ITEMS) break;
      this.pages.delete(k);
      this.pageItems -= p.items.length;
    }
  }

  private async catchUpTurn(): Promise<() => void> {
    if (this.catchingUp >= CATCH_UP_READS) await new Promise<void>((resolve) => this.waitingToCatchUp.push(resolve));
    else this.catchingUp++;
    return () => {
      const next = this.waitingToCatchUp.shift();
      if (next) next();
      else this.catchingUp--;
    };
  }

  /** Registers an open stream; false (and the stream is ended) when the service is shutting down. */
  add(stream: HubStream): boolean {
    if (this.isClosing) {
      queueMicrotask(() => stream.end());
      return false;
    }
    this.streams.add(stream);
    let set = this.keys.get(stream.apiKeyId);
    if (!set) this.keys.set(stream.apiKeyId, (set = new Set()));
    set.add(stream);
    this.schedule();
    return true;
  }

  remove(stream: HubStream): void {
    if (!this.streams.delete(stream)) return;
    const set = this.keys.get(stream.apiKeyId);
    set?.delete(stream);
    if (set?.size === 0) this.keys.delete(stream.apiKeyId);
    for (const [callId, w] of this.calls) {
      if (w.streams.delete(stream) && w.streams.size === 0) this.calls.delete(callId);
    }
    if (this.streams.size === 0) this.idle();
  }

  /**
   * Follows a call for `stream`: resolves with the call as last read (reading it now when no stream followed it),
   * or null when it is not the key's call.
   */
  async watchCall(stream: HubStream, callId: string): Promise<CallRead | null> {
    let w = this.calls.get(callId);
    if (!w || w.apiKeyId !== stream.apiKeyId) {
      w = { apiKeyId: stream.apiKeyId, read: null, reading: null, failed: null, stale: false, streams: new Set() };
      this.calls.set(callId, w);
      this.refresh(callId, w);
    }
    w.streams.add(stream);
    if (w.reading) await w.reading;
    if (w.failed) throw w.failed;
    return w.read;
  }

  /** The call as last read, for a stream that follows it. */
  callRead(callId: string): CallRead | null {
    return this.calls.get(callId)?.read ?? null;
  }

  /** Ends every stream and takes no more (shutdown). */
  endAll(): void {
    this.isClosing = true;
    for (const s of [...this.streams]) s.end();
  }

  private schedule(): void {
    if (this.timer || this.isClosing || this.streams.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll();
    }, this.o.pollMs);
  }

  private idle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Nothing is kept for nobody: a stream that opens later reads what it needs itself.
    this.ring.length = 0;
    this.pages.clear();
    this.pageItems = 0;
    this.seen.clear();
    this.readTo = null;
  }

  private async poll(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      await this.read();
      const now = Date.now();
      if (now - this.lastKeyCheck >= this.keyCheckMs) {
        this.lastKeyCheck = now;
        await this.checkKeys();
      }
      if (now - this.lastRenew >= RENEW_MS) {
        this.lastRenew = now;
        const leases = [...this.streams].map((s) => s.leaseId).filter((id): id is string => id !== null);
        await renewStreamLeases(this.o.store, leases, this.o.clock.now());
      }
    } catch (err) {
      this.o.logger.warn({ err }, 'live streams: the store could not be read; trying again');
    } finally {
      this.reading = false;
      this.schedule();
    }
  }

  /** One read for every key with a stream open: what is new goes into the ring, and the streams are woken. */
  private async read(): Promise<void> {
    const now = this.o.clock.now();
    const from = this.readTo ?? now;
    const keys = [...this.keys.keys()];
    this.stats.polls++;
    this.stats.reads++;
    const { items, cut } = await readKeys(this.o.store, keys, from - STREAM_OVERLAP_MS, now, READ_LIMIT);
    const to = cut ?? now;
    const changedCalls = new Set<string>();
    for (const item of items) {
      const id = itemId(item);
      if (this.seen.has(id)) continue;
      this.seen.set(id, item.at);
      this.ring.push({ seq: this.nextSeq++, readAt: to, item });
      changedCalls.add(item.callId);
    }
    this.readTo = to;
    for (const [id, at] of this.seen) if (at <= to - STREAM_OVERLAP_MS) this.seen.delete(id);
    if (this.ring.length > this.ringSize * 1.25) this.ring.splice(0, this.ring.length - this.ringSize);
    if (changedCalls.size === 0) return;
    for (const callId of changedCalls) {
      const w = this.calls.get(callId);
      if (w) this.refresh(callId, w);
    }
    const woken: HubStream[] = [];
    for (const key of new Set(items.map((i) => i.apiKeyId))) for (const s of this.keys.get(key) ?? []) if (s.follows === 'key') woken.push(s);
    await wakeInTurns(woken);
  }

  /** Reads a followed call again (once at a time; a change seen meanwhile reads it once more), then wakes its streams. */
  private refresh(callId: string, w: WatchedCall): void {
    if (w.reading) {
      w.stale = true;
      return;
    }
    this.stats.reads++;
    w.reading = readCall(this.o.store, w.apiKeyId, callId, CALL_START, this.o.clock.now()).then(
      (read) => {
        w.read = read;
        w.reading = null;
        if (w.stale) {
          w.stale = false;
          this.refresh(callId, w);
        }
        void wakeInTurns([...w.streams]);
      },
      (err) => {
        w.reading = null;
        w.failed = err;
        this.calls.delete(callId);
        this.o.logger.warn({ err, callId }, 'live streams: a call could not be read; its streams end and their clients resume them');
        for (const s of [...w.streams]) s.end();
      },
    );
  }

  private async checkKeys(): Promise<void> {
    const keys = [...this.keys.keys()];
    if (keys.length === 0) return;
    const active = await activeKeys(this.o.store, keys);
    for (const key of keys) {
      if (active.has(key)) continue;
      for (const s of [...(this.keys.get(key) ?? [])]) s.end();
    }
  }
}
