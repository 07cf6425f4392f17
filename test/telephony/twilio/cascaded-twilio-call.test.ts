// The cascaded agent holding a call on Twilio's wire protocol, across real service processes (server/src/main.ts):
// an api process, which takes Twilio's callbacks and the media stream, and a worker, which dials and completes the
// call, sharing only the store. Every provider is reached over its own protocol at a local fake: Twilio's REST API
// and signed callbacks, its bidirectional media stream played by a peer that paces the line in real time and echoes
// marks once their audio has played (plus a little network delay), Deepgram's live API, an OpenAI-compatible chat
// stream, and OpenAI's or ElevenLabs' voice. The callee's words are espeak-ng speech, so svc's own voice activity detector hears a person.
//
// Real processes rather than an in-process engine: this is the composition production runs (the config read from
// the environment, main.ts's agent shared by the engine and the media bridge, the api/worker split), and each
// part's own clock; what the agent writes in the api process reaches the worker only through the store.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../../server/src/accounts/accounts-repo.js';
import { encodeMuLaw, LINE_RATE, resample } from '../../../server/src/speech/audio.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { migrate, type Store } from '../../../server/src/store/store.js';
import { emptySchema, requirePostgres, type EmptySchema } from '../../scale/support/pg-schema.js';
import { startService, type ServiceProcess } from '../../scale/support/service-process.js';
import { FakeDeepgram, FAKE_DEEPGRAM_KEY } from '../../support/fake-deepgram.js';
import { startFakeChatStream, type FakeChatStream } from '../../support/fake-chat-stream.js';
import { startFakeElevenLabs, type FakeElevenLabs } from '../../support/fake-elevenlabs.js';
import { FakeMediaPeer } from '../../support/fake-media-peer.js';
import { SPEECH_PCM_RATE, startFakeOpenAiSpeech, type FakeOpenAiSpeech } from '../../support/fake-openai-speech.js';
import { FAKE_AUTH_TOKEN, FakeTwilio } from '../../support/fake-twilio.js';
import { freePort } from '../../support/free-port.js';
import { until } from '../../support/until.js';
import { speak, type Utterance } from '../../voice-agent/cascaded/line-audio.js';

const LLM_KEY = 'sk-chat-key-never-logged-5e1c0a';
const TTS_KEY = 'sk-voice-key-never-logged-93b7d2';
const WORDS = 'Yes, we are open on Sunday.';
const REPLY = ['Thank you', ' for letting me know.', ' Goodbye.'];
const REPLY_TEXT = 'Thank you for letting me know. Goodbye.';
/** Deepgram's final comes this long after the callee's audio ends, as a streaming recogniser's does. */
const FINAL_AFTER_MS = 300;

