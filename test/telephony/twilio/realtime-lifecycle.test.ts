// The realtime session's lifecycle on a Twilio media stream, against the fake realtime server's bad days
// (docs/real-calls.md, "The model's session"): a session is confirmed, mu-law both ways, before anything of the
// model's reaches the line, and tried on a new socket once; failed responses and errors are retried once or end
// the call with the apology and agent_unavailable; the greeting waits for the callee; a cough does not cut the
// agent off; a session warmed while the phone rings serves the answer.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { apologyFor } from '../../../server/src/voice-agent/apology.js';
import { recordedTurns } from '../../../server/src/voice-agent/recorded-turns.js';
import { RealtimeAgent } from '../../../server/src/voice-agent/realtime-agent.js';
import { realtimeProtocol } from '../../../server/src/voice-agent/realtime-protocol.js';
import { attachMediaBridge, type MediaBridge } from '../../../server/src/telephony/twilio/media-bridge.js';
import { watchVerdict } from '../../../server/src/telephony/twilio/amd-verdict.js';
import { DEFAULT_TURN_TAKING } from '../../../server/src/settings/turn-taking.js';
import { mediaStreamToken, mediaStreamUrl } from '../../../server/src/telephony/twilio/media-stream.js';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import { forEachStore } from '../../support/stores.js';
import { callSidOf, REALTIME_KEY, startBridge, STREAM_SECRET, type BridgeHarness } from './media-harness.js';

const GREETING = 'Hello, I am an AI assistant calling for a customer. Is the shop open on Sunday?';
const APOLOGY = 'I am sorry, we have a technical problem and have to end this call. Goodbye.';
const WAIT = { callee: 'Yes.', afterBytes: 1_000_000 };

