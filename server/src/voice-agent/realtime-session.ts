// One call's conversation with the realtime model: the callee's audio goes up as input_audio_buffer.append, the
// model's audio comes down to the line, and the transcript is written turn by turn as the model's events say
// what was said. Call time is measured on the callee's audio stream (8 bytes of mu-law per ms), so turn times
// are positions in the call, not wall-clock readings.
import type { Logger } from 'pino';
import { WebSocket, type RawData } from 'ws';
import type { Speaker, TimedTurn } from './conversation.js';
import { END_CALL_TOOL, OPT_OUT_TOOL, type LineBrief } from './realtime-instructions.js';
import type { RealtimeProtocol } from './realtime-protocol.js';

const BYTES_PER_MS = 8;
/**
 * The agent's audio is marked (Twilio echoes a mark once everything before it has played) every 100 ms of audio,
 * and where an item's audio ends. A mark per delta would double the messages each way when a model streams small
 * deltas; 100 ms is how early a barge-in may cut the transcript of what was heard.
 */
const MARK_EVERY_BYTES = 100 * BYTES_PER_MS;
/** Callee audio kept while the model's socket opens (10 s); older audio is dropped rather than piling up. */
const MAX_QUEUED_MESSAGES = 500;

export type EndReason = 'end_call' | 'agent_lost' | 'line_ended';

/** The phone line as the session sees it (the media bridge implements it over Twilio's stream). */
export interface AgentLine {
  /** Plays base64 mu-law to the callee. */
  play(payload: string): void;
  /** Asks to be told (through `marked`) when everything played so far has been heard. */
  mark(name: string): void;
  /** Drops audio sent but not yet played: the callee is talking over the agent. */
  clear(): void;
  /** Ends the call on the carrier: the agent hung up, or lost its model. */
  hangUp(reason: Exclude<EndReason, 'line_ended'>): Promise<void>;
}

export interface RealtimeConnection {
  url: string;
  model: string;
  apiKey: string;
  /** The interface the server speaks: GA (the default) or beta. */
  protocol: RealtimeProtocol;
  /** How long after end_call the goodbye may keep playing before the line is hung up anyway. */
  endGraceMs?: number;
}

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

type Json = Record<string, unknown>;
/** The bytes a base64 string carries, without decoding it. */
const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

export class RealtimeSession {
  /** Resolves once the session is over and every turn it heard is written. */
  readonly done: Promise<EndReason>;
  private resolveDone!: (r: EndReason) => void;
  private readonly ws: WebSocket;
  private readonly queue: string[] = [];
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
  private ending = false;
  private ended = false;
  private endTimer: NodeJS.Timeout | null = null;
  /** The record_opt_out calls answered, by call_id: the model's function call is reported by two events. */
  private readonly optOutCalls = new Set<string>();

  constructor(
    private readonly brief: LineBrief,
    private readonly line: AgentLine,
    private readonly writeTurn: (seq: number, turn: TimedTurn) => Promise<void>,
    private readonly conn: RealtimeConnection,
    private readonly logger: Logger,
    /** Records that the callee asked not to be called again (durably: the engine reads it as the call ends). */
    private readonly recordOptOut: () => Promise<void> = async () => {},
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const url = new URL(conn.url);
    url.searchParams.set('model', conn.model);
    // Compression is not offered: base64 audio gains little from it and would cost CPU on every frame.
    this.ws = new WebSocket(url, { headers: { Authorization: `Bearer ${conn.apiKey}`, ...conn.protocol.headers }, perMessageDeflate: false });
    this.ws.on('open', () => {
      this.ws.send(JSON.stringify(conn.protocol.sessionUpdate(brief)));
      // The agent speaks first: the callee has just picked up.
      this.ws.send(JSON.stringify({ type: 'response.create' }));
      for (const m of this.queue.splice(0)) this.ws.send(m);
    });
    this.ws.on('message', (data: RawData) => this.onEvent(data));
    // The error's message may quote the server's reply, never the key; log its code only.
    this.ws.on('error', (err: NodeJS.ErrnoException) => this.logger.warn({ callId: brief.callId, code: err.code ?? null }, 'realtime socket error'));
    this.ws.on('close', (code: number) => {
      if (this.ended) return;
      this.logger.warn({ callId: brief.callId, code }, 'realtime socket closed mid-call; hanging up with the transcript so far');
      void this.finish('agent_lost');
    });
  }

  /** Callee audio from the line (base64 mu-law) at its position in the stream, when the line gives one. */
  hear(payload: string, timestampMs: number | null): void {
    if (this.ending) return;
    const bytes = base64Bytes(payload);
    this.heardBytes += bytes;
    const endMs = timestampMs !== null ? timestampMs + bytes / BYTES_PER_MS : this.heardBytes / BYTES_PER_MS;
    this.positionMs = Math.max(this.positionMs, endMs);
    this.send({ type: 'input_audio_buffer.append', audio: payload });
  }

  /** The line played everything up to a mark. */
  marked(name: string): void {
    if (name === END_CALL_TOOL) {
      void this.finish('end_call');
      return;
    }
    const i = this.marks.findIndex((m) => m.name === name);
    if (i < 0) return;
    for (const m of this.marks.splice(0, i + 1)) {
      m.item.playedBytes = Math.max(m.item.playedBytes, m.through);
      this.write(m.item);
    }
  }

  /** The line ended (the callee hung up, or the carrier did): close the model's socket. */
  lineEnded(): Promise<EndReason> {
    void this.finish('line_ended');
    return this.done;
  }

