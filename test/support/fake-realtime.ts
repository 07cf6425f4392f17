// A local stand-in for an OpenAI-compatible realtime speech endpoint (the Realtime API's WebSocket events), on
// 127.0.0.1:0. It plays the model and its transcriber from a script: agent turns are spoken as mu-law audio
// deltas with their transcript; a callee turn is "heard" once enough of the caller's audio has arrived, and comes
// back as speech_started/stopped and a completed transcription; end_call is a function call; drop cuts the socket.
// record_opt_out is a function call too, and the script goes on only once the client has answered it with a
// function_call_output item for that call and asked for a response, as the real server needs.
//
// It speaks one interface, GA (the default) or beta, and refuses the other's shapes as the real servers do: an
// OpenAI-Beta header on the GA server, or its absence on the beta one, closes the socket at once; a session.update
// in the other interface's shape (or asking for other audio than G.711 mu-law) gets an invalid_request_error and
// the socket closed, so a client speaking the wrong interface never gets a turn.
import { EventEmitter } from 'node:events';
import { untilChange } from './until-change.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { muLawTone } from './fake-media-peer.js';

export type RealtimeStep =
  /** The agent's audio in deltas of `deltaBytes` (800, 100 ms, unless given). */
  | { agent: string; audioBytes?: number; deltaBytes?: number }
  /** Heard after `afterBytes` more bytes of the caller's audio. */
  | { callee: string; afterBytes: number }
  | { endCall: true }
  /** The model calls record_opt_out, then waits for its output and a response.create before going on. */
  | { optOut: true }
  /** The socket is cut (as a network failure would), once `afterBytes` more bytes have arrived. */
  | { drop: true; afterBytes?: number };

export interface FakeRealtimeOptions {
  script: RealtimeStep[];
  /** The interface the server speaks; GA by default. */
  protocol?: 'ga' | 'beta';
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a session.update is not in the interface's shape, or null when it is. */
export function sessionShapeProblem(protocol: 'ga' | 'beta', session: unknown): { param: string; message: string } | null {
  if (!isObject(session)) return { param: 'session', message: 'session must be an object.' };
  const flat = ['modalities', 'voice', 'input_audio_format', 'output_audio_format', 'input_audio_transcription', 'turn_detection'];
  if (protocol === 'ga') {
    const beta = flat.find((k) => k in session);
    if (beta) return { param: `session.${beta}`, message: `Unknown parameter: 'session.${beta}'.` };
    if (session.type !== 'realtime') return { param: 'session.type', message: "Missing required parameter: 'session.type'." };
    const audio = isObject(session.audio) ? session.audio : {};
    const input = isObject(audio.input) ? audio.input : {};
    const output = isObject(audio.output) ? audio.output : {};
    for (const [where, side] of [['input', input], ['output', output]] as const) {
      const format = isObject(side.format) ? side.format : {};
      if (format.type !== 'audio/pcmu') return { param: `session.audio.${where}.format`, message: `This line carries G.711 mu-law: audio.${where}.format must be { type: 'audio/pcmu' }.` };
    }
    return null;
  }
  for (const ga of ['type', 'audio', 'output_modalities']) {
    if (ga in session) return { param: `session.${ga}`, message: `Unknown parameter: 'session.${ga}'.` };
  }
  if (session.input_audio_format !== 'g711_ulaw' || session.output_audio_format !== 'g711_ulaw') {
    return { param: 'session.input_audio_format', message: 'This line carries G.711 mu-law: both formats must be g711_ulaw.' };
  }
  return null;
}

export interface RealtimeConnectionSeen {
  url: string;
  headers: IncomingHttpHeaders;
  /** Every client event, parsed, in order. */
  received: Array<Record<string, unknown> & { type: string }>;
  /** Caller audio bytes appended, decoded from base64. */
  appendedBytes: number;
  /** Agent audio bytes sent as deltas. */
  sentAudioBytes: number;
  closed: boolean;
  /** Why the server refused this client, when it did. */
  refused?: string;
  /** The function_call_output items the client sent for the model's tool calls. */
  toolOutputs: Array<{ callId: string; output: string }>;
}

export class FakeRealtime extends EventEmitter {
  readonly connections: RealtimeConnectionSeen[] = [];
  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {
    super();
  }

  static async start(options: FakeRealtimeOptions): Promise<FakeRealtime> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const fake = new FakeRealtime(wss, `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/realtime`);
    wss.on('connection', (ws, req) => fake.serve(ws, { url: req.url ?? '', headers: req.headers, received: [], appendedBytes: 0, sentAudioBytes: 0, closed: false, toolOutputs: [] }, options));
    return fake;
  }