forEachStore('the realtime session lifecycle', (kind) => {
  let h: BridgeHarness;
  afterEach(() => h?.close());

  const types = (i: number) => h.realtime.connections[i]!.received.map((e) => e.type).filter((t) => t !== 'input_audio_buffer.append');
  const said = async (id: string) => (await recordedTurns(h.db, id)).map((t) => `${t.speaker}: ${t.text}`);

  describe('confirmation', () => {
    it('tries a new socket when the session.update is answered with an error, and plays nothing of the first', async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING }, WAIT], realtimeOptions: { connections: [{ sessionUpdateError: 'server_error' }, {}] } });
      const id = await h.placeCall();
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      expect(h.realtime.connections).to.have.length(2);
      expect(types(0)).to.deep.equal(['session.update']);
      expect(types(1)).to.deep.equal(['session.update', 'response.create']);
      expect(h.realtime.connections[0]!.closed).to.equal(true);
      expect(Buffer.concat(peer.events('media').map((m) => Buffer.from((m.media as { payload: string }).payload, 'base64')))).to.deep.equal(muLawTone(1600, 440));
      expect((await h.srv.row(id)).agent_failure).to.equal(null);
    });

    it('tries a new socket when the session is not confirmed within the bound', async () => {
      // The bound is long enough for the second session to be confirmed within it on a busy machine.
      h = await startBridge(kind, { script: [{ agent: GREETING }, WAIT], realtimeOptions: { connections: [{ sessionCreatedDelayMs: 5000 }, {}] }, connection: { confirmTimeoutMs: 1500 } });
      const id = await h.placeCall();
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      expect(h.realtime.connections).to.have.length(2);
      expect(h.realtime.connections[0]!.closed).to.equal(true);
      expect((await h.srv.row(id)).agent_failure).to.equal(null);
    });

    it('apologises and records agent_unavailable when the second session is refused too; the PCM16 session is never heard', async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING }, WAIT], realtimeOptions: { sessionUpdateError: 'server_error' } });
      const id = await h.placeCall();
      const hungUp = h.nextHangUp();
      const peer = await h.stream(id);
      await hungUp;
      expect(h.realtime.connections).to.have.length(2);
      expect(h.realtime.connections.map((c) => c.sentAudioBytes)).to.deep.equal([0, 0]);
      expect(peer.mediaBytes).to.equal((await apologyFor('en-US')).audio.length);
      expect(h.hangUps.map((c) => c.reason)).to.deep.equal(['agent_lost']);
      expect(await said(id)).to.deep.equal([`agent: ${APOLOGY}`]);
      expect((await h.srv.row(id)).agent_failure).to.equal('agent_unavailable');
    });
  });

  describe('mid-call failures', () => {
    it('asks again once when a response fails with a rate limit, and the call goes on', async () => {
      h = await startBridge(kind, { script: [{ fail: 'rate_limit_exceeded' }, { agent: GREETING }, WAIT] });
      const id = await h.placeCall();
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      expect(types(0)).to.deep.equal(['session.update', 'response.create', 'response.create']);
      expect(h.hangUps).to.deep.equal([]);
      expect((await h.srv.row(id)).agent_failure).to.equal(null);
    });

    it('gives up after a second failure in a row: the apology, hung up, agent_unavailable', async () => {
      h = await startBridge(kind, { script: [{ fail: 'server_error' }, { fail: 'server_error' }, { agent: GREETING }] });
      const id = await h.placeCall();
      const hungUp = h.nextHangUp();
      await h.stream(id);
      await hungUp;
      expect(types(0)).to.deep.equal(['session.update', 'response.create', 'response.create']);
      expect(await said(id)).to.deep.equal([`agent: ${APOLOGY}`]);
      expect((await h.srv.row(id)).agent_failure).to.equal('agent_unavailable');
    });

    it('gives up at once on a spent quota (an error event mid-call), after what was said', async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING }, { error: 'insufficient_quota', afterBytes: 2 * FRAME_BYTES }, WAIT] });
      const id = await h.placeCall();
      const hungUp = h.nextHangUp();
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      peer.speak(muLawTone(2 * FRAME_BYTES, 300));
      await hungUp;
      expect(await said(id)).to.deep.equal([`agent: ${GREETING}`, `agent: ${APOLOGY}`]);
      expect((await h.srv.row(id)).agent_failure).to.equal('agent_unavailable');
    });

    it('gives up on a reply the content filter stopped', async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING, incomplete: 'content_filter' }, WAIT] });
      const id = await h.placeCall();
      const hungUp = h.nextHangUp();
      await h.stream(id);
      await hungUp;
      expect(await said(id)).to.deep.equal([`agent: ${GREETING}`, `agent: ${APOLOGY}`]);
      expect((await h.srv.row(id)).agent_failure).to.equal('agent_unavailable');
    });
  });

  describe('the greeting', () => {
    it('lets the callee speak first and answers them, never asking for a greeting of its own', async () => {
      h = await startBridge(kind, { script: [{ callee: 'Hello?', afterBytes: 4 * FRAME_BYTES }, { agent: GREETING }, WAIT], connection: { greetAfterMs: 5000 } });
      const id = await h.placeCall();
      const peer = await h.stream(id);
      await h.realtime.until(() => h.realtime.connections[0]?.sent.some((e) => e.type === 'session.updated') ?? false);
      peer.speak(muLawTone(4 * FRAME_BYTES, 300));
      await peer.until(() => peer.mediaBytes === 1600);
      peer.stop();
      await h.bridge.settled();
      expect(types(0)).to.deep.equal(['session.update']);
      expect(await said(id)).to.deep.equal(['callee: Hello?', `agent: ${GREETING}`]);
    });

    it('greets once the callee has said nothing for the bound', async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING }, WAIT], connection: { greetAfterMs: 200 } });
      const id = await h.placeCall();
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      expect(types(0)).to.deep.equal(['session.update', 'response.create']);
    });
  });

  describe('a voicemail message waits for the greeting to end', () => {
    const MESSAGE = { action: 'leave_message', message: 'This is Acme about your parcel; please call us back.' };
    const placeLeavingMessage = () => h.placeCall({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', voicemail: MESSAGE });
    const holds = {
      type: 'session.update',
      session: {
        type: 'realtime',
        audio: { input: { turn_detection: { type: 'server_vad', threshold: 0.6, prefix_padding_ms: 300, silence_duration_ms: 500, create_response: false, interrupt_response: true } } },
      },
    };
    const answers = { ...holds, session: { type: 'realtime', audio: { input: { turn_detection: { ...holds.session.audio.input.turn_detection, create_response: true } } } } };
    const updates = (i: number) =>
      h.realtime.connections[i]!.received.filter((e) => e.type === 'session.update')
        .slice(1)
        .map(({ event_id: _, ...e }) => e);

    it('says nothing before the verdict; a person (human) is answered once it comes, what they said included', async () => {
      h = await startBridge(kind, { script: [{ callee: 'Hello?', afterBytes: 4 * FRAME_BYTES }, { agent: GREETING }, WAIT], connection: { greetAfterMs: 100 } });
      const id = await placeLeavingMessage();
      const peer = await h.stream(id);
      peer.speak(muLawTone(4 * FRAME_BYTES, 300));
      await h.realtime.until(() => h.realtime.connections[0]?.sent.some((e) => e.type === 'conversation.item.input_audio_transcription.completed') ?? false);
      // Longer than the greeting's bound and several of the verdict's reads: still nothing asked of the model.
      await new Promise((r) => setTimeout(r, 300));
      expect(types(0)).to.deep.equal(['session.update', 'session.update']);
      expect(updates(0)).to.deep.equal([holds]);
      expect(peer.mediaBytes).to.equal(0);
      await h.amd(id, 'human');
      await peer.until(() => peer.mediaBytes === 1600);
      expect(types(0)).to.deep.equal(['session.update', 'session.update', 'session.update', 'response.create']);
      expect(updates(0)).to.deep.equal([holds, answers]);
      peer.stop();
      await h.bridge.settled();
      expect(await said(id)).to.deep.equal(['callee: Hello?', `agent: ${GREETING}`]);
    });

    it('greets a callee who said nothing once Twilio could not tell (unknown)', async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING }, WAIT], connection: { greetAfterMs: 50 } });
      const id = await placeLeavingMessage();
      const peer = await h.stream(id);
      await h.realtime.until(() => h.realtime.connections[0]?.received.filter((e) => e.type === 'session.update').length === 2);
      await new Promise((r) => setTimeout(r, 200));
      expect(types(0)).to.deep.equal(['session.update', 'session.update']);
      await h.amd(id, 'unknown');
      await peer.until(() => peer.mediaBytes === 1600);
      expect(types(0)).to.deep.equal(['session.update', 'session.update', 'session.update', 'response.create']);
    });

    it("never answers a machine's greeting: after machine_end_beep the model is asked nothing and plays nothing", async () => {
      h = await startBridge(kind, {
        script: [{ callee: "Hi, you've reached Dana. Leave a message after the tone.", afterBytes: 4 * FRAME_BYTES }, { agent: GREETING }, WAIT],
        connection: { greetAfterMs: 50 },
      });
      const id = await placeLeavingMessage();
      const peer = await h.stream(id);
      peer.speak(muLawTone(4 * FRAME_BYTES, 300));
      await h.realtime.until(() => h.realtime.connections[0]?.sent.some((e) => e.type === 'conversation.item.input_audio_transcription.completed') ?? false);
      await h.amd(id, 'machine_end_beep');
      await new Promise((r) => setTimeout(r, 300));
      expect(types(0)).to.deep.equal(['session.update', 'session.update']);
      expect(peer.mediaBytes).to.equal(0);
      peer.stop();
      await h.bridge.settled();
      expect(await said(id)).to.deep.equal(["callee: Hi, you've reached Dana. Leave a message after the tone."]);
    });

    it("reads the verdict from the inbox: a fax is a machine, and none by the carrier's bound lets the agent speak", async () => {
      h = await startBridge(kind, { script: [WAIT] });
      const faxed = await placeLeavingMessage();
      const silent = await placeLeavingMessage();
      const fax = watchVerdict(h.db, callSidOf(faxed), { pollMs: 10, boundMs: 5000 });
      const none = watchVerdict(h.db, callSidOf(silent), { pollMs: 10, boundMs: 80 });
      await h.amd(faxed, 'fax');
      expect(await fax.verdict).to.equal('machine');
      expect(await none.verdict).to.equal('person');
    });

    it('holds nothing on a call that hangs up on machines (Enable): the callee is answered at once', async () => {
      h = await startBridge(kind, { script: [{ callee: 'Hello?', afterBytes: 4 * FRAME_BYTES }, { agent: GREETING }, WAIT], connection: { greetAfterMs: 5000 } });
      const id = await h.placeCall({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', voicemail: { action: 'hangup' } });
      const peer = await h.stream(id);
      peer.speak(muLawTone(4 * FRAME_BYTES, 300));
      await peer.until(() => peer.mediaBytes === 1600);
      expect(types(0)).to.deep.equal(['session.update']);
    });
  });

  describe('barge-in', () => {
    async function realTimeStream(id: string): Promise<FakeMediaPeer> {
      const peer = await FakeMediaPeer.connect(mediaStreamUrl(h.srv.baseUrl, id), { playback: 'real-time' });
      peer.start({ callSid: callSidOf(id), token: mediaStreamToken(STREAM_SECRET, id) });
      return peer;
    }

    it('a cough (speech that stops within SVC_REALTIME_INTERRUPT_MIN_MS) does not cut the agent off', async () => {
      h = await startBridge(kind, {
        script: [{ agent: GREETING, audioBytes: 16_000 }, { noise: true, afterBytes: 2 * FRAME_BYTES, ends: 'no-transcript' }, WAIT],
        connection: { turnTaking: DEFAULT_TURN_TAKING },
      });
      const id = await h.placeCall();
      const peer = await realTimeStream(id);
      await peer.until(() => peer.mediaBytes === 16_000);
      peer.speak(muLawTone(2 * FRAME_BYTES, 300));
      await h.realtime.until(() => h.realtime.connections[0]!.sent.some((e) => e.type === 'input_audio_buffer.speech_stopped'));
      await new Promise((r) => setTimeout(r, DEFAULT_TURN_TAKING.interruptAfterMs + 200));
      expect(peer.events('clear')).to.deep.equal([]);
      expect(types(0)).to.deep.equal(['session.update', 'response.create']);
      const session = h.realtime.connections[0]!.session as { audio: { input: { turn_detection: Record<string, unknown> } } };
      expect(session.audio.input.turn_detection).to.include({ interrupt_response: false });
    });

    it('speech that lasts cuts the agent off: clear, truncate and response.cancel', async () => {
      h = await startBridge(kind, {
        script: [{ agent: GREETING, audioBytes: 16_000, unfinished: true }, { noise: true, afterBytes: 2 * FRAME_BYTES, ends: 'nothing' }, WAIT],
        connection: { turnTaking: DEFAULT_TURN_TAKING },
      });
      const id = await h.placeCall();
      const peer = await realTimeStream(id);
      await peer.until(() => peer.mediaBytes === 16_000);
      peer.speak(muLawTone(2 * FRAME_BYTES, 300));
      await peer.until(() => peer.events('clear').length === 1);
      await h.realtime.until(() => h.realtime.connections[0]!.received.some((e) => e.type === 'response.cancel'));
      expect(types(0)).to.deep.equal(['session.update', 'response.create', 'conversation.item.truncate', 'response.cancel']);
    });
  });

  describe('warm sessions', () => {
    it('a session warmed while the phone rings serves the answer: one socket, confirmed before the stream came', async () => {
      // A slow handshake and session.created: the warm session has them behind it when the callee answers.
      h = await startBridge(kind, {
        script: [{ agent: GREETING }, WAIT],
        realtimeOptions: { sessionCreatedDelayMs: 800, handshakeDelayMs: 300 },
        warm: {},
      });
      const id = await h.placeCall();
      await h.agent.prepare(id);
      await h.agent.prepare(id); // a second status callback (ringing after initiated) warms nothing more
      expect((await h.srv.row(id)).agent_host).to.equal(h.srv.baseUrl);
      await h.realtime.until(() => h.realtime.connections[0]?.sent.some((e) => e.type === 'session.updated') ?? false);
      const confirmedBefore = h.realtime.connections[0]!.sent.length;
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      expect(h.realtime.connections).to.have.length(1);
      // After the stream came, the warm session was asked for the greeting: no new session.
      expect(h.realtime.connections[0]!.sent.slice(confirmedBefore).map((e) => e.type)[0]).to.equal('response.created');
      expect(types(0)).to.deep.equal(['session.update', 'response.create']);
    });

    it('a warm session never taken is closed when the call ends', async () => {
      h = await startBridge(kind, { script: [WAIT], warm: {} });
      const id = await h.placeCall();
      await h.agent.prepare(id);
      await h.realtime.until(() => h.realtime.connections[0]?.sent.some((e) => e.type === 'session.updated') ?? false);
      h.agent.release(id);
      await h.realtime.until(() => h.realtime.connections[0]!.closed);
      expect(h.realtime.connections).to.have.length(1);
    });

    it('a warm session never taken is closed after its bound', async () => {
      h = await startBridge(kind, { script: [WAIT], warm: { holdMs: 300 } });
      const id = await h.placeCall();
      await h.agent.prepare(id);
      await h.realtime.until(() => h.realtime.connections[0]?.closed ?? false);
      expect(h.realtime.connections[0]!.sent.map((e) => e.type)).to.include('session.updated');
    });
  });
});