interface CallRecord {
  status: string;
  answeredBy: string | null;
  transcript: string | null;
  error: unknown;
  latency: { firstAudioMs: number | null; turns: Array<{ atMs: number; afterMs: number; stages?: Record<string, number> }>; bargeIns: unknown[] } | null;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`a cascaded call on Twilio across api and worker processes [${kind}]`, function () {
    this.timeout(120_000);
    let schema: EmptySchema | undefined;
    let dataDir: string;
    let store: Store;
    let key: string;
    let callee: Utterance;
    let calleeAudio: Buffer;
    let twilio: FakeTwilio;
    let deepgram: FakeDeepgram;
    let chat: FakeChatStream;
    let speech: FakeOpenAiSpeech | undefined;
    let eleven: FakeElevenLabs | undefined;
    let peer: FakeMediaPeer | undefined;
    let processes: ServiceProcess[] = [];

    before(async function () {
      if (kind === 'postgres') {
        await requirePostgres(this);
        schema = await emptySchema();
      }
      dataDir = mkdtempSync(join(tmpdir(), 'svc-cascaded-twilio-'));
      store = schema ? openStore({ postgresUrl: schema.url, poolSize: 2 }) : openStore({ sqlitePath: join(dataDir, 'svc.db') });
      await migrate(store);
      const now = Date.now();
      const accountId = await createAccount(store.db, { name: 'acme', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
      await addNumber(store.db, accountId, '+14155550100', now);
      key = (await createKey(store.db, { accountId, name: 'acme', rateLimit: 100 }, now)).key;
      callee = await speak(WORDS);
      calleeAudio = encodeMuLaw(callee.samples);
    });
    afterEach(async () => {
      peer?.close();
      await Promise.all(processes.map((p) => p.kill()));
      processes = [];
      await Promise.all([twilio?.close(), deepgram?.close(), chat?.close(), speech?.close(), eleven?.close()]);
      speech = eleven = peer = undefined;
    });
    after(async () => {
      await store?.close();
      await schema?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    /** The fakes, and an api and a worker process configured for them with the voice named. */
    async function startCall(voice: 'openai' | 'elevenlabs') {
      twilio = await FakeTwilio.start();
      twilio.completeOnHangUp = true;
      deepgram = await FakeDeepgram.start({ script: [{ afterBytes: calleeAudio.length + FINAL_AFTER_MS * 8, text: WORDS }] });
      chat = await startFakeChatStream({ flavour: 'openai', apiKey: LLM_KEY });
      chat.reply({ text: REPLY, calls: [{ id: 'call_end_1', name: 'end_call', arguments: ['{}'] }] });
      let ttsUrl: string;
      if (voice === 'openai') {
        speech = await startFakeOpenAiSpeech({ apiKey: TTS_KEY });
        ttsUrl = speech.baseUrl;
      } else {
        eleven = await startFakeElevenLabs({ apiKey: TTS_KEY });
        ttsUrl = eleven.baseUrl;
      }
      const port = await freePort();
      const { SVC_REALTIME_API_KEY: _unused, ...carrier } = twilio.env();
      const env: Record<string, string> = {
        ...carrier,
        SVC_AGENT: 'cascaded',
        SVC_STT: 'deepgram',
        SVC_STT_URL: deepgram.url,
        SVC_STT_API_KEY: FAKE_DEEPGRAM_KEY,
        SVC_AGENT_LLM: 'openai',
        SVC_AGENT_LLM_BASE_URL: chat.baseUrl,
        SVC_AGENT_LLM_API_KEY: LLM_KEY,
        SVC_TTS: voice,
        SVC_TTS_URL: ttsUrl,
        SVC_TTS_API_KEY: TTS_KEY,
        SVC_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        SVC_DATA_DIR: dataDir,
        SVC_ENGINE_POLL_MS: '50',
        ...(schema ? { DATABASE_URL: schema.url } : {}),
      };
      processes = await Promise.all([startService('api', env, { port }), startService('worker', env)]);
      const api = processes[0]!;
      const placed = await fetch(`${api.url}/v1/agent/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' }),
      });
      expect(placed.status).to.equal(202);
      const { callId } = (await placed.json()) as { callId: string };
      await until('the worker dialling', () => twilio.calls.length === 1, 20_000);
      const sid = twilio.calls[0]!.sid;
      const twiml = twilio.calls[0]!.params.Twiml![0]!;
      const [, url, token] = /<Stream url="([^"]+)"><Parameter name="token" value="([^"]+)"\/>/.exec(twiml)!;
      expect(url).to.equal(`ws://127.0.0.1:${port}/twilio/media/${callId}`);
      return { api, callId, sid, url: url!, token: token! };
    }

    /**
     * Twilio rings and a person answers; the stream connects and the callee says the words at the line's pace.
     * Resolves once the agent has hung up, with how many hang-ups Twilio had when the goodbye's mark came back.
     */
    async function holdCall(sid: string, url: string, token: string): Promise<number | null> {
      expect((await twilio.status(sid, 'ringing')).status).to.equal(204);
      expect((await twilio.status(sid, 'in-progress')).status).to.equal(204);
      expect((await twilio.amd(sid, 'human')).status).to.equal(204);
      peer = await FakeMediaPeer.connect(url, { playback: 'real-time', jitterMs: 30 });
      let hangUpsAtGoodbye: number | null = null;
      peer.on('change', () => {
        if (hangUpsAtGoodbye === null && peer!.echoed.some((m) => m.name === 'end_call')) hangUpsAtGoodbye = twilio.call(sid).updates.length;
      });
      peer.start({ callSid: sid, token });
      peer.say(calleeAudio);
      peer.live();
      await twilio.hungUp(sid);
      // Twilio ends the stream once the call is over.
      peer.stop();
      return hangUpsAtGoodbye;
    }

    async function completed(api: ServiceProcess, callId: string): Promise<CallRecord> {
      let call = {} as CallRecord;
      await until(
        'the call completed',
        async () => {
          const res = await fetch(`${api.url}/v1/agent/calls/${callId}`, { headers: { authorization: `Bearer ${key}` } });
          call = (await res.json()) as CallRecord;
          return call.status === 'completed';
        },
        30_000,
        100,
      );
      return call;
    }

    /** What the line carried and the call recorded, the same whichever voice spoke. */
    function expectWholeCall(call: CallRecord, agentAudio: Buffer, hangUpsAtGoodbye: number | null, sid: string, token: string) {
      expect(call).to.include({ status: 'completed', answeredBy: 'human', transcript: `Callee: ${WORDS}\nAgent: ${REPLY_TEXT}`, error: null });

      // The callee's audio reached the recogniser as the line carried it (mu-law at 8 kHz, untouched).
      const dg = deepgram.connections[0]!;
      expect(deepgram.connections).to.have.length(1);
      expect(dg.headers.authorization).to.equal(`Token ${FAKE_DEEPGRAM_KEY}`);
      expect(Object.fromEntries(['encoding', 'sample_rate', 'channels'].map((k) => [k, dg.query.get(k)]))).to.deep.equal({ encoding: 'mulaw', sample_rate: '8000', channels: '1' });
      expect(Buffer.concat(dg.audio).subarray(0, calleeAudio.length).equals(calleeAudio)).to.equal(true);

      // The model was asked once, with the callee's words and the call's tools, and its end_call ended the reply.
      expect(chat.requests).to.have.length(1);
      const asked = chat.requests[0]!;
      expect(asked.headers.authorization).to.equal(`Bearer ${LLM_KEY}`);
      expect(asked.body.messages.map((m: { role: string }) => m.role)).to.deep.equal(['system', 'user']);
      expect(asked.body.messages[1].content).to.equal(WORDS);
      expect(asked.body.tools.map((t: { function: { name: string } }) => t.function.name)).to.include('end_call');

      // The agent's audio reached the line whole, each 100 ms of it marked, then the goodbye's mark; every mark came
      // back once its audio had played, and only then did the agent hang up over REST.
      const played = Buffer.concat(peer!.events('media').map((m) => Buffer.from((m.media as { payload: string }).payload, 'base64')));
      expect(played.length).to.equal(agentAudio.length);
      expect(played.equals(agentAudio)).to.equal(true);
      // The audio each mark follows, in bytes: every piece of the reply is marked, the goodbye's mark after all of it.
      const marked: Array<{ name: string; after: number }> = [];
      let since = 0;
      for (const m of peer!.received) {
        if (m.event === 'media') since += Buffer.from((m.media as { payload: string }).payload, 'base64').length;
        if (m.event === 'mark') marked.push({ name: (m.mark as { name: string }).name, after: since });
        if (m.event === 'mark') since = 0;
      }
      const marks = marked.map((m) => m.name);
      const line = peer!.received.map((m) =>
        m.event === 'media' ? Buffer.from((m.media as { payload: string }).payload, 'base64').length : m.event === 'mark' ? (m.mark as { name: string }).name : m.event,
      );
      expect(marks, `the line carried ${line.join(' ')}`).to.deep.equal([...marks.slice(0, -1).map((_, i) => `a${i + 1}`), 'end_call']);
      expect(marked.at(-1)!.after).to.equal(0);
      for (const m of marked.slice(0, -1)) expect(m.after, m.name).to.be.above(0);
      expect(peer!.echoed.map((m) => m.name)).to.deep.equal(marks);
      expect(hangUpsAtGoodbye, 'no hang-up before the goodbye had played').to.equal(0);
      expect(twilio.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);

      // One answered turn, timed stage by stage: the stages are where the answer's time went.
      expect(call.latency!.turns).to.have.length(1);
      const turn = call.latency!.turns[0]!;
      expect(turn.stages).to.have.all.keys('endpointMs', 'ownMs', 'modelMs', 'voiceMs');
      const stages = Object.values(turn.stages!);
      for (const ms of stages) expect(ms).to.be.a('number').and.at.least(0);
      expect(Math.abs(stages.reduce((a, b) => a + b, 0) - turn.afterMs), 'the stages add up to the answer time').to.be.at.most(4);
      // The turn ends where the callee's speech did (call time, from the line's own frames).
      expect(turn.atMs).to.be.within(callee.endMs - 60, callee.endMs + 120);
      expect(call.latency!.bargeIns).to.deep.equal([]);

      const [api, worker] = processes;
      expect(api!.output()).to.include('media stream started');
      for (const secret of [FAKE_DEEPGRAM_KEY, LLM_KEY, TTS_KEY, FAKE_AUTH_TOKEN, token]) {
        expect(api!.output(), 'api output').not.to.include(secret);
        expect(worker!.output(), 'worker output').not.to.include(secret);
      }
    }

    it("holds a call with OpenAI's voice: the callee heard, the model's reply spoken, the goodbye played before the hang-up", async () => {
      const { api, callId, sid, url, token } = await startCall('openai');
      const hangUpsAtGoodbye = await holdCall(sid, url, token);
      const call = await completed(api, callId);
      // One request per sentence, in order; the line hears each one's PCM at 8 kHz in mu-law.
      expect(speech!.requests.map((r) => r.body.input)).to.deep.equal(['Thank you for letting me know.', 'Goodbye.']);
      for (const r of speech!.requests) {
        expect(r.headers.authorization).to.equal(`Bearer ${TTS_KEY}`);
        expect(r.body.response_format).to.equal('pcm');
      }
      const agentAudio = Buffer.concat(speech!.requests.map((r) => mulawOf(speech!.pcmFor(r.body.input))));
      expectWholeCall(call, agentAudio, hangUpsAtGoodbye, sid, token);
    });

    it("holds a call with ElevenLabs' voice: its mu-law streamed to the line as it comes", async () => {
      const { api, callId, sid, url, token } = await startCall('elevenlabs');
      const hangUpsAtGoodbye = await holdCall(sid, url, token);
      const call = await completed(api, callId);
      expect(eleven!.connections).to.have.length(1);
      const socket = eleven!.connections[0]!;
      expect(socket.headers['xi-api-key']).to.equal(TTS_KEY);
      expect(socket.query.output_format).to.equal('ulaw_8000');
      expect(socket.generations.join(' ').replace(/\s+/g, ' ').trim()).to.equal(REPLY_TEXT);
      const agentAudio = Buffer.concat(socket.generations.map((g) => eleven!.ulawFor(g)));
      expectWholeCall(call, agentAudio, hangUpsAtGoodbye, sid, token);
    });
  });
}

/** OpenAI's 24 kHz PCM as the line carries it: 8 kHz mu-law. */
function mulawOf(pcm: Buffer): Buffer {
  const samples = new Int16Array(pcm.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = pcm.readInt16LE(i * 2);
  return encodeMuLaw(resample(samples, SPEECH_PCM_RATE, LINE_RATE));
}
