// A local stand-in for ElevenLabs' text-to-speech WebSocket, `/v1/text-to-speech/{voice_id}/stream-input`, written
// from its API reference (https://elevenlabs.io/docs/api-reference/text-to-speech/v-1-text-to-speech-voice-id-stream-input,
// the AsyncAPI spec in elevenlabs/elevenlabs-docs fern/apis/api/asyncapi.yml) and its websocket guide
// (elevenlabs-docs api-reference/how-to-use-websocket.mdx):
// - The handshake carries the key in `xi-api-key`; a wrong one is refused with 401 before the upgrade, in the REST
//   API's {detail: {status, message}} shape. Without the header the key is read from the first message's
//   `xi_api_key`, as the reference allows; a wrong one there closes the socket 1008 (the fake's choice of code).
// - The first message is {text: ' '} with optional voice_settings and generation_config.chunk_length_schedule
//   (default [120, 160, 250, 290]); voice_settings sent again with other values closes the socket 1008 with the
//   server's words. Then text messages are buffered, as the guide explains, and spoken when the buffer reaches the
//   schedule's next length, when a message says `flush: true`, when `try_trigger_generation` finds at least 50
//   characters, and at {text: ''}, the end of input, after which the remaining audio, {isFinal: true} and a 1000
//   close follow.
// - Audio comes as {audio: <base64 in the query's output_format>, isFinal: false, normalizedAlignment, alignment},
//   several messages a generation at a pace, the alignment on a generation's first message only (per-chunk
//   alignment is the sync_alignment option). Its audio is a mu-law tone whose pitch follows the text and whose
//   length follows its characters (bytesPerChar), so a test knows to the byte what it said (`ulawFor`). It speaks
//   ulaw_8000 only; another output_format is refused with 400 at the handshake.
// - No message for inactivityMs (20 s, as the reference's inactivity_timeout) closes the socket 1008 with the
//   server's words.
// Bad days are queued per connection (`play`): a handshake refused with any status (429 with Retry-After, 5xx), an
// error message after some audio that leaves the socket open ({message, error}), a close with a code and reason
// after some audio, a stall (nothing more, the socket open), a drop (the TCP socket destroyed, no close frame), or a
// pause after some audio until the test releases it.
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { muLawTone } from './fake-media-peer.js';

const DEFAULT_SCHEDULE = [120, 160, 250, 290];
const TRIGGER_MIN_CHARS = 50;
export const INACTIVITY_REASON = (seconds: number) =>
  `Have not received a new text input within the timeout of ${seconds} seconds. Streaming input terminated. Please make sure to either feed the input in the timely manner, or to send the end of input text (empty string "") when done.`;
export const VOICE_SETTINGS_REASON = 'voice_settings field must be provided in the first message and then either be not provided or not change.';

/** How the fake treats one connection. */
export type ElevenLabsPlay =
  | 'ok'
  /** The upgrade refused with this status (Retry-After when given). */
  | { handshake: number; retryAfter?: string }
  /** After this many audio messages, an error message; nothing more is generated and the socket stays open. */
  | { errorAfterChunks: number; error: string; message: string }
  /** After this many audio messages, a close with this code and reason. */
  | { closeAfterChunks: number; code: number; reason: string }
  /** After this many audio messages, nothing more; the socket stays open. */
  | { stallAfterChunks: number }
  /** After this many audio messages, the TCP socket destroyed without a close frame. */
  | { dropAfterChunks: number }
  /** After this many audio messages, a pause until `release()`. */
  | { holdAfterChunks: number };

export interface ElevenLabsConnection {
  /** 1-based, in order of arrival. */
  n: number;
  voiceId: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Every message the client sent, parsed. */
  messages: any[];
  /** The texts spoken, one a generation, in order. */
  generations: string[];
  /** Audio messages sent. */
  audioMessages: number;
  closed: { code: number; by: 'client' | 'server' | 'drop' } | null;
}

export interface FakeElevenLabsOptions {
  apiKey: string;
  /** Audio a character of text; 400 bytes (50 ms of ulaw_8000) by default. */
  bytesPerChar?: number;
  /** Bytes of audio a message; 1600 (200 ms) by default. */
  chunkBytes?: number;
  /** Pause between audio messages; 5 ms by default. */
  intervalMs?: number;
  /** No client message for this long closes the socket; 20 s by default. */
  inactivityMs?: number;
  /** The voices GET /v1/voices/{voice_id} knows, id to name; Rachel's by default. */
  voices?: Record<string, string>;
}

