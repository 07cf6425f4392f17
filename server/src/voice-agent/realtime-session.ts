// One call's conversation with the realtime model, on a live line: the callee's audio goes up as
// input_audio_buffer.append, the model's audio comes down to the line, and the model's events say what was said,
// which the turn ledger keeps (turn-ledger.ts). The model's function calls go to the call's tools (tools.ts).
import type { Logger } from 'pino';
import { WebSocket, type RawData } from 'ws';
import type { LineEnd, LineSession, LiveLine } from '../telephony/live-line.js';
import type { LineBrief } from './conversation.js';
import type { RealtimeProtocol } from './realtime-protocol.js';
import type { ToolContext, ToolRegistry } from './tools.js';
import type { TurnLedger } from './turn-ledger.js';

/** Callee audio kept while the model's socket opens (10 s); older audio is dropped rather than piling up. */
const MAX_QUEUED_MESSAGES = 500;
/** The mark that follows the goodbye: once it comes back, the goodbye has been heard. */
const GOODBYE_MARK = 'end_call';

export interface RealtimeConnection {
  url: string;
  model: string;
  apiKey: string;
  /** The interface the server speaks: GA (the default) or beta. */
  protocol: RealtimeProtocol;
  /** How long after end_call the goodbye may keep playing before the line is hung up anyway. */
  endGraceMs?: number;
}

