// What was said and heard on one live line, turn by turn, timed from the answer, and written as each turn is
// heard (voice-agent/recorded-turns.ts). Call time is measured on the callee's audio stream (8 bytes of mu-law per
// ms), so turn times are positions in the call, not wall-clock readings. The agent's audio goes to the line
// through the ledger, which marks it as it goes: an agent turn is written once the line says it has played, or
// cut where the callee talked over it. How quickly the agent answers is timed as it goes (turn-timing.ts).
// What the line records is shown on the streams by the time it was written (heard_at), so the ledger writes it in
// the order it happened: turns in the order they began, a use of a tool where it was answered. Each waits for what
// came before it to be written: the callee's words, which a model's transcriber may deliver after the model has
// answered them, and the agent's, written once played. The wait is bounded (ORDER_WAIT_MS): words that never come
// hold nothing up for long.
import type { Logger } from 'pino';
import type { LiveLine } from '../telephony/live-line.js';
import type { Speaker, TimedTurn } from '../conversation/conversation.js';
import { TurnTiming, type CallLatency } from './turn-timing.js';

export const BYTES_PER_MS = 8;
/**
 * The agent's audio is marked every 100 ms of audio, and where an item's audio ends. A mark per delta would double
 * the messages each way when a model streams small deltas; 100 ms is how early a barge-in may cut the transcript
 * of what was heard.
 */
const MARK_EVERY_BYTES = 100 * BYTES_PER_MS;
/** The longest what is ready to write waits for the words before it. */
export const ORDER_WAIT_MS = 3000;

/** Writes one turn, heard at `heardAt` (wall-clock ms); `seq` orders a call's turns (the order they began in). */
export type TurnWriter = (seq: number, turn: TimedTurn, heardAt: number) => Promise<void>;

export interface TurnLedgerOptions {
  /** Times the agent's answers (a timing without an observer unless given). */
  timing?: TurnTiming;
  /** Writes what the timing measured, once, as the ledger closes. */
  writeLatency?: (latency: CallLatency) => Promise<void>;
  /** The longest what is ready to write waits for the words before it (ORDER_WAIT_MS unless given). */
  orderWaitMs?: number;
}

interface Utterance {
  seq: number;
  speaker: Speaker;
  startMs: number;
  endMs: number | null;
  /** Agent audio bytes sent to the line, and how many the line has confirmed played. */
  sentBytes: number;
  playedBytes: number;
  /** When (call time) playedBytes was confirmed by a mark, or its first audio was sent; null before. */
  playedAt: number | null;
  /** The callee talked over it: its audio stopped at playedBytes. */
  cut: boolean;
  text: string | null;
  /** Its words are final: it is written once what came before it is. */
  written: boolean;
}

/** Something to write in its place: a turn, or a use of a tool (`u` null). */
interface Entry {
  u: Utterance | null;
  /** What writes it, once its words are final. */
  write: ((heardAt: number) => void) | null;
  /** When its words became final (performance.now()); null before. */
  readyAt: number | null;
}

/** The bytes a base64 string carries, without decoding it. */
const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

export class TurnLedger {
  /** Turns by the agent's id for them (the model's item id). */
  private readonly items = new Map<string, Utterance>();
  private nextSeq = 0;
  private heardBytes = 0;
  private positionMs = 0;
  private marks: Array<{ name: string; item: Utterance; through: number }> = [];
  private markCount = 0;
  /** The item whose audio was sent since the last mark, and how much of it. */
  private unmarked: { item: Utterance; bytes: number } | null = null;
  private lastAgentItem: { id: string; u: Utterance } | null = null;
  private writes: Promise<void> = Promise.resolve();
  /** What is not written yet, in the order it happened. */
  private order: Entry[] = [];
  /** The last time written: each thing is written at a later one, so the streams show them in order. */
  private lastHeardAt = 0;
  private releaseTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** The callee's latest speech start, in call time (null when the model did not say). */
  private speechStartMs: number | null = null;
  /** When (call time) the line last said audio had played: the audio after it has played since. */
  private lastPlayedAt: number | null = null;
  readonly timing: TurnTiming;