export interface FakeElevenLabs {
  /** The API root to configure, `ws://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  connections: ElevenLabsConnection[];
  /** `connect 1`, `refused 1 401`, `text 1 <text>`, `audio 1`, `final 1`, `error 1`, `held 1`, `stalled 1`, `close 1 <code> <by>`. */
  events: string[];
  play(...plays: ElevenLabsPlay[]): void;
  release(): void;
  /** The audio it speaks for a generation's text. */
  ulawFor(text: string): Buffer;
  close(): Promise<void>;
}

export async function startFakeElevenLabs(options: FakeElevenLabsOptions): Promise<FakeElevenLabs> {
  const bytesPerChar = options.bytesPerChar ?? 400;
  const chunkBytes = options.chunkBytes ?? 1600;
  const intervalMs = options.intervalMs ?? 5;
  const inactivityMs = options.inactivityMs ?? 20_000;
  const connections: ElevenLabsConnection[] = [];
  const events: string[] = [];
  const queue: ElevenLabsPlay[] = [];
  let held: Array<() => void> = [];
  const release = () => {
    for (const resolve of held) resolve();
    held = [];
  };

  const ulawFor = (text: string): Buffer => {
    let hash = 0;
    for (const c of text) hash = (hash * 31 + c.codePointAt(0)!) % 997;
    return muLawTone(text.length * bytesPerChar, 200 + hash);
  };

  const refuse = (socket: Duplex, status: number, detail: { status: string; message: string }, headers: Record<string, string> = {}) => {
    const body = JSON.stringify({ detail });
    const head = [
      `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 429 ? 'Too Many Requests' : 'Error'}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    for (const [k, v] of Object.entries(headers)) head.push(`${k}: ${v}`);
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  };

  const wss = new WebSocketServer({ noServer: true });
  const server = createServer((req, res) => {
    // GET /v1/voices/{voice_id}, as the REST API answers it: the key in xi-api-key, 401 for a wrong one, and
    // 400 voice_not_found for a voice the account cannot use.
    const voice = req.method === 'GET' ? /^\/v1\/voices\/([^/?]+)$/.exec(new URL(req.url ?? '/', 'http://fake').pathname) : null;
    if (!voice) return void res.writeHead(426).end();
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers['xi-api-key'] !== options.apiKey) return send(401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    const id = decodeURIComponent(voice[1]!);
    const name = (options.voices ?? { '21m00Tcm4TlvDq8ikWAM': 'Rachel' })[id];
    if (!name) return send(400, { detail: { status: 'voice_not_found', message: `A voice with the voice_id ${id} was not found.` } });
    send(200, { voice_id: id, name, category: 'premade', labels: {}, settings: null });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const match = /^\/v1\/text-to-speech\/([^/]+)\/stream-input$/.exec(url.pathname);
    const n = connections.length + 1;
    const record: ElevenLabsConnection = {
      n,
      voiceId: match ? decodeURIComponent(match[1]!) : '',
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      messages: [],
      generations: [],
      audioMessages: 0,
      closed: null,
    };
    connections.push(record);
    const play = queue.shift() ?? 'ok';
    const headerKey = req.headers['xi-api-key'];
    const refused = (status: number, detail: { status: string; message: string }, headers?: Record<string, string>) => {
      events.push(`refused ${n} ${status}`);
      refuse(socket, status, detail, headers);
    };
    if (!match) return refused(404, { status: 'not_found', message: 'Not found' });
    if (headerKey !== undefined && headerKey !== options.apiKey) return refused(401, { status: 'invalid_api_key', message: 'Invalid API key' });
    if ((record.query.output_format ?? 'mp3_44100') !== 'ulaw_8000') return refused(400, { status: 'invalid_output_format', message: 'This fake speaks ulaw_8000 only.' });
    if (typeof play === 'object' && 'handshake' in play) {
      const detail = play.handshake === 429 ? { status: 'too_many_concurrent_requests', message: 'Too many concurrent requests.' } : { status: 'error', message: 'Something went wrong.' };
      return refused(play.handshake, detail, play.retryAfter !== undefined ? { 'Retry-After': play.retryAfter } : {});
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, record, play, headerKey === undefined));
  });

  const serve = (ws: WebSocket, record: ElevenLabsConnection, play: ElevenLabsPlay, keyInFirstMessage: boolean) => {
    const { n } = record;
    events.push(`connect ${n}`);
    let buffer = '';
    let schedule = DEFAULT_SCHEDULE;
    let generated = 0;
    let firstSettings: string | null = null;
    let ended = false;
    /** No more audio: an error was sent, the socket stalled, closed or dropped. */
    let stopped = false;
    let work: Promise<void> = Promise.resolve();

    /** The server closes the socket. */
    const closeBy = (code: number, reason: string) => {
      if (record.closed) return;
      stopped = true;
      record.closed = { code, by: 'server' };
      events.push(`close ${n} ${code} server`);
      ws.close(code, reason);
    };
    let inactivity = setTimeout(() => closeBy(1008, INACTIVITY_REASON(inactivityMs / 1000)), inactivityMs);
    ws.on('close', (code: number) => {
      clearTimeout(inactivity);
      stopped = true;
      if (!record.closed) {
        record.closed = { code, by: 'client' };
        events.push(`close ${n} ${code} client`);
      }
      release();
    });

    /** Sends one audio message, unless the play says this is where the day goes bad. */
    const beforeAudio = async (): Promise<boolean> => {
      if (stopped) return false;
      const sent = record.audioMessages;
      if (typeof play !== 'object') return true;
      if ('errorAfterChunks' in play && sent === play.errorAfterChunks) {
        events.push(`error ${n}`);
        ws.send(JSON.stringify({ message: play.message, error: play.error }));
        stopped = true;
        return false;
      }
      if ('closeAfterChunks' in play && sent === play.closeAfterChunks) {
        closeBy(play.code, play.reason);
        return false;
      }
      if ('stallAfterChunks' in play && sent === play.stallAfterChunks) {
        events.push(`stalled ${n}`);
        stopped = true;
        return false;
      }
      if ('dropAfterChunks' in play && sent === play.dropAfterChunks) {
        record.closed = { code: 1006, by: 'drop' };
        events.push(`close ${n} 1006 drop`);
        stopped = true;
        ws.terminate();
        return false;
      }
      if ('holdAfterChunks' in play && sent === play.holdAfterChunks && !events.includes(`held ${n}`)) {
        events.push(`held ${n}`);
        await new Promise<void>((resolve) => held.push(resolve));
      }
      return !stopped;
    };

    const generate = (text: string) =>
      (work = work.then(async () => {
        const spoken = text.trim();
        if (!spoken || stopped) return;
        record.generations.push(spoken);
        generated++;
        const audio = ulawFor(spoken);
        const chars = [...spoken];
        const alignment = { chars, char_start_times_ms: chars.map((_, i) => (i * bytesPerChar) / 8), chars_durations_ms: chars.map(() => bytesPerChar / 8) };
        for (let at = 0; at < audio.length; at += chunkBytes) {
          if (!(await beforeAudio())) return;
          const first = at === 0;
          ws.send(
            JSON.stringify({ audio: audio.subarray(at, at + chunkBytes).toString('base64'), isFinal: false, normalizedAlignment: first ? alignment : null, alignment: first ? alignment : null }),
          );
          record.audioMessages++;
          events.push(`audio ${n}`);
          await new Promise((resolve) => setTimeout(resolve, intervalMs));
        }
      }));

    const threshold = () => schedule[Math.min(generated, schedule.length - 1)]!;
    ws.on('message', (data: RawData) => {
      clearTimeout(inactivity);
      inactivity = setTimeout(() => closeBy(1008, INACTIVITY_REASON(inactivityMs / 1000)), inactivityMs);
      let message: any;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return closeBy(1003, 'Invalid JSON');
      }
      record.messages.push(message);
      if (stopped || ended) return;
      if (record.messages.length === 1) {
        if (keyInFirstMessage && message.xi_api_key !== options.apiKey) return closeBy(1008, 'Invalid API key');
        if (message.text !== ' ') return closeBy(1008, 'The first message must have the text " ".');
        if (message.voice_settings) firstSettings = JSON.stringify(message.voice_settings);
        if (Array.isArray(message.generation_config?.chunk_length_schedule)) schedule = message.generation_config.chunk_length_schedule;
        return;
      }
      if (message.voice_settings && JSON.stringify(message.voice_settings) !== firstSettings) return closeBy(1008, VOICE_SETTINGS_REASON);
      if (typeof message.text !== 'string') return closeBy(1008, 'A message must have a text.');
      if (message.text === '') {
        events.push(`text ${n} <end>`);
        ended = true;
        generate(buffer);
        buffer = '';
        void work.then(() => {
          if (stopped) return;
          ws.send(JSON.stringify({ audio: null, isFinal: true, normalizedAlignment: null, alignment: null }));
          events.push(`final ${n}`);
          closeBy(1000, '');
        });
        return;
      }
      events.push(`text ${n} ${message.text}`);
      buffer += message.text;
      if (message.flush === true || buffer.length >= threshold() || (message.try_trigger_generation === true && buffer.length >= TRIGGER_MIN_CHARS)) {
        generate(buffer);
        buffer = '';
      }
    });
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `ws://127.0.0.1:${port}/v1`,
    connections,
    events,
    play: (...plays) => void queue.push(...plays),
    release,
    ulawFor,
    async close() {
      release();
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