forEachStore('a media stream relayed to the process holding the warm session', (kind) => {
  let h: BridgeHarness;
  let other: { server: Server; bridge: MediaBridge; url: string; agent: RealtimeAgent } | null = null;
  afterEach(async () => {
    await other?.bridge.close();
    await new Promise<void>((resolve) => (other ? other.server.close(() => resolve()) : resolve()));
    other = null;
    await h?.close();
  });

  /** A second api process's bridge on the same store, with an agent of its own that warms nothing. */
  async function otherProcess(): Promise<NonNullable<typeof other>> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new RealtimeAgent(h.db, {
      url: h.realtime.url,
      model: 'gpt-test-realtime',
      protocol: realtimeProtocol('ga'),
      apiKey: REALTIME_KEY,
      greetAfterMs: 0,
      turnTaking: { ...DEFAULT_TURN_TAKING, interruptAfterMs: 0 },
    });
    const bridge = attachMediaBridge(server, { db: h.db, agent, streamSecret: STREAM_SECRET, logger: pino({ level: 'silent' }), internalUrl: url, hangUp: async () => undefined });
    return { server, bridge, url, agent };
  }

  it('relays a stream that lands on another process to the holder, whose warm session serves it', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING }, WAIT], warm: {} });
    other = await otherProcess();
    const id = await h.placeCall();
    await h.agent.prepare(id);
    expect((await h.srv.row(id)).agent_host).to.equal(h.srv.baseUrl);
    await h.realtime.until(() => h.realtime.connections[0]?.sent.some((e) => e.type === 'session.updated') ?? false);
    const peer = await FakeMediaPeer.connect(mediaStreamUrl(other.url, id));
    peer.start({ callSid: callSidOf(id), token: mediaStreamToken(STREAM_SECRET, id) });
    await peer.until(() => peer.mediaBytes === 1600);
    peer.speak(muLawTone(2 * FRAME_BYTES, 300));
    await h.realtime.until(() => h.realtime.connections[0]!.appendedBytes === 2 * FRAME_BYTES);
    expect(h.realtime.connections).to.have.length(1);
    peer.stop();
    await h.bridge.settled();
    expect((await recordedTurns(h.db, id)).map((t) => t.text)).to.deep.equal([GREETING]);
  });

  it('serves the stream with a fresh session when the holder cannot be reached', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING }, WAIT] });
    other = await otherProcess();
    const id = await h.placeCall();
    await h.db.updateTable('calls').set({ agent_host: 'http://127.0.0.1:9' }).where('id', '=', id).execute();
    const peer = await FakeMediaPeer.connect(mediaStreamUrl(other.url, id));
    peer.start({ callSid: callSidOf(id), token: mediaStreamToken(STREAM_SECRET, id) });
    await peer.until(() => peer.mediaBytes === 1600);
    expect(h.realtime.connections).to.have.length(1);
    expect(types0(h)).to.deep.equal(['session.update', 'response.create']);
  });
});

const types0 = (h: BridgeHarness) => h.realtime.connections[0]!.received.map((e) => e.type).filter((t) => t !== 'input_audio_buffer.append');
