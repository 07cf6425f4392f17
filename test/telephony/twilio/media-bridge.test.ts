// The media bridge between a Twilio media stream (a fake peer) and the realtime agent (a fake realtime server):
// the session it asks for, audio both ways, the transcript, hanging up, and the streams it refuses.
import { expect } from 'chai';
import { apologyFor } from '../../../server/src/voice-agent/apology.js';
import { recordedTurns } from '../../../server/src/voice-agent/recorded-turns.js';
import { mediaStreamToken, mediaStreamUrl } from '../../../server/src/telephony/twilio/media-stream.js';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import { forEachStore } from '../../support/stores.js';
import { callSidOf, REALTIME_KEY, startBridge, STREAM_SECRET, type BridgeHarness } from './media-harness.js';

const GREETING = 'Hello, I am an AI assistant calling for a customer. Is the shop open on Sunday?';
const CONVERSATION = [
  { agent: GREETING, audioBytes: 2400 },
  { callee: 'Yes, we are open on Sunday from ten to four.', afterBytes: 8 * FRAME_BYTES },
  { agent: 'Thank you very much, goodbye.', audioBytes: 1600 },
  { endCall: true as const },
];

forEachStore('media bridge', (kind) => {
  let h: BridgeHarness;
  afterEach(() => h?.close());

  const END_CALL = {
    type: 'function',
    name: 'end_call',
    description: 'Hang up the phone call. Call it only after you have said goodbye.',
    parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why the call is ending, in a few words.' } }, required: [] },
  };
  const OPT_OUT = {
    type: 'function',
    name: 'record_opt_out',
    description:
      'Record that the person asked not to be called again (to stop calling, to be taken off the list). Call it as soon as they ask; then apologise briefly, confirm they will not be called again, say goodbye and call end_call.',
    parameters: { type: 'object', properties: {}, required: [] },
  };
  const VOICEMAIL = {
    type: 'function',
    name: 'voicemail_detected',
    description:
      'Call it, and say nothing, when what you hear is an answering machine or voicemail greeting (asks to leave a message, says nobody can take the call, a beep) rather than a person. Never call it for a person, even one who greets you at length.',
    parameters: { type: 'object', properties: {}, required: [] },
  };
  const PRESS_KEYS = {
    type: 'function',
    name: 'press_keys',
    description:
      'Press keys on the phone keypad, as tones on the line, after what you have just said: to choose in an automated menu ("press 1 for sales"), dial an extension, or type a number you were asked to enter. You are answered once the keys have played; say nothing then, and answer what the line says next.',
    parameters: {
      type: 'object',
      properties: { digits: { type: 'string', description: 'The keys in order: 0-9, * and #, A-D; w for a half-second pause between keys. At most 32.' } },
      required: ['digits'],
    },
  };
  const WAIT_ON_HOLD = {
    type: 'function',
    name: 'wait_on_hold',
    description:
      'Call it, and say nothing, when you are put on hold: you are asked to hold or wait, you hear hold music, or a recording such as "please hold" or "your call is important to us". You then hear nothing until someone speaks: answer a person where the conversation was; for a recording, call it again.',
    parameters: { type: 'object', properties: {}, required: [] },
  };
  const KEEP_LISTENING = {
    type: 'function',
    name: 'keep_listening',
    description:
      'Call it, and say nothing, when an automated menu or recording is speaking and there is nothing to answer yet: the menu has not yet offered the option you need, or it says it is connecting you. You go on listening.',
    parameters: { type: 'object', properties: {}, required: [] },
  };

  /** The first connection's session.update, once the session has asked for the first response. */
  async function openedSession(): Promise<{ headers: Record<string, unknown>; url: string; session: Record<string, unknown> }> {
    await h.realtime.until(() => h.realtime.connections[0]?.received.some((e) => e.type === 'response.create') ?? false);
    const conn = h.realtime.connections[0];
    expect(conn.received.map((e) => e.type).slice(0, 2)).to.deep.equal(['session.update', 'response.create']);
    expect(conn.refused).to.equal(undefined);
    return { headers: conn.headers, url: conn.url, session: conn.received[0].session as Record<string, unknown> };
  }

  // The harness lets the server cut the agent off at once (SVC_REALTIME_INTERRUPT_MIN_MS=0); the rest are the defaults.
  const SERVER_VAD = { type: 'server_vad', threshold: 0.6, prefix_padding_ms: 300, silence_duration_ms: 500, create_response: true, interrupt_response: true };
  const APOLOGY = 'I am sorry, we have a technical problem and have to end this call. Goodbye.';

  function expectInstructions(session: Record<string, unknown>): void {
    const instructions = session.instructions as string;
    expect(instructions).to.include('Objective: Ask whether the shop is open on Sunday.');
    expect(instructions).to.include('Context: The customer wants to drop off a parcel.');
    expect(instructions).to.include('- open_sunday (yes or no): whether the shop is open on Sunday');
    expect(instructions).to.include('Speak American English (en-US) throughout');
    expect(instructions).to.include('call the end_call function');
  }

  it('opens a GA realtime session: no beta header, the voice, mu-law audio objects, transcription and server VAD under audio, the end_call tool', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING }] });
    const id = await h.placeCall();
    await h.stream(id);
    const { headers, url, session } = await openedSession();
    expect(url).to.equal('/v1/realtime?model=gpt-test-realtime');
    expect(headers.authorization).to.equal(`Bearer ${REALTIME_KEY}`);
    expect(headers['openai-beta']).to.equal(undefined);
    expect(session).to.deep.include({
      type: 'realtime',
      output_modalities: ['audio'],
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: { model: 'gpt-4o-mini-transcribe', language: 'en' },
          noise_reduction: { type: 'near_field' },
          turn_detection: SERVER_VAD,
        },
        output: { format: { type: 'audio/pcmu' }, voice: 'coral' },
      },
      tool_choice: 'auto',
    });
    expect(Object.keys(session).sort()).to.deep.equal(['audio', 'instructions', 'output_modalities', 'tool_choice', 'tools', 'type']);
    expect(session.tools).to.deep.equal([END_CALL, OPT_OUT, VOICEMAIL, PRESS_KEYS, WAIT_ON_HOLD, KEEP_LISTENING]);
    expectInstructions(session);
  });

  it('opens a beta realtime session behind OpenAI-Beta: realtime=v1, with its flat fields and g711_ulaw both ways', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING }], protocol: 'beta' });
    const id = await h.placeCall();
    await h.stream(id);
    const { headers, session } = await openedSession();
    expect(headers['openai-beta']).to.equal('realtime=v1');
    expect(session).to.deep.include({
      modalities: ['audio', 'text'],
      voice: 'coral',
      input_audio_format: 'g711_ulaw',
      output_audio_format: 'g711_ulaw',
      input_audio_transcription: { model: 'whisper-1', language: 'en' },
      input_audio_noise_reduction: { type: 'near_field' },
      turn_detection: SERVER_VAD,
      tool_choice: 'auto',
    });
    expect(session.tools).to.deep.equal([END_CALL, OPT_OUT, VOICEMAIL, PRESS_KEYS, WAIT_ON_HOLD, KEEP_LISTENING]);
    expectInstructions(session);
  });

  for (const [svc, server] of [
    ['ga', 'beta'],
    ['beta', 'ga'],
  ] as const) {
    it(`gets no session from a server of the other interface (${svc} against ${server}): two sockets refused, the apology, hung up, agent_unavailable recorded`, async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING }], protocol: svc, serverProtocol: server });
      const id = await h.placeCall();
      const hungUp = h.nextHangUp();
      const peer = await h.stream(id);
      await hungUp;
      expect(h.realtime.connections).to.have.length(2);
      expect(h.realtime.connections.map((c) => typeof c.refused)).to.deep.equal(['string', 'string']);
      expect(h.hangUps.map((c) => c.reason)).to.deep.equal(['agent_lost']);
      // Only the apology reached the line: no audio of the model's.
      const turns = await recordedTurns(h.db, id);
      expect(turns.map((t) => `${t.speaker}: ${t.text}`)).to.deep.equal([`agent: ${APOLOGY}`]);
      expect(peer.mediaBytes).to.equal((await apologyFor('en-US')).audio.length);
      expect((await h.srv.row(id)).agent_failure).to.equal('agent_unavailable');
    });
  }

  it('carries mu-law audio both ways, byte for byte', async () => {
    h = await startBridge(kind, {
      script: [
        { agent: GREETING, audioBytes: 4000 },
        { callee: 'Yes.', afterBytes: 1_000_000 },
      ],
    });
    const id = await h.placeCall();
    const peer = await h.stream(id);
    const callee = muLawTone(50 * FRAME_BYTES, 300);
    peer.speak(callee);
    await h.realtime.until(() => h.realtime.connections[0]?.appendedBytes === callee.length);
    const appended = h.realtime.connections[0].received.filter((e) => e.type === 'input_audio_buffer.append');
    expect(appended).to.have.length(50);
    expect(Buffer.concat(appended.map((e) => Buffer.from(String(e.audio), 'base64')))).to.deep.equal(callee);
    await peer.until(() => peer.mediaBytes === 4000);
    const media = peer.events('media');
    expect(media).to.have.length(5);
    expect(media.every((m) => m.streamSid === peer.streamSid)).to.equal(true);
    expect(Buffer.concat(media.map((m) => Buffer.from((m.media as { payload: string }).payload, 'base64')))).to.deep.equal(muLawTone(4000, 440));
    // A mark follows each chunk, so the bridge knows what the callee has heard.
    expect(peer.received.filter((m) => m.event !== 'media').map((m) => m.event)).to.deep.equal(['mark', 'mark', 'mark', 'mark', 'mark']);
  });

  it('marks small deltas every 100 ms of audio and where the audio ends, and writes the turn once the last mark is played', async () => {
    // 20 ms deltas (160 bytes): 1,120 bytes is seven of them; marks after the fifth (800 bytes) and at the audio's end.
    h = await startBridge(kind, {
      script: [
        { agent: GREETING, audioBytes: 1120, deltaBytes: FRAME_BYTES },
        { callee: 'Yes.', afterBytes: 1_000_000 },
      ],
    });
    const id = await h.placeCall();
    const peer = await h.stream(id);
    peer.echoMarks = false;
    await peer.until(() => peer.mediaBytes === 1120 && peer.events('mark').length === 2);
    expect(peer.received.map((m) => (m.event === 'mark' ? `mark ${(m.mark as { name: string }).name}` : m.event))).to.deep.equal([
      'media',
      'media',
      'media',
      'media',
      'media',
      'mark a1',
      'media',
      'media',
      'mark a2',
    ]);
    // Played as far as the first mark: the turn is not heard to its end yet.
    peer.send({ event: 'mark', streamSid: peer.streamSid, mark: { name: 'a1' } });
    peer.speak(muLawTone(FRAME_BYTES, 0));
    await h.realtime.until(() => h.realtime.connections[0].appendedBytes === FRAME_BYTES);
    expect(await recordedTurns(h.db, id)).to.deep.equal([]);
    peer.send({ event: 'mark', streamSid: peer.streamSid, mark: { name: 'a2' } });
    for (let i = 0; i < 250 && (await recordedTurns(h.db, id)).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await recordedTurns(h.db, id)).to.deep.equal([{ speaker: 'agent', text: GREETING, startMs: 0, endMs: 140 }]);
  });

  it('clears audio sent but not yet marked when the callee talks over it, truncating within what was sent', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING, audioBytes: 480, deltaBytes: FRAME_BYTES }, { callee: 'Sorry?', afterBytes: FRAME_BYTES }, { agent: 'I am an assistant.' }] });
    const id = await h.placeCall();
    const peer = await h.stream(id);
    peer.echoMarks = false;
    // 60 ms sent; the only mark is the one at the audio's end, not yet played.
    await peer.until(() => peer.mediaBytes === 480 && peer.events('mark').length === 1);
    peer.speak(muLawTone(FRAME_BYTES, 300));
    await peer.until(() => peer.events('clear').length === 1);
    await h.realtime.until(() => h.realtime.connections[0].received.some((e) => e.type === 'conversation.item.truncate'));
    // No mark has come back: the line is taken to have played since the item's first audio, never past the 60 ms sent.
    const truncate = h.realtime.connections[0].received.find((e) => e.type === 'conversation.item.truncate')!;
    expect(truncate).to.include({ type: 'conversation.item.truncate', item_id: 'item_agent_2', content_index: 0 });
    expect(truncate.audio_end_ms).to.be.a('number').within(0, 60);
  });

  it('writes the transcript speaker by speaker in order, timed on the stream, and hangs up when the model calls end_call', async () => {
    h = await startBridge(kind, { script: CONVERSATION });
    const id = await h.placeCall();
    const hungUp = h.nextHangUp();
    const peer = await h.stream(id);
    await peer.until(() => peer.mediaBytes === 2400);
    peer.speak(muLawTone(8 * FRAME_BYTES, 300));
    await hungUp;
    expect(h.hangUps).to.deep.equal([{ callId: id, callSid: callSidOf(id), reason: 'end_call' }]);
    expect(await recordedTurns(h.db, id)).to.deep.equal([
      { speaker: 'agent', text: GREETING, startMs: 0, endMs: 300 },
      { speaker: 'callee', text: 'Yes, we are open on Sunday from ten to four.', startMs: 0, endMs: 160 },
      { speaker: 'agent', text: 'Thank you very much, goodbye.', startMs: 160, endMs: 360 },
    ]);
    // The goodbye played to its end (the end_call mark came back) before the hang-up; then the model's socket closed.
    expect(peer.events('mark').at(-1)).to.deep.equal({ event: 'mark', streamSid: peer.streamSid, mark: { name: 'end_call' } });
    expect(peer.mediaBytes).to.equal(4000);
    await h.realtime.until(() => h.realtime.connections[0].closed);
    await peer.until(() => peer.closedWith !== null);
    expect(peer.closedWith!.code).to.equal(1000);
  });

  it('waits for the goodbye to play before hanging up', async () => {
    h = await startBridge(kind, { script: [{ agent: 'Goodbye.' }, { endCall: true }] });
    const id = await h.placeCall();
    const peer = await h.stream(id);
    peer.echoMarks = false;
    await peer.until(() => peer.events('mark').some((m) => (m.mark as { name: string }).name === 'end_call'));
    expect(h.hangUps).to.deep.equal([]);
    const hungUp = h.nextHangUp();
    peer.send({ event: 'mark', streamSid: peer.streamSid, mark: { name: 'end_call' } });
    await hungUp;
    expect(h.hangUps.map((c) => c.reason)).to.deep.equal(['end_call']);
  });

  it('speaks the beta interface when told to (SVC_REALTIME_PROTOCOL=beta): its session, its audio and transcript events', async () => {
    h = await startBridge(kind, { script: CONVERSATION, protocol: 'beta' });
    const id = await h.placeCall();
    const hungUp = h.nextHangUp();
    const peer = await h.stream(id);
    await peer.until(() => peer.mediaBytes === 2400);
    peer.speak(muLawTone(8 * FRAME_BYTES, 300));
    await hungUp;
    expect((await recordedTurns(h.db, id)).map((t) => `${t.speaker}: ${t.text}`)).to.deep.equal([
      `agent: ${GREETING}`,
      'callee: Yes, we are open on Sunday from ten to four.',
      'agent: Thank you very much, goodbye.',
    ]);
    expect(peer.mediaBytes).to.equal(4000);
  });

  it('clears the line and truncates the reply where the callee was when the callee talks over the agent', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING, audioBytes: 2400 }, { callee: 'Sorry, who is this?', afterBytes: FRAME_BYTES }, { agent: 'I am an assistant.' }] });
    const id = await h.placeCall();
    const peer = await h.stream(id);
    peer.echoMarks = false;
    await peer.until(() => peer.mediaBytes === 2400);
    // Twilio has played the first chunk of three (800 bytes, 100 ms) when the callee starts talking.
    peer.send({ event: 'mark', streamSid: peer.streamSid, mark: { name: 'a1' } });
    peer.speak(muLawTone(FRAME_BYTES, 300));
    await peer.until(() => peer.events('clear').length === 1);
    expect(peer.events('clear')).to.deep.equal([{ event: 'clear', streamSid: peer.streamSid }]);
    await h.realtime.until(() => h.realtime.connections[0].received.some((e) => e.type === 'conversation.item.truncate'));
    const truncate = h.realtime.connections[0].received.find((e) => e.type === 'conversation.item.truncate');
    // At the mark's 100 ms, and what the line has played since (the clock's few ms), short of the next mark's 200.
    expect(truncate).to.include({ type: 'conversation.item.truncate', item_id: 'item_agent_2', content_index: 0 });
    const heardMs = Number(truncate!.audio_end_ms);
    expect(heardMs).to.be.within(100, 199);
    peer.stop();
    await h.bridge.settled();
    expect((await recordedTurns(h.db, id))[0]).to.deep.equal({ speaker: 'agent', text: GREETING, startMs: 0, endMs: heardMs });
  });

  it('carries the conversation on in a new session when the realtime socket drops mid-call', async () => {
    const AGAIN = 'Sorry, I lost you for a moment. It is an AI assistant calling about the shop. Thank you, goodbye.';
    h = await startBridge(kind, {
      script: [{ agent: GREETING }, { callee: 'Who is calling?', afterBytes: 4 * FRAME_BYTES }, { drop: true, afterBytes: 4 * FRAME_BYTES }],
      realtimeOptions: { connections: [{}, { script: [{ agent: AGAIN }, { endCall: true }] }] },
    });
    const id = await h.placeCall();
    const hungUp = h.nextHangUp();
    const peer = await h.stream(id);
    await peer.until(() => peer.mediaBytes === 1600);
    peer.speak(muLawTone(8 * FRAME_BYTES, 300));
    await hungUp;
    expect(h.hangUps).to.deep.equal([{ callId: id, callSid: callSidOf(id), reason: 'end_call' }]);
    // The new session is told the conversation so far, then asked for the answer the callee is owed.
    const second = h.realtime.connections[1]!;
    const told = second.received.filter((e) => e.type !== 'input_audio_buffer.append').map((e) => (e.type === 'conversation.item.create' ? e.item : e.type));
    expect(told).to.deep.equal([
      'session.update',
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: GREETING }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Who is calling?' }] },
      'response.create',
    ]);
    expect((await recordedTurns(h.db, id)).map((t) => `${t.speaker}: ${t.text}`)).to.deep.equal([`agent: ${GREETING}`, 'callee: Who is calling?', `agent: ${AGAIN}`]);
    expect((await h.srv.row(id)).agent_failure).to.equal(null);
  });

  it('apologises and hangs up, agent_unavailable recorded, when the new session drops too', async () => {
    h = await startBridge(kind, {
      script: [{ agent: GREETING }, { callee: 'Who is calling?', afterBytes: 4 * FRAME_BYTES }, { drop: true, afterBytes: 4 * FRAME_BYTES }],
      realtimeOptions: { connections: [{}, { script: [{ drop: true, afterBytes: 2 * FRAME_BYTES }] }] },
    });
    const id = await h.placeCall();
    const hungUp = h.nextHangUp();
    const peer = await h.stream(id);
    await peer.until(() => peer.mediaBytes === 1600);
    peer.speak(muLawTone(8 * FRAME_BYTES, 300));
    await h.realtime.until(() => h.realtime.connections.length === 2 && h.realtime.connections[1]!.received.some((e) => e.type === 'response.create'));
    peer.speak(muLawTone(2 * FRAME_BYTES, 300));
    await hungUp;
    expect(h.realtime.connections).to.have.length(2);
    expect(h.hangUps).to.deep.equal([{ callId: id, callSid: callSidOf(id), reason: 'agent_lost' }]);
    expect((await recordedTurns(h.db, id)).map((t) => `${t.speaker}: ${t.text}`)).to.deep.equal([`agent: ${GREETING}`, 'callee: Who is calling?', `agent: ${APOLOGY}`]);
    expect((await h.srv.row(id)).agent_failure).to.equal('agent_unavailable');
  });

  it('apologises and hangs up when the realtime endpoint cannot be reached at all', async () => {
    h = await startBridge(kind, { script: [], realtimeUrl: 'ws://127.0.0.1:9/v1/realtime' });
    const id = await h.placeCall();
    const hungUp = h.nextHangUp();
    await h.stream(id);
    await hungUp;
    expect(h.hangUps.map((c) => c.reason)).to.deep.equal(['agent_lost']);
    expect((await recordedTurns(h.db, id)).map((t) => t.text)).to.deep.equal([APOLOGY]);
    expect((await h.srv.row(id)).agent_failure).to.equal('agent_unavailable');
  });

  it('closes the realtime socket, without hanging up, when Twilio stops the stream', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING }, { callee: 'No thanks.', afterBytes: 1_000_000 }] });
    const id = await h.placeCall();
    const peer = await h.stream(id);
    await peer.until(() => peer.mediaBytes === 1600);
    peer.stop();
    await h.realtime.until(() => h.realtime.connections[0].closed);
    await h.bridge.settled();
    expect(h.hangUps).to.deep.equal([]);
    expect((await recordedTurns(h.db, id)).map((t) => t.text)).to.deep.equal([GREETING]);
  });

  it('ignores malformed messages and keeps the stream going', async () => {
    h = await startBridge(kind, { script: [{ agent: GREETING }, { callee: 'Yes.', afterBytes: 1_000_000 }] });
    const id = await h.placeCall();
    const peer = await h.stream(id);
    for (const junk of [
      'not json',
      '[]',
      'null',
      '{"event":"media"}',
      '{"event":"media","media":{"payload":42}}',
      '{"event":"start"}',
      '{"event":"mark","mark":{}}',
      '{"event":"media","media":{"payload":"%%%"}}',
      '{"event":"nonsense"}',
    ])
      peer.raw(junk);
    peer.speak(muLawTone(2 * FRAME_BYTES, 300));
    await h.realtime.until(() => h.realtime.connections[0]?.appendedBytes === 2 * FRAME_BYTES);
    expect(peer.closedWith).to.equal(null);
    expect(h.realtime.connections).to.have.length(1);
  });

  describe('refuses', () => {
    it('a stream for an unknown call, with 404 at the upgrade', async () => {
      h = await startBridge(kind, { script: [] });
      let err: Error | null = null;
      await FakeMediaPeer.connect(mediaStreamUrl(h.srv.baseUrl, '00000000-0000-4000-8000-000000000000')).catch((e: Error) => (err = e));
      expect(err!.message).to.equal('HTTP 404');
      await FakeMediaPeer.connect(`${h.srv.baseUrl.replace('http', 'ws')}/twilio/other`).catch((e: Error) => (err = e));
      expect(err!.message).to.equal('HTTP 404');
    });

    it('a stream for a call that has ended, with 404 at the upgrade', async () => {
      h = await startBridge(kind, { script: [] });
      const id = await h.placeCall();
      await h.db.updateTable('calls').set({ status: 'completed', next_run_at: null }).where('id', '=', id).execute();
      let err: Error | null = null;
      await FakeMediaPeer.connect(mediaStreamUrl(h.srv.baseUrl, id)).catch((e: Error) => (err = e));
      expect(err!.message).to.equal('HTTP 404');
    });

    for (const [what, opts] of [
      ['a bad token', { token: mediaStreamToken('another-secret', 'x') }],
      ['another call’s token', { token: 'from-another-call' }],
      ['no token', { token: undefined }],
      ['another call sid', { callSid: 'CA99999999999999999999999999999999' }],
    ] as const) {
      it(`a stream with ${what}, closing it with 1008 before the agent is connected`, async () => {
        h = await startBridge(kind, { script: [{ agent: GREETING }] });
        const id = await h.placeCall();
        const other = await h.placeCall();
        const token = what === 'another call’s token' ? mediaStreamToken(STREAM_SECRET, other) : 'token' in opts ? opts.token : mediaStreamToken(STREAM_SECRET, id);
        const peer = await FakeMediaPeer.connect(mediaStreamUrl(h.srv.baseUrl, id));
        peer.start({ callSid: 'callSid' in opts ? opts.callSid : callSidOf(id), token });
        peer.speak(muLawTone(FRAME_BYTES, 300));
        await peer.until(() => peer.closedWith !== null);
        expect(peer.closedWith).to.deep.equal({ code: 1008, reason: 'invalid stream' });
        expect(h.realtime.connections).to.have.length(0);
        expect(h.hangUps).to.deep.equal([]);
      });
    }

    it('a second stream for a call that already has one', async () => {
      h = await startBridge(kind, { script: [{ agent: GREETING }] });
      const id = await h.placeCall();
      const first = await h.stream(id);
      await first.until(() => first.mediaBytes === 1600);
      const second = await h.stream(id);
      await second.until(() => second.closedWith !== null);
      expect(second.closedWith).to.deep.equal({ code: 1008, reason: 'stream already open' });
      expect(first.closedWith).to.equal(null);
      expect(h.realtime.connections).to.have.length(1);
    });

    it('a socket that sends no start in time', async () => {
      h = await startBridge(kind, { script: [], startTimeoutMs: 50 });
      const id = await h.placeCall();
      const peer = await FakeMediaPeer.connect(mediaStreamUrl(h.srv.baseUrl, id));
      await peer.until(() => peer.closedWith !== null);
      expect(peer.closedWith).to.deep.equal({ code: 1008, reason: 'no start' });
    });
  });
});