type Json = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** A function call's arguments (a JSON object in a string); anything else is no arguments. */
function argumentsOf(v: unknown): Record<string, unknown> {
  try {
    const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : null;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export class RealtimeSession implements LineSession {
  readonly done: Promise<LineEnd>;
  private resolveDone!: (r: LineEnd) => void;
  private readonly ws: WebSocket;
  private readonly queue: string[] = [];
  private readonly tool: ToolContext;
  /** The function calls run, by call_id: the model's function call is reported by two events. */
  private readonly toolCalls = new Set<string>();
  private ending = false;
  private over = false;
  private endTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly brief: LineBrief,
    private readonly line: LiveLine,
    private readonly ledger: TurnLedger,
    private readonly tools: ToolRegistry,
    private readonly conn: RealtimeConnection,
    private readonly logger: Logger,
    /** Records that the callee asked not to be called again (durably: the engine reads it as the call ends). */
    recordOptOut: () => Promise<void>,
    /** Records that the line is a voicemail greeting (the voicemail_detected tool; machine-screen.ts). */
    recordVoicemail?: () => Promise<void>,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.tool = { callId: brief.callId, line, logger, endCall: () => this.endCall(), recordOptOut, recordVoicemail };
    const url = new URL(conn.url);
    url.searchParams.set('model', conn.model);
    // Compression is not offered: base64 audio gains little from it and would cost CPU on every frame.
    this.ws = new WebSocket(url, { headers: { Authorization: `Bearer ${conn.apiKey}`, ...conn.protocol.headers }, perMessageDeflate: false });
    this.ws.on('open', () => {
      this.ws.send(JSON.stringify(conn.protocol.sessionUpdate(brief, tools.offered)));
      // The agent speaks first: the callee has just picked up.
      this.ws.send(JSON.stringify({ type: 'response.create' }));
      for (const m of this.queue.splice(0)) this.ws.send(m);
    });
    this.ws.on('message', (data: RawData) => this.onEvent(data));
    // The error's message may quote the server's reply, never the key; log its code only.
    this.ws.on('error', (err: NodeJS.ErrnoException) => this.logger.warn({ callId: brief.callId, code: err.code ?? null }, 'realtime socket error'));
    this.ws.on('close', (code: number) => {
      if (this.over) return;
      this.logger.warn({ callId: brief.callId, code }, 'realtime socket closed mid-call; hanging up with the transcript so far');
      void this.finish('agent_lost');
    });
  }

  heard(payload: string, timestampMs: number | null): void {
    if (this.ending) return;
    this.ledger.heard(payload, timestampMs);
    this.send({ type: 'input_audio_buffer.append', audio: payload });
  }

  marked(name: string): void {
    if (name === GOODBYE_MARK) void this.finish('end_call');
    else this.ledger.marked(name);
  }

  /** Keys the callee presses are not passed on: the model hears the line's audio, tones included. */
  dtmf(_digit: string): void {}

  /** The line ended (the callee hung up, or the carrier did): close the model's socket. */
  ended(): Promise<LineEnd> {
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
      case 'input_audio_buffer.speech_started': {
        if (itemId) this.ledger.calleeStarted(itemId, num(e.audio_start_ms));
        // The callee talks over the agent: its audio is stopped where the callee heard it, and so is its item.
        const cut = this.ledger.cutIn();
        if (cut) this.send({ type: 'conversation.item.truncate', item_id: cut.itemId, content_index: 0, audio_end_ms: cut.heardMs });
        break;
      }
      case 'input_audio_buffer.speech_stopped':
        if (itemId) this.ledger.calleeStopped(itemId, num(e.audio_end_ms));
        break;
      case 'conversation.item.input_audio_transcription.completed':
        if (itemId) this.ledger.said(itemId, 'callee', str(e.transcript));
        break;
      case this.conn.protocol.events.audioDelta: {
        const delta = str(e.delta);
        if (itemId && delta !== null && !this.ending) this.ledger.play(itemId, delta);
        break;
      }
      case this.conn.protocol.events.audioDone:
        this.ledger.markSent();
        break;
      case this.conn.protocol.events.audioTranscriptDone:
        this.ledger.markSent();
        if (itemId) this.ledger.said(itemId, 'agent', str(e.transcript));
        break;
      case 'response.function_call_arguments.done':
        this.functionCalled(str(e.name), str(e.call_id), e.arguments);
        break;
      case 'response.output_item.done': {
        const item = typeof e.item === 'object' && e.item !== null ? (e.item as Json) : null;
        if (item?.type === 'function_call') this.functionCalled(str(item.name), str(item.call_id), item.arguments);
        break;
      }
      case 'error': {
        const err = typeof e.error === 'object' && e.error !== null ? (e.error as Json) : {};
        this.logger.warn({ callId: this.brief.callId, type: str(err.type), code: str(err.code), message: str(err.message) }, 'realtime error event');
        break;
      }
    }
  }

  /** Runs the tool the model called, once per call; its answer goes back to the model, which goes on. */
  private functionCalled(name: string | null, callId: string | null, args: unknown): void {
    const tool = name === null ? undefined : this.tools.find(name);
    if (!tool || (callId !== null && this.toolCalls.has(callId))) return;
    if (callId !== null) this.toolCalls.add(callId);
    void Promise.resolve(tool.run(argumentsOf(args), this.tool)).then(
      (output) => {
        if (output === undefined || callId === null) return;
        this.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output: JSON.stringify(output) } });
        if (!this.ending) this.send({ type: 'response.create' });
      },
      (err: Error) => this.logger.error({ callId: this.brief.callId, tool: tool.name, err: err.message }, 'tool failed'),
    );
  }

  /** The model called end_call: let its goodbye play out (the line's mark says when), then hang up. */
  private endCall(): void {
    if (this.ending) return;
    this.ending = true;
    this.line.mark(GOODBYE_MARK);
    this.endTimer = setTimeout(() => void this.finish('end_call'), this.conn.endGraceMs ?? 5000);
  }

  private async finish(reason: LineEnd): Promise<void> {
    if (this.over) return;
    this.over = true;
    this.ending = true;
    if (this.endTimer) clearTimeout(this.endTimer);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    else if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    // Every turn is written before the carrier hears of the end, so the engine reads the whole transcript.
    await this.ledger.close();
    if (reason !== 'line_ended') {
      await this.line.hangUp(reason).catch((err: Error) => this.logger.error({ callId: this.brief.callId, err: err.message }, 'hang-up failed'));
    }
    this.resolveDone(reason);
  }
}