  constructor(
    private readonly line: Pick<LiveLine, 'play' | 'mark' | 'clear'>,
    private readonly writeTurn: TurnWriter,
    private readonly logger: Logger,
    private readonly callId: string,
    private readonly options: TurnLedgerOptions = {},
  ) {
    this.timing = options.timing ?? new TurnTiming();
  }

  /** Call time now: the end of the callee's audio heard so far. */
  get nowMs(): number {
    return this.positionMs;
  }

  /** Whether the agent's audio sent to the line has not all been confirmed played. */
  get playing(): boolean {
    return this.marks.length > 0 || this.unmarked !== null;
  }

  /** How much of the agent's audio sent to the line is not confirmed played yet, in ms. */
  get unplayedMs(): number {
    let bytes = 0;
    for (const u of this.items.values()) if (u.speaker === 'agent' && !u.cut) bytes += u.sentBytes - u.playedBytes;
    return Math.round(bytes / BYTES_PER_MS);
  }

  /** Callee audio (base64 mu-law) at its position in the stream, when the line gives one. */
  heard(payload: string, timestampMs: number | null): void {
    const bytes = base64Bytes(payload);
    this.heardBytes += bytes;
    const endMs = timestampMs !== null ? timestampMs + bytes / BYTES_PER_MS : this.heardBytes / BYTES_PER_MS;
    this.positionMs = Math.max(this.positionMs, endMs);
    this.timing.heard(endMs);
  }

  /** The callee started talking (at `startMs` in the call, when known). */
  calleeStarted(itemId: string, startMs: number | null): void {
    this.speechStartMs = startMs;
    this.utterance(itemId, 'callee', startMs ?? this.positionMs);
  }

  /** The callee stopped talking (at `endMs` in the call, when known). */
  calleeStopped(itemId: string, endMs: number | null): void {
    this.utterance(itemId, 'callee', this.positionMs).endMs = endMs ?? this.positionMs;
    this.timing.calleeStopped(endMs);
  }

  /**
   * What was said in a turn; the callee's is written now, the agent's once its audio has played (each once what
   * came before it is written).
   */
  said(itemId: string, speaker: Speaker, transcript: string | null): void {
    const text = transcript?.trim();
    if (!text) {
      // A turn with no words (noise, a failed transcription): nothing waits for it.
      const u = this.items.get(itemId);
      if (u && u.text === null) {
        this.order = this.order.filter((e) => e.u !== u);
        this.release();
      }
      return;
    }
    const u = this.utterance(itemId, speaker, this.positionMs);
    u.text = text;
    this.write(u);
  }

  /**
   * Keeps the place, from `startMs`, of a turn whose words come later (a wait on hold, noted when it ends), so the
   * turns heard meanwhile come after it.
   */
  begin(itemId: string, speaker: Speaker, startMs: number): void {
    this.utterance(itemId, speaker, startMs);
  }

  /**
   * A turn that is no speech (keys pressed on the line, a wait on hold), from startMs to endMs in call time: written
   * now. It plays no audio and times no answer.
   */
  note(itemId: string, speaker: Speaker, startMs: number, endMs: number, text: string): void {
    const u = this.utterance(itemId, speaker, startMs);
    u.endMs = Math.max(u.startMs, Math.round(endMs));
    u.text = text;
    this.write(u);
  }

  /** Plays the agent's audio of an item, unless the callee talked over that item (the rest is dropped). */
  play(itemId: string, payload: string): void {
    const u = this.utterance(itemId, 'agent', this.positionMs);
    if (u.cut) return;
    if (this.unmarked && this.unmarked.item !== u) this.markSent();
    this.lastAgentItem = { id: itemId, u };
    const bytes = base64Bytes(payload);
    const first = u.sentBytes === 0;
    u.sentBytes += bytes;
    this.line.play(payload);
    if (first) {
      u.playedAt = this.positionMs;
      this.timing.agentStarted();
    }
    this.unmarked = { item: u, bytes: (this.unmarked?.bytes ?? 0) + bytes };
    if (this.unmarked.bytes >= MARK_EVERY_BYTES) this.markSent();
  }

