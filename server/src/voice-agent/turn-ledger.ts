// What was said and heard on one live line, turn by turn, timed from the answer, and written as each turn is
// heard (voice-agent/recorded-turns.ts). Call time is measured on the callee's audio stream (8 bytes of mu-law per
// ms), so turn times are positions in the call, not wall-clock readings. The agent's audio goes to the line
// through the ledger, which marks it as it goes: an agent turn is written once the line says it has played, or
// cut where the callee talked over it.
import type { Logger } from 'pino';
import type { LiveLine } from '../telephony/live-line.js';
import type { Speaker, TimedTurn } from './conversation.js';

export const BYTES_PER_MS = 8;
/**
 * The agent's audio is marked every 100 ms of audio, and where an item's audio ends. A mark per delta would double
 * the messages each way when a model streams small deltas; 100 ms is how early a barge-in may cut the transcript
 * of what was heard.
 */
const MARK_EVERY_BYTES = 100 * BYTES_PER_MS;

/** Writes one turn; `seq` orders a call's turns (the order they began in). */
export type TurnWriter = (seq: number, turn: TimedTurn) => Promise<void>;

interface Utterance {
  seq: number;
  speaker: Speaker;
  startMs: number;
  endMs: number | null;
  /** Agent audio bytes sent to the line, and how many the line has confirmed played. */
  sentBytes: number;
  playedBytes: number;
  /** The callee talked over it: its audio stopped at playedBytes. */
  cut: boolean;
  text: string | null;
  written: boolean;
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

  constructor(
    private readonly line: Pick<LiveLine, 'play' | 'mark' | 'clear'>,
    private readonly writeTurn: TurnWriter,
    private readonly logger: Logger,
    private readonly callId: string,
  ) {}

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
  }

  /** The callee started talking (at `startMs` in the call, when known). */
  calleeStarted(itemId: string, startMs: number | null): void {
    this.utterance(itemId, 'callee', startMs ?? this.positionMs);
  }

  /** The callee stopped talking (at `endMs` in the call, when known). */
  calleeStopped(itemId: string, endMs: number | null): void {
    this.utterance(itemId, 'callee', this.positionMs).endMs = endMs ?? this.positionMs;
  }

  /** What was said in a turn; the callee's is written now, the agent's once its audio has played. */
  said(itemId: string, speaker: Speaker, transcript: string | null): void {
    const text = transcript?.trim();
    if (!text) return;
    const u = this.utterance(itemId, speaker, this.positionMs);
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
    u.sentBytes += bytes;
    this.line.play(payload);
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
    for (const m of this.marks.splice(0, i + 1)) {
      m.item.playedBytes = Math.max(m.item.playedBytes, m.through);
      this.write(m.item);
    }
  }

  /**
   * The callee started talking: if the agent's audio is still playing, it is dropped from the line and the agent's
   * turn cut where the callee heard it. Returns the item cut and how much of it was heard, or null.
   */
  cutIn(): { itemId: string; heardMs: number } | null {
    const last = this.lastAgentItem;
    if (!last || (this.marks.length === 0 && !this.unmarked)) return null;
    this.line.clear();
    this.marks = [];
    this.unmarked = null;
    last.u.cut = true;
    this.write(last.u);
    return { itemId: last.id, heardMs: Math.round(last.u.playedBytes / BYTES_PER_MS) };
  }

  /** Writes every turn heard of, played out or not, and resolves once all are written. */
  async close(): Promise<void> {
    for (const u of this.items.values()) this.write(u, true);
    await this.writes.catch(() => undefined);
  }

  /** The turn an item is, numbered when first heard of, so turns keep the order they began in. */
  private utterance(itemId: string, speaker: Speaker, startMs: number): Utterance {
    let u = this.items.get(itemId);
    if (!u) {
      u = { seq: this.nextSeq++, speaker, startMs: Math.round(startMs), endMs: null, sentBytes: 0, playedBytes: 0, cut: false, text: null, written: false };
      this.items.set(itemId, u);
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
    const endMs = u.speaker === 'agent' ? u.startMs + Math.round((u.cut ? u.playedBytes : u.sentBytes) / BYTES_PER_MS) : (u.endMs ?? Math.max(u.startMs, Math.round(this.positionMs)));
    const turn: TimedTurn = { speaker: u.speaker, text: u.text, startMs: u.startMs, endMs };
    const write = () => this.writeTurn(u.seq, turn);
    this.writes = this.writes.then(write, write);
    this.writes.catch((err: Error) => this.logger.error({ callId: this.callId, err: err.message }, 'could not record a turn'));
  }
}