  private send(event: Json): void {
    const data = JSON.stringify(event);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(data);
    else if (this.ws.readyState === WebSocket.CONNECTING && this.queue.length < MAX_QUEUED_MESSAGES) this.queue.push(data);
  }

  private onEvent(data: RawData): void {
    let e: Json;
    try {
      const parsed: unknown = JSON.parse(data.toString());
      if (typeof parsed !== 'object' || parsed === null) return;
      e = parsed as Json;
    } catch {
      return;
    }
    const itemId = str(e.item_id);
    switch (e.type) {
      case 'input_audio_buffer.speech_started':
        if (itemId) this.utterance(itemId, 'callee', num(e.audio_start_ms) ?? this.positionMs);
        this.bargeIn();
        break;
      case 'input_audio_buffer.speech_stopped':
        if (itemId) this.utterance(itemId, 'callee', this.positionMs).endMs = num(e.audio_end_ms) ?? this.positionMs;
        break;
      case 'conversation.item.input_audio_transcription.completed':
        if (itemId) this.said(itemId, 'callee', str(e.transcript));
        break;
      case this.conn.protocol.events.audioDelta: {
        const delta = str(e.delta);
        if (!itemId || delta === null || this.ending) break;
        const u = this.utterance(itemId, 'agent', this.positionMs);
        if (u.cut) break; // the rest of a reply the callee talked over, still in flight
        if (this.unmarked && this.unmarked.item !== u) this.markSent();
        this.lastAgentItem = { id: itemId, u };
        const bytes = base64Bytes(delta);
        u.sentBytes += bytes;
        this.line.play(delta);
        this.unmarked = { item: u, bytes: (this.unmarked?.bytes ?? 0) + bytes };
        if (this.unmarked.bytes >= MARK_EVERY_BYTES) this.markSent();
        break;
      }
      case this.conn.protocol.events.audioDone:
        this.markSent();
        break;
      case this.conn.protocol.events.audioTranscriptDone:
        this.markSent();
        if (itemId) this.said(itemId, 'agent', str(e.transcript));
        break;
      case 'response.function_call_arguments.done':
        this.functionCalled(str(e.name), str(e.call_id));
        break;
      case 'response.output_item.done': {
        const item = typeof e.item === 'object' && e.item !== null ? (e.item as Json) : null;
        if (item?.type === 'function_call') this.functionCalled(str(item.name), str(item.call_id));
        break;
      }
      case 'error': {
        const err = typeof e.error === 'object' && e.error !== null ? (e.error as Json) : {};
        this.logger.warn({ callId: this.brief.callId, type: str(err.type), code: str(err.code), message: str(err.message) }, 'realtime error event');
        break;
      }
    }
  }

  /** Asks the line to say when the agent's audio sent so far has played. */
  private markSent(): void {
    if (!this.unmarked) return;
    const name = `a${++this.markCount}`;
    this.marks.push({ name, item: this.unmarked.item, through: this.unmarked.item.sentBytes });
    this.unmarked = null;
    this.line.mark(name);
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

  private said(itemId: string, speaker: Speaker, transcript: string | null): void {
    const text = transcript?.trim();
    if (!text) return;
    const u = this.utterance(itemId, speaker, this.positionMs);
    u.text = text;
    this.write(u);
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
    this.writes.catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record a turn'));
  }

  /** The callee started talking while the agent's audio was still playing: stop it where the callee heard it. */
  private bargeIn(): void {
    const last = this.lastAgentItem;
    if (!last || (this.marks.length === 0 && !this.unmarked)) return;
    this.line.clear();
    this.marks = [];
    this.unmarked = null;
    last.u.cut = true;
    this.write(last.u);
    this.send({ type: 'conversation.item.truncate', item_id: last.id, content_index: 0, audio_end_ms: Math.round(last.u.playedBytes / BYTES_PER_MS) });
  }

  private functionCalled(name: string | null, callId: string | null): void {
    if (name === END_CALL_TOOL) this.endCall();
    else if (name === OPT_OUT_TOOL && callId !== null && !this.optOutCalls.has(callId)) void this.optOut(callId);
  }

  /**
   * The model called record_opt_out: the opt-out is made durable first, then the function's output goes back and
   * the model is asked to go on (its apology and goodbye, then end_call). Written before the answer, so a model
   * that hangs up at once still leaves it recorded.
   */
  private async optOut(callId: string): Promise<void> {
    this.optOutCalls.add(callId);
    const recorded = await this.recordOptOut().then(
      () => true,
      (err: Error) => {
        this.logger.error({ callId: this.brief.callId, err: err.message }, 'could not record the opt-out; the analyst reads it from the transcript');
        return false;
      },
    );
    const output = JSON.stringify(recorded ? { recorded: true } : { recorded: false, note: 'Say you will pass the request on.' });
    this.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output } });
    if (!this.ending) this.send({ type: 'response.create' });
  }

  /** The model called end_call: let its goodbye play out (the line's mark says when), then hang up. */
  private endCall(): void {
    if (this.ending) return;
    this.ending = true;
    this.line.mark(END_CALL_TOOL);
    this.endTimer = setTimeout(() => void this.finish('end_call'), this.conn.endGraceMs ?? 5000);
  }

  private async finish(reason: EndReason): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.ending = true;
    if (this.endTimer) clearTimeout(this.endTimer);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    else if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    // Every turn is written before the carrier hears of the end, so the engine reads the whole transcript.
    for (const u of this.items.values()) this.write(u, true);
    await this.writes.catch(() => undefined);
    if (reason !== 'line_ended') {
      await this.line.hangUp(reason).catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'hang-up failed'));
    }
    this.resolveDone(reason);
  }
}