  /** Asks the line to say when the agent's audio sent so far has played (an item's audio ended). */
  markSent(): void {
    if (!this.unmarked) return;
    const name = `a${++this.markCount}`;
    this.marks.push({ name, item: this.unmarked.item, through: this.unmarked.item.sentBytes });
    this.unmarked = null;
    this.line.mark(name);
  }

  /** The line played everything up to one of the ledger's marks (any other name is not the ledger's). */
  marked(name: string): void {
    const i = this.marks.findIndex((m) => m.name === name);
    if (i < 0) return;
    const at = this.positionMs;
    this.lastPlayedAt = at;
    for (const m of this.marks.splice(0, i + 1)) {
      m.item.playedBytes = Math.max(m.item.playedBytes, m.through);
      m.item.playedAt = at;
      this.write(m.item);
    }
  }

  /**
   * The callee started talking: if the agent's audio is still playing, it is dropped from the line and the agent's
   * turn cut where the callee heard it. Returns the item cut and how much of it was heard, or null. `textHeard`, when
   * given, says what the callee heard of the turn's words (an agent whose transcript is its own text cuts it there).
   */
  cutIn(textHeard?: (heardMs: number) => string | null): { itemId: string; heardMs: number } | null {
    const last = this.lastAgentItem;
    if (!last || (this.marks.length === 0 && !this.unmarked)) return null;
    const heardMs = this.stopWhereHeard(last.u);
    // After the ledger's own marks are let go: a line that answers the cleared marks at once finds none of them.
    this.line.clear();
    this.timing.cleared(this.speechStartMs);
    if (textHeard) last.u.text = textHeard(heardMs)?.trim() || null;
    this.write(last.u);
    return { itemId: last.id, heardMs };
  }

  /** Whether the agent's last turn has audio on the line and no words yet: the model's transcript of it is to come. */
  get agentWordsDue(): boolean {
    const u = this.lastAgentItem?.u;
    return u !== undefined && u.sentBytes > 0 && u.text === null && !u.written;
  }

  /**
   * The line ended while the agent's item, the last it played, was on it and before the agent had its words: the
   * turn is what the callee heard of it by then, as a barge-in's is, and nothing of it plays after. `textHeard` says
   * what of its words that was. An item whose words are in is left whole.
   */
  lineEndedMidItem(itemId: string, textHeard: (heardMs: number) => string | null): void {
    const last = this.lastAgentItem;
    if (!last || last.id !== itemId || last.u.text !== null || last.u.written) return;
    last.u.text = textHeard(this.stopWhereHeard(last.u))?.trim() || null;
    this.write(last.u);
  }

  /** The agent's item is cut where the callee has heard it, and its marks let go: no more of it plays. Returns the ms heard. */
  private stopWhereHeard(u: Utterance): number {
    u.playedBytes = this.playedNow(u);
    this.marks = [];
    this.unmarked = null;
    u.cut = true;
    return Math.round(u.playedBytes / BYTES_PER_MS);
  }

  /**
   * The time a use of a tool answered now is written at: once the turns begun before it are written (each turn
   * waiting at most ORDER_WAIT_MS for those before it).
   */
  inOrder(): Promise<number> {
    return new Promise((resolve) => {
      this.order.push({ u: null, write: resolve, readyAt: performance.now() });
      this.release();
    });
  }

  /** Writes every turn heard of, played out or not, then what the timing measured; resolves once all are written. */
  async close(): Promise<void> {
    for (const u of this.items.values()) this.write(u, true);
    this.closed = true;
    this.release();
    await this.writes.catch(() => undefined);
    await this.options.writeLatency?.(this.timing.latency()).catch((err: Error) => this.logger.error({ callId: this.callId, err: err.message }, 'could not record the call latency'));
  }

