// The cascaded bench's baseline: the least a bridge between Twilio's media stream and a recogniser, a chat model and
// a voice must do, in a plain `ws` relay. Each socket opened at /twilio/media/<call> gets, at its `start`, a socket
// of its own to Deepgram's live API (SVC_STT_URL) and the agent's greeting asked for; the callee's audio goes up as
// it comes; Deepgram's speech_final ends the callee's turn (no detector, no endpointing of its own), and the
// transcript goes to the chat model (SVC_AGENT_LLM_BASE_URL) with the conversation so far; each sentence of the
// streamed reply goes to the voice (SVC_TTS_URL) as soon as it is written, all at once, and their audio to the line
// in order, resampled to 8 kHz mu-law (svc's codec functions, which any bridge needs); Deepgram's SpeechStarted is
// answered with a `clear` and the reply in progress is dropped. Nothing else: no store, no marks, no tools, no
// retries, no turns written. Prints `ready <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { encodeMuLaw, LINE_RATE, pcm16, StreamResampler } from '../../server/src/speech/audio.js';

const env = (name: string) => process.env[name]!;
const STT = `${env('SVC_STT_URL')}?encoding=mulaw&sample_rate=8000&channels=1&model=nova-3&interim_results=true&vad_events=true`;
const CHAT = `${env('SVC_AGENT_LLM_BASE_URL')}/chat/completions`;
const VOICE = `${env('SVC_TTS_URL')}/audio/speech`;
/** A sentence ends at . ! or ? once whitespace and the next word's first character follow. */
const SENTENCE_END = /[.!?]\s+(?=\S)/g;

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

const server = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
wss.on('connection', (line, req) => {
  const call = (req.url ?? '').split('/').pop();
  const history: Message[] = [{ role: 'system', content: `Relay (call ${call}).` }];
  let streamSid = '';
  let stt: WebSocket | null = null;
  const queued: Buffer[] = [];
  let reply: AbortController | null = null;
  let heard = '';

  const media = (audio: Buffer) => {
    if (audio.length && line.readyState === WebSocket.OPEN) line.send(JSON.stringify({ event: 'media', streamSid, media: { payload: audio.toString('base64') } }));
  };
  /** One sentence's audio, its request started now, played once `before` has. */
  const say = (sentence: string, before: Promise<void>, signal: AbortSignal): Promise<void> => {
    const answer = fetch(VOICE, {
      method: 'POST',
      headers: { authorization: `Bearer ${env('SVC_TTS_API_KEY')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: sentence, response_format: 'pcm' }),
      signal,
    });
    answer.catch(() => undefined);
    return before.then(async () => {
      // A reply dropped (the callee spoke) ends its sentences' requests; nothing more of it is played.
      try {
        const resampler = new StreamResampler(24_000, LINE_RATE);
        let odd = Buffer.alloc(0);
        for await (const chunk of (await answer).body!) {
          if (signal.aborted) return;
          const { samples, rest } = pcm16(Buffer.concat([odd, chunk as Uint8Array]));
          odd = Buffer.from(rest);
          media(encodeMuLaw(resampler.push(samples)));
        }
        media(encodeMuLaw(resampler.flush()));
      } catch {}
    });
  };
  const respond = async (signal: AbortSignal) => {
    const res = await fetch(CHAT, {
      method: 'POST',
      headers: { authorization: `Bearer ${env('SVC_AGENT_LLM_API_KEY')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'relay', stream: true, messages: history }),
      signal,
    });
    let events = '';
    let text = '';
    let said = 0;
    let playing = Promise.resolve();
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) {
      events += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = events.indexOf('\n\n')) >= 0) {
        const data = events.slice(0, end).replace(/^data: /, '');
        events = events.slice(end + 2);
        if (data === '[DONE]') continue;
        text += (JSON.parse(data) as { choices: Array<{ delta?: { content?: string | null } }> }).choices[0]?.delta?.content ?? '';
      }
      SENTENCE_END.lastIndex = said;
      for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
        playing = say(text.slice(said, m.index + 1).trim(), playing, signal);
        said = m.index + m[0].length;
      }
    }
    if (text.slice(said).trim()) playing = say(text.slice(said).trim(), playing, signal);
    history.push({ role: 'assistant', content: text });
    await playing;
  };
  const answer = () => {
    reply?.abort();
    const r = new AbortController();
    reply = r;
    respond(r.signal).catch(() => undefined);
  };

  line.on('message', (data: RawData) => {
    const msg = JSON.parse(data.toString()) as { event: string; streamSid?: string; media?: { payload: string } };
    if (msg.event === 'start' && !stt) {
      streamSid = msg.streamSid ?? '';
      const s = new WebSocket(STT, { headers: { authorization: `Token ${env('SVC_STT_API_KEY')}` } });
      stt = s;
      s.on('open', () => {
        for (const q of queued.splice(0)) s.send(q);
      });
      s.on('message', (raw: RawData) => {
        const m = JSON.parse(raw.toString()) as { type: string; is_final?: boolean; speech_final?: boolean; channel?: { alternatives: Array<{ transcript: string }> } };
        if (m.type === 'SpeechStarted') {
          reply?.abort();
          if (line.readyState === WebSocket.OPEN) line.send(JSON.stringify({ event: 'clear', streamSid }));
        } else if (m.type === 'Results' && m.is_final) {
          heard = `${heard} ${m.channel?.alternatives[0]?.transcript ?? ''}`.trim();
          if (m.speech_final && heard) {
            history.push({ role: 'user', content: heard });
            heard = '';
            answer();
          }
        }
      });
      s.on('error', () => {});
      answer();
    } else if (msg.event === 'media' && msg.media) {
      const audio = Buffer.from(msg.media.payload, 'base64');
      if (stt?.readyState === WebSocket.OPEN) stt.send(audio);
      else queued.push(audio);
    }
  });
  line.on('close', () => {
    reply?.abort();
    stt?.close();
  });
  line.on('error', () => {});
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
