// A local stand-in for an OpenAI-compatible realtime speech endpoint (the Realtime API's WebSocket events), on
// 127.0.0.1:0. It plays the model and its transcriber from a script: agent turns are spoken as mu-law audio
// deltas with their transcript; a callee turn is "heard" once enough of the caller's audio has arrived, and comes
// back as speech_started/stopped and a completed transcription; end_call is a function call; drop cuts the socket.
import { EventEmitter } from 'node:events';
import { untilChange } from './until-change.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { muLawTone } from './fake-media-peer.js';

export type RealtimeStep =
  | { agent: string; audioBytes?: number }
  /** Heard after `afterBytes` more bytes of the caller's audio. */
  | { callee: string; afterBytes: number }
  | { endCall: true }
  /** The socket is cut (as a network failure would), once `afterBytes` more bytes have arrived. */
  | { drop: true; afterBytes?: number };

export interface FakeRealtimeOptions {
  script: RealtimeStep[];
  /** The GA event names (response.output_audio.delta, …) instead of the beta ones. */
  gaNames?: boolean;
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
    wss.on('connection', (ws, req) => fake.serve(ws, { url: req.url ?? '', headers: req.headers, received: [], appendedBytes: 0, sentAudioBytes: 0, closed: false }, options));
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
    const steps = [...options.script];
    const names = options.gaNames
      ? { delta: 'response.output_audio.delta', transcript: 'response.output_audio_transcript.done' }
      : { delta: 'response.audio.delta', transcript: 'response.audio_transcript.done' };
    let ids = 0;
    let eventIds = 0;
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
          emit({ type: 'response.output_item.added', response_id: responseId, item: { id: itemId, type: 'message', role: 'assistant' } });
          for (let at = 0; at < audio.length; at += 800) {
            const chunk = audio.subarray(at, at + 800);
            seen.sentAudioBytes += chunk.length;
            emit({ type: names.delta, response_id: responseId, item_id: itemId, output_index: 0, content_index: 0, delta: chunk.toString('base64') });
          }
          emit({ type: names.transcript, response_id: responseId, item_id: itemId, output_index: 0, content_index: 0, transcript: step.agent });
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

    emit({ type: 'session.created', session: { id: 'sess_1', object: 'realtime.session' } });
    ws.on('message', (data: RawData) => {
      let event: Record<string, unknown> & { type: string };
      try {
        event = JSON.parse(data.toString());
      } catch {
        emit({ type: 'error', error: { type: 'invalid_request_error', message: 'not JSON' } });
        return;
      }
      seen.received.push(event);
      if (event.type === 'session.update') emit({ type: 'session.updated', session: event.session });
      else if (event.type === 'response.create') respond();
      else if (event.type === 'input_audio_buffer.append') hear(Buffer.from(String(event.audio), 'base64').length);
      this.emit('change');
    });
    ws.on('close', () => {
      seen.closed = true;
      this.emit('change');
    });
  }
}