  /**
   * How much of an item has played by now. Marks come back every 100 ms of audio, too coarse to cut an item where
   * the callee heard it, so the line is taken to have gone on playing at its rate since it last said where it was:
   * since the item's own last mark, or since its first audio went out (or the audio before it finished, if later);
   * never more than was sent, and nothing while audio of an earlier item is still to play. The time since is call
   * time, the callee's audio heard meanwhile: the line carries both ways at one pace, which the wall clock of a busy
   * process (its messages read late, in a burst) does not keep.
   */
  private playedNow(u: Utterance): number {
    if (this.marks.some((m) => m.item !== u)) return u.playedBytes;
    const from = u.playedBytes > 0 ? u.playedAt : Math.max(u.playedAt ?? Infinity, this.lastPlayedAt ?? -Infinity);
    if (from === null || !Number.isFinite(from)) return u.playedBytes;
    const elapsed = Math.max(0, this.positionMs - from);
    return Math.min(u.sentBytes, u.playedBytes + Math.floor(elapsed * BYTES_PER_MS));
  }

  /** The turn an item is, numbered when first heard of, so turns keep the order they began in. */
  private utterance(itemId: string, speaker: Speaker, startMs: number): Utterance {
    let u = this.items.get(itemId);
    if (!u) {
      u = { seq: this.nextSeq++, speaker, startMs: Math.round(startMs), endMs: null, sentBytes: 0, playedBytes: 0, playedAt: null, cut: false, text: null, written: false };
      this.items.set(itemId, u);
      this.order.push({ u, write: null, readyAt: null });
    }
    return u;
  }

  /**
   * Writes a turn once it has been heard: the callee's when transcribed; the agent's when its audio has played,
   * or stopped where the callee cut in, or when the session ends (`flush`).
   */
  private write(u: Utterance, flush = false): void {
    if (u.written || u.text === null) return;
    if (u.speaker === 'agent' && !u.cut && u.playedBytes < u.sentBytes && !flush) return;
    u.written = true;
    const endMs =
      u.speaker === 'agent' && u.endMs === null ? u.startMs + Math.round((u.cut ? u.playedBytes : u.sentBytes) / BYTES_PER_MS) : (u.endMs ?? Math.max(u.startMs, Math.round(this.positionMs)));
    const turn: TimedTurn = { speaker: u.speaker, text: u.text, startMs: u.startMs, endMs };
    // A turn let go as wordless that has words after all is written after what is waiting.
    let entry = this.order.find((e) => e.u === u);
    if (!entry) {
      entry = { u, write: null, readyAt: null };
      this.order.push(entry);
    }
    entry.readyAt = performance.now();
    entry.write = (heardAt) => {
      const write = () => this.writeTurn(u.seq, turn, heardAt);
      this.writes = this.writes.then(write, write);
      this.writes.catch((err: Error) => this.logger.error({ callId: this.callId, err: err.message }, 'could not record a turn'));
    };
    this.release();
  }

  /**
   * Writes, in order, what is ready and has nothing before it still to come: a callee turn whose words are not in,
   * an agent turn with audio on the line or words to come (not one cut before any was heard). What has waited
   * ORDER_WAIT_MS goes anyway; once closed, all goes.
   */
  private release(): void {
    const now = performance.now();
    const waitMs = this.options.orderWaitMs ?? ORDER_WAIT_MS;
    let held = false;
    let due = Infinity;
    this.order = this.order.filter((e) => {
      if (e.readyAt !== null && (!held || this.closed || now - e.readyAt >= waitMs)) {
        this.lastHeardAt = Math.max(Date.now(), this.lastHeardAt + 1);
        e.write!(this.lastHeardAt);
        return false;
      }
      if (this.closed) return false;
      if (e.readyAt !== null) due = Math.min(due, e.readyAt + waitMs);
      else if (e.u!.speaker === 'callee' || (e.u!.sentBytes > 0 && !e.u!.cut)) held = true;
      return true;
    });
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = Number.isFinite(due) ? setTimeout(() => this.release(), Math.max(0, due - now)) : null;
  }
}