  /** Resolves when `test` holds, checked after every event the fake sees or sends. */
  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private serve(ws: WebSocket, seen: RealtimeConnectionSeen, options: FakeRealtimeOptions): void {
    this.connections.push(seen);
    const protocol = options.protocol ?? 'ga';
    const steps = [...options.script];
    const names =
      protocol === 'ga'
        ? { delta: 'response.output_audio.delta', audioDone: 'response.output_audio.done', transcript: 'response.output_audio_transcript.done' }
        : { delta: 'response.audio.delta', audioDone: 'response.audio.done', transcript: 'response.audio_transcript.done' };
    let ids = 0;
    let eventIds = 0;
    /** The record_opt_out call waiting for its function_call_output, and whether that output has come. */
    let pendingTool: { callId: string; answered: boolean } | null = null;
    let bytesSinceTurn = 0;
    let inputMs = 0;
    const emit = (event: Record<string, unknown>) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ event_id: `event_${++eventIds}`, ...event }));
    };

    // Runs agent turns (and end_call) until the script waits for the caller, or ends.
    const respond = () => {
      const responseId = `resp_${++ids}`;
      emit({ type: 'response.created', response: { id: responseId, status: 'in_progress' } });
      while (steps.length > 0) {
        const step = steps[0];
        if ('agent' in step) {
          steps.shift();
          const itemId = `item_agent_${++ids}`;
          const audio = muLawTone(step.audioBytes ?? 1600, 440);
          const item = { id: itemId, type: 'message', role: 'assistant' };
          emit({ type: 'response.output_item.added', response_id: responseId, item });
          if (protocol === 'ga') emit({ type: 'conversation.item.added', item });
          const deltaBytes = step.deltaBytes ?? 800;
          for (let at = 0; at < audio.length; at += deltaBytes) {
            const chunk = audio.subarray(at, at + deltaBytes);
            seen.sentAudioBytes += chunk.length;
            emit({ type: names.delta, response_id: responseId, item_id: itemId, output_index: 0, content_index: 0, delta: chunk.toString('base64') });
          }
          emit({ type: names.audioDone, response_id: responseId, item_id: itemId, output_index: 0, content_index: 0 });
          emit({ type: names.transcript, response_id: responseId, item_id: itemId, output_index: 0, content_index: 0, transcript: step.agent });
          if (protocol === 'ga') emit({ type: 'conversation.item.done', item: { ...item, status: 'completed' } });
        } else if ('optOut' in step) {
          steps.shift();
          const itemId = `item_call_${++ids}`;
          const callId = `call_${ids}`;
          const item = { id: itemId, type: 'function_call', status: 'completed', name: 'record_opt_out', call_id: callId, arguments: '{}' };
          emit({ type: 'response.function_call_arguments.done', response_id: responseId, item_id: itemId, output_index: 0, call_id: callId, name: 'record_opt_out', arguments: '{}' });
          emit({ type: 'response.output_item.done', response_id: responseId, output_index: 0, item });
          pendingTool = { callId, answered: false };
          break;
        } else if ('endCall' in step) {
          steps.shift();
          const itemId = `item_call_${++ids}`;
          emit({ type: 'response.function_call_arguments.done', response_id: responseId, item_id: itemId, output_index: 1, call_id: `call_${ids}`, name: 'end_call', arguments: '{"reason":"done"}' });
        } else {
          break;
        }
      }
      emit({ type: 'response.done', response: { id: responseId, status: 'completed' } });
    };

    // The caller's audio: a scripted callee turn is heard, or the socket dropped, once enough has arrived.
    const hear = (bytes: number) => {
      seen.appendedBytes += bytes;
      bytesSinceTurn += bytes;
      inputMs += bytes / 8;
      const step = steps[0];
      if (step && 'drop' in step && bytesSinceTurn >= (step.afterBytes ?? 0)) {
        steps.shift();
        ws.terminate();
        return;
      }
      if (!step || !('callee' in step) || bytesSinceTurn < step.afterBytes) return;
      steps.shift();
      const itemId = `item_callee_${++ids}`;
      emit({ type: 'input_audio_buffer.speech_started', audio_start_ms: Math.round(inputMs - bytesSinceTurn / 8), item_id: itemId });
      emit({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: Math.round(inputMs), item_id: itemId });
      emit({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
      emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, content_index: 0, transcript: step.callee });
      bytesSinceTurn = 0;
      respond();
    };

    const beta = seen.headers['openai-beta'] === 'realtime=v1';
    if (beta !== (protocol === 'beta')) {
      seen.refused = protocol === 'ga' ? 'beta header on the GA interface' : 'no beta header on the beta interface';
      ws.close(1008, seen.refused);
      return;
    }
    emit({ type: 'session.created', session: protocol === 'ga' ? { type: 'realtime', id: 'sess_1', object: 'realtime.session' } : { id: 'sess_1', object: 'realtime.session' } });
    ws.on('message', (data: RawData) => {
      let event: Record<string, unknown> & { type: string };
      try {
        event = JSON.parse(data.toString());
      } catch {
        emit({ type: 'error', error: { type: 'invalid_request_error', message: 'not JSON' } });
        return;
      }
      seen.received.push(event);
      if (seen.refused) return;
      if (event.type === 'session.update') {
        const problem = sessionShapeProblem(protocol, event.session);
        if (problem) {
          seen.refused = problem.message;
          emit({ type: 'error', error: { type: 'invalid_request_error', code: 'unknown_parameter', ...problem } });
          ws.close(1008, 'invalid session');
        } else emit({ type: 'session.updated', session: event.session });
      } else if (event.type === 'conversation.item.create') {
        const item = isObject(event.item) ? event.item : {};
        if (item.type === 'function_call_output' && pendingTool && item.call_id === pendingTool.callId) {
          pendingTool.answered = true;
          seen.toolOutputs.push({ callId: String(item.call_id), output: String(item.output) });
        }
      } else if (event.type === 'response.create') {
        // A response asked for while a tool call is unanswered gets nothing from this script.
        if (!pendingTool || pendingTool.answered) {
          pendingTool = null;
          respond();
        }
      }
      else if (event.type === 'input_audio_buffer.append') hear(Buffer.from(String(event.audio), 'base64').length);
      this.emit('change');
    });
    ws.on('close', () => {
      seen.closed = true;
      this.emit('change');
    });
  }
}
