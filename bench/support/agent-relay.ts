// The conversation benchmark's baseline: the least a bridge between Twilio's media stream and a realtime model
// must do, in a plain `ws` relay. Each socket opened at /twilio/media/<id> gets, at its `start`, a socket of its
// own to the realtime server (SVC_REALTIME_URL) with the session set to mu-law both ways and a response asked for;
// the callee's `media` goes up as input_audio_buffer.append, the model's audio deltas come down as `media`, and the
// model's speech_started is answered with a `clear`. Nothing else: no store, no checks, no marks, no turns, no
// truncation. Prints `ready <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

const target = process.env.SVC_REALTIME_URL!;
const SESSION = {
  type: 'session.update',
  session: {
    type: 'realtime',
    output_modalities: ['audio'],
    instructions: 'Relay.',
    audio: { input: { format: { type: 'audio/pcmu' }, turn_detection: { type: 'server_vad' } }, output: { format: { type: 'audio/pcmu' }, voice: 'marin' } },
  },
};
const server = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
wss.on('connection', (line) => {
  let model: WebSocket | null = null;
  let streamSid = '';
  const queued: string[] = [];
  const up = (data: string) => {
    if (model?.readyState === WebSocket.OPEN) model.send(data);
    else queued.push(data);
  };
  line.on('message', (data: RawData) => {
    const msg = JSON.parse(data.toString()) as { event: string; streamSid?: string; media?: { payload: string } };
    if (msg.event === 'start' && !model) {
      streamSid = msg.streamSid ?? '';
      const m = new WebSocket(`${target}?model=relay`);
      model = m;
      m.on('open', () => {
        m.send(JSON.stringify(SESSION));
        m.send('{"type":"response.create"}');
        for (const q of queued.splice(0)) m.send(q);
      });
      m.on('message', (raw: RawData) => {
        const e = JSON.parse(raw.toString()) as { type: string; delta?: string };
        if (line.readyState !== WebSocket.OPEN) return;
        if (e.type === 'response.output_audio.delta') line.send(JSON.stringify({ event: 'media', streamSid, media: { payload: e.delta } }));
        else if (e.type === 'input_audio_buffer.speech_started') line.send(JSON.stringify({ event: 'clear', streamSid }));
      });
      m.on('close', () => line.close());
      m.on('error', () => {});
    } else if (msg.event === 'media' && msg.media) {
      up(JSON.stringify({ type: 'input_audio_buffer.append', audio: msg.media.payload }));
    }
  });
  line.on('close', () => model?.close());
  line.on('error', () => {});
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
