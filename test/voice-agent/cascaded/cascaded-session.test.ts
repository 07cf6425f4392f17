// The cascaded session on a live line, against the vendors' fakes (session-rig.ts): Deepgram, an OpenAI-compatible
// chat stream, OpenAI's and ElevenLabs' voices, each a local server that fails as the vendor does on a bad day, and
// the session's real adapters talking to them. A test line carries the callee's espeak-ng speech in 20 ms frames and
// plays the agent's audio out at the same pace, so each case asserts what a call would show: the audio, marks,
// clear and hang-up the line got, the turns the ledger wrote, whether the failure was recorded, and what the model
// was sent and keeps. The cases: a reply spoken as it streams; each provider's failures (retried once while nothing
// of the reply was heard, else the apology and the hang-up); tool calls; barge-in; the end of the callee's turn; no
// key in any log line.
import { expect } from 'chai';
import { chatTools } from '../../../server/src/chat-model/chat-model.js';
import { encodeMuLaw, pcm16, resample } from '../../../server/src/speech/audio.js';
import { realtimeInstructions } from '../../../server/src/voice-agent/realtime-instructions.js';
import { CALL_TOOLS } from '../../../server/src/voice-agent/tools.js';
import { FAKE_DEEPGRAM_KEY } from '../../support/fake-deepgram.js';
import { until } from '../../support/until.js';
import { VOICES } from './line-audio.js';
import { APOLOGY, BRIEF, type CalleePart, deepgramScript, KEYS, Rig, speechLastedAt, speechSpans } from './session-rig.js';

const SYSTEM = { role: 'system', content: realtimeInstructions(BRIEF) };

describe('the cascaded session on a live line, against the vendors’ fakes', function () {
  this.timeout(30_000);
  let rig: Rig;

  afterEach(async () => {
    await rig?.close();
    const logs = rig?.logs.join('\n') ?? '';
    for (const key of KEYS) expect(logs).not.to.contain(key);
  });

  /** The line audio the fake OpenAI voice makes of each sentence, as the adapter brings it to the line. */
  const voiced = (...sentences: string[]) => Buffer.concat(sentences.map((s) => encodeMuLaw(resample(pcm16(rig.speech.pcmFor(s)).samples, 24_000, 8000))));

  it('hears the callee, asks the model, and speaks its reply sentence by sentence as it streams', async () => {
    rig = await Rig.start({ callee: [{ text: 'Hello?', atMs: 300 }] });
    const seen: string[] = [];
    rig.chat.reply({
      text: ['Hello, this is an assistant calling for Acme.', ' Are', ' you open on Sunday?'],
      holdAfter: 3,
      until: async () => {
        await until('the voice asked for the first sentence', () => rig.speech.requests.length > 0, 5000);
        seen.push(`voice asked while the model's stream ${rig.chat.requests[0]!.ended ? 'ended' : 'was open'}`);
      },
    });
    rig.speech.play({ holdAfterBytes: 4800 });
    rig.begin();
    await rig.line.until('the first audio on the line', () => rig.line.played.length > 0);
    seen.push(`first audio on the line while its sentence's body ${rig.speech.requests[0]!.ended ? 'was complete' : 'was still coming'}`);
    // The fake holds the sentence's body once it has sent 4,800 bytes; released before that, it would hold for good.
    await until('the voice holding its body', () => rig.speech.events.includes('held 1'), 15_000);
    rig.speech.release();
    await rig.line.until('the reply heard', () => rig.turns.some((t) => t.speaker === 'agent'));
    expect(await rig.line.calleeHangsUp()).to.equal('line_ended');

    // Two facts, noted as each was seen; which is noted first depends on the machine's timing.
    expect(seen).to.have.members(["voice asked while the model's stream was open", "first audio on the line while its sentence's body was still coming"]);
    const reply = 'Hello, this is an assistant calling for Acme. Are you open on Sunday?';
    expect(rig.chat.requests).to.have.length(1);
    expect(rig.chat.requests[0]!.body.messages).to.deep.equal([SYSTEM, { role: 'user', content: 'Hello?' }]);
    expect(rig.chat.requests[0]!.body.tools).to.deep.equal(chatTools(CALL_TOOLS.offered));
    expect(rig.spokenInputs).to.deep.equal(['Hello, this is an assistant calling for Acme.', 'Are you open on Sunday?']);
    expect(rig.line.agentAudio.equals(voiced(...rig.spokenInputs))).to.equal(true);
    expect(rig.line.signals.filter((s) => !s.startsWith('mark'))).to.deep.equal(['ended']);
    const [span] = await speechSpans(rig.line.callee);
    expect(rig.turns).to.have.length(2);
    expect(rig.turns[0]).to.deep.equal({ speaker: 'callee', text: 'Hello?', startMs: span!.startMs, endMs: span!.endMs });
    expect(rig.turns[1]).to.include({ speaker: 'agent', text: reply });
    expect(rig.turns[1]!.endMs - rig.turns[1]!.startMs).to.equal(Math.round(rig.line.agentAudio.length / 8));
    expect(rig.turns[1]!.startMs).to.be.greaterThan(span!.endMs);
    expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
    expect(rig.sleeps).to.deep.equal([]);
    expect(rig.session.conversation).to.deep.equal([SYSTEM, { role: 'user', content: 'Hello?' }, { role: 'assistant', content: reply }]);
  });

  /** How many words of a reply the session reckons heard after `ms` of its audio, while the voice is still making it. */
  const wordsHeard = (ms: number) => Math.round(ms / (60_000 / 165));

  /** The callee heard the apology whole, then the line was hung up for the lost agent; the failure is recorded. */
  async function expectApology(): Promise<void> {
    expect(await rig.done()).to.equal('agent_lost');
    expect(rig.line.agentAudio.subarray(-APOLOGY.audio.length).equals(APOLOGY.audio)).to.equal(true);
    expect(rig.line.signals.slice(-2)).to.deep.equal(['marked svc_apology', 'hangUp agent_lost']);
    expect(rig.line.signals.filter((s) => s === 'mark svc_apology')).to.have.length(1);
    expect(rig.lifecycle).to.deep.equal(['recordFailure', 'apology', 'turnsWritten']);
    expect(rig.turns.at(-1)).to.include({ speaker: 'agent', text: APOLOGY.text });
  }

  describe('a voice that fails', () => {
    it('is asked again by its adapter when its first sentence gets a 503, and the reply is spoken', async () => {
      rig = await Rig.start({ timing: { greetAfterMs: 400 } });
      rig.chat.reply({ text: ['Hello, this is an assistant calling for Acme.'] });
      rig.speech.play({ status: 503 });
      rig.begin();
      await rig.line.until('the greeting heard', () => rig.turns.some((t) => t.speaker === 'agent'));
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');
      expect(rig.speech.events.filter((e) => e.startsWith('request') || e.startsWith('status'))).to.deep.equal(['request 1', 'status 1 503', 'request 2']);
      expect(rig.spokenInputs).to.deep.equal(['Hello, this is an assistant calling for Acme.', 'Hello, this is an assistant calling for Acme.']);
      expect(rig.line.agentAudio.equals(voiced('Hello, this is an assistant calling for Acme.'))).to.equal(true);
      expect(rig.chat.requests).to.have.length(1);
      expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
      expect(rig.turns).to.deep.equal([
        { speaker: 'agent', text: 'Hello, this is an assistant calling for Acme.', startMs: rig.turns[0]!.startMs, endMs: rig.turns[0]!.startMs + Math.round(rig.line.agentAudio.length / 8) },
      ]);
    });

    it('that keeps failing before any audio is asked once more, whole reply and all, then the callee hears the apology', async () => {
      rig = await Rig.start({ timing: { greetAfterMs: 400 } });
      rig.chat.reply({ text: ['Hello, this is an assistant calling for Acme.'] }, { text: ['Hello, this is an assistant calling for Acme.'] });
      rig.speech.play({ status: 503 }, { status: 503 }, { status: 502 }, { status: 502 });
      rig.begin();
      await expectApology();
      // The adapter's own retry, twice over: the session asked the model and the voice once more.
      expect(rig.speech.events.filter((e) => e.startsWith('status'))).to.deep.equal(['status 1 503', 'status 2 503', 'status 3 502', 'status 4 502']);
      expect(rig.chat.requests).to.have.length(2);
      expect(rig.chat.requests[1]!.body.messages).to.deep.equal(rig.chat.requests[0]!.body.messages);
      expect(rig.sleeps).to.deep.equal([300]);
      expect(rig.line.agentAudio.equals(APOLOGY.audio)).to.equal(true);
      expect(rig.turns).to.deep.equal([{ speaker: 'agent', text: APOLOGY.text, startMs: rig.turns[0]!.startMs, endMs: rig.turns[0]!.startMs + APOLOGY.audio.length / 8 }]);
      expect(rig.session.conversation).to.deep.equal([SYSTEM]);
    });
  });

  describe('an ElevenLabs voice that fails', () => {
    const GREETING = 'Hello, this is an assistant calling for Acme.';

    it('whose handshake gets a 503 is opened again by its adapter, and the reply is spoken', async () => {
      rig = await Rig.start({ timing: { greetAfterMs: 400 }, voice: 'elevenlabs' });
      rig.chat.reply({ text: [GREETING] });
      rig.elevenlabs.play({ handshake: 503 });
      rig.begin();
      await rig.line.until('the greeting heard', () => rig.turns.some((t) => t.speaker === 'agent'));
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');
      expect(rig.elevenlabs.events.filter((e) => e.startsWith('refused') || e.startsWith('connect'))).to.deep.equal(['refused 1 503', 'connect 2']);
      const spoken = rig.elevenlabs.connections[1]!.generations;
      expect(spoken.map((g) => g.trim())).to.deep.equal([GREETING]);
      expect(rig.line.agentAudio.equals(Buffer.concat(spoken.map((g) => rig.elevenlabs.ulawFor(g))))).to.equal(true);
      expect(rig.chat.requests).to.have.length(1);
      expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
      expect(rig.turns.map((t) => t.text)).to.deep.equal([GREETING]);
    });

    it('whose socket closes mid-sentence after audio was heard is not asked again: the apology', async () => {
      rig = await Rig.start({ timing: { greetAfterMs: 400 }, voice: 'elevenlabs' });
      rig.chat.reply({ text: [GREETING] });
      rig.elevenlabs.play({ closeAfterChunks: 2, code: 1011, reason: 'internal error' });
      rig.begin();
      await expectApology();
      expect(rig.elevenlabs.connections).to.have.length(1);
      expect(rig.chat.requests).to.have.length(1);
      expect(rig.sleeps).to.deep.equal([]);
      const before = rig.line.agentAudio.subarray(0, -APOLOGY.audio.length);
      expect(before.length).to.be.greaterThan(0);
      expect(rig.elevenlabs.ulawFor(rig.elevenlabs.connections[0]!.generations[0]!).subarray(0, before.length).equals(before)).to.equal(true);
    });
  });

  describe('a chat model that fails', () => {
    const GREETING = 'Hello, this is an assistant calling for Acme.';
    const greetFirst = { timing: { greetAfterMs: 400 } };

    it('is asked again after the wait its 429 names (Retry-After: 1), and the reply is spoken', async () => {
      rig = await Rig.start(greetFirst);
      rig.chat.reply({ status: 429, retryAfter: '1' }, { text: [GREETING] });
      rig.begin();
      await rig.line.until('the greeting heard', () => rig.turns.some((t) => t.speaker === 'agent'));
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');
      expect(rig.sleeps).to.deep.equal([1000]);
      expect(rig.chat.requests.map((r) => r.body.messages)).to.deep.equal([[SYSTEM], [SYSTEM]]);
      expect(rig.spokenInputs).to.deep.equal([GREETING]);
      expect(rig.line.agentAudio.equals(voiced(GREETING))).to.equal(true);
      expect(rig.line.signals.filter((s) => !s.startsWith('mark'))).to.deep.equal(['ended']);
      expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
      expect(rig.turns.map((t) => t.text)).to.deep.equal([GREETING]);
      expect(rig.session.conversation).to.deep.equal([SYSTEM, { role: 'assistant', content: GREETING }]);
    });

    it('that answers 500 twice is asked once more, then the callee hears the apology and the line is hung up', async () => {
      rig = await Rig.start(greetFirst);
      rig.chat.reply({ status: 500 }, { status: 500 });
      rig.begin();
      await expectApology();
      expect(rig.sleeps).to.deep.equal([300]);
      expect(rig.chat.requests).to.have.length(2);
      expect(rig.speech.requests).to.have.length(0);
      expect(rig.line.agentAudio.equals(APOLOGY.audio)).to.equal(true);
      expect(rig.turns.map((t) => t.text)).to.deep.equal([APOLOGY.text]);
      expect(rig.session.conversation).to.deep.equal([SYSTEM]);
    });

    it('that refuses the key (401) is not asked again: the apology at once', async () => {
      const wrongKey = 'sk-wrong-key-0d9f8e7c6b5a4321';
      rig = await Rig.start({ ...greetFirst, chatModel: { apiKey: wrongKey } });
      rig.begin();
      await expectApology();
      expect(rig.chat.requests).to.have.length(1);
      expect(rig.sleeps).to.deep.equal([]);
      expect(rig.speech.requests).to.have.length(0);
      // The fake's 401 body quotes the key it was sent, as OpenAI's does.
      expect(rig.logs.join('\n')).not.to.contain(wrongKey);
    });

    it('that sends no first token within its bound is given up on, asked once more, then the apology', async () => {
      rig = await Rig.start({ ...greetFirst, chatModel: { firstTokenMs: 300 } });
      rig.chat.reply({ text: [GREETING], stallAfter: 1 }, { text: [GREETING], stallAfter: 1 });
      rig.begin();
      await expectApology();
      expect(rig.chat.requests.map((r) => r.aborted)).to.deep.equal([true, true]);
      expect(rig.sleeps).to.deep.equal([300]);
      expect(rig.speech.requests).to.have.length(0);
    });

    it('whose stream breaks after the callee heard part of the reply is not asked again: the line is cleared for the apology, the transcript keeps what was heard', async () => {
      rig = await Rig.start(greetFirst);
      rig.chat.reply({
        text: [GREETING, ' We', ' are calling about your opening hours.'],
        holdAfter: 3,
        until: () => until('a second of the greeting heard', () => rig.line.heardBytes >= 8000, 5000),
        cutAfter: 3,
      });
      rig.begin();
      await expectApology();
      expect(rig.chat.requests).to.have.length(1);
      expect(rig.sleeps).to.deep.equal([]);
      expect(rig.spokenInputs).to.deep.equal([GREETING]);
      const clear = rig.line.events.find((e) => e.what === 'clear')!;
      expect(clear.bytes).to.be.at.least(8000);
      const before = rig.line.agentAudio.subarray(0, -APOLOGY.audio.length);
      expect(before.length).to.be.greaterThan(clear.bytes!);
      expect(voiced(GREETING).subarray(0, before.length).equals(before)).to.equal(true);
      // The words heard, at the speaking rate (the voice had not made the whole reply): the line played
      // clear.bytes of it; the session reckons from its last mark, at most 100 ms of audio before.
      const words = rig.turns[0]!.text.split(' ');
      expect(words.length).to.be.within(wordsHeard(clear.bytes! / 8 - 100), wordsHeard(clear.bytes! / 8));
      expect(GREETING.startsWith(rig.turns[0]!.text)).to.equal(true);
      expect(rig.turns.map((t) => t.speaker)).to.deep.equal(['agent', 'agent']);
      expect(rig.turns[1]!.text).to.equal(APOLOGY.text);
    });
  });

  describe('a recogniser that fails', () => {
    const REPLY = 'Hello, this is an assistant calling for Acme. Are you open on Sunday?';
    const ANSWER = 'Yes, we are open on Sunday.';
    const GOODBYE = 'Thank you, goodbye.';
    const endCall = { id: 'call_end_1', name: 'end_call', arguments: ['{"reason":', '"done"}'] };

    it('that refuses the stream at its open (a wrong key) is not waited on: the apology, and the line is hung up', async () => {
      const wrongKey = 'dg-wrong-key-3c5e7a9b1d2f4680';
      rig = await Rig.start({ callee: [{ text: 'Hello?', atMs: 300 }], recognizer: { apiKey: wrongKey } });
      rig.begin();
      await expectApology();
      expect(rig.deepgram.handshakes.map((h) => h.status)).to.deep.equal([401]);
      expect(rig.chat.requests).to.have.length(0);
      expect(rig.line.agentAudio.equals(APOLOGY.audio)).to.equal(true);
      expect(rig.turns.map((t) => t.text)).to.deep.equal([APOLOGY.text]);
      expect(rig.logs.join('\n')).not.to.contain(wrongKey);
    });

    it('whose socket drops mid-call is reopened by its adapter, and the call goes on to its goodbye', async () => {
      const parts: CalleePart[] = [
        { text: 'Hello?', atMs: 300 },
        { text: ANSWER, atMs: 7000 },
      ];
      // The first socket drops 3 s in, between the callee's lines; the second counts its audio from where it opened.
      rig = await Rig.start({
        callee: parts,
        lineMs: 10_000,
        deepgram: (said) => {
          const first = deepgramScript(parts.slice(0, 1), said.slice(0, 1));
          const heardTo = first.reduce((ms, step) => ms + step.afterBytes / 8, 0);
          return { connections: [{ script: [...first, { afterBytes: (3000 - heardTo) * 8, drop: 1011 }] }, { script: deepgramScript(parts.slice(1), said.slice(1), 3000) }] };
        },
      });
      rig.chat.reply({ text: [REPLY] }, { text: [GOODBYE], calls: [endCall] });
      rig.begin();
      expect(await rig.done()).to.equal('end_call');
      expect(rig.deepgram.handshakes.map((h) => h.status)).to.deep.equal([101, 101]);
      expect(rig.deepgram.connections[0]!.closeCode).to.equal(1011);
      expect(rig.chat.requests.map((r) => r.body.messages)).to.deep.equal([
        [SYSTEM, { role: 'user', content: 'Hello?' }],
        [SYSTEM, { role: 'user', content: 'Hello?' }, { role: 'assistant', content: REPLY }, { role: 'user', content: ANSWER }],
      ]);
      expect(rig.turns.map((t) => [t.speaker, t.text])).to.deep.equal([
        ['callee', 'Hello?'],
        ['agent', REPLY],
        ['callee', ANSWER],
        ['agent', GOODBYE],
      ]);
      expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
      expect(rig.line.signals.slice(-2)).to.deep.equal(['marked end_call', 'hangUp end_call']);
    });

    it('whose socket drops again after its reopen fails the call: the apology, and the line is hung up', async () => {
      const parts: CalleePart[] = [{ text: 'Hello?', atMs: 300 }];
      rig = await Rig.start({
        callee: parts,
        deepgram: (said) => {
          const first = deepgramScript(parts, said);
          const heardTo = first.reduce((ms, step) => ms + step.afterBytes / 8, 0);
          return { connections: [{ script: [...first, { afterBytes: (3000 - heardTo) * 8, drop: 1011 }] }, { script: [{ afterBytes: 1000 * 8, drop: 'abnormal' }] }] };
        },
      });
      rig.chat.reply({ text: [REPLY] });
      rig.begin();
      await expectApology();
      expect(rig.deepgram.handshakes.map((h) => h.status)).to.deep.equal([101, 101]);
      expect(rig.deepgram.connections.map((c) => c.closeCode)).to.deep.equal([1011, 1006]);
      expect(rig.chat.requests).to.have.length(1);
      expect(rig.turns[0]).to.include({ speaker: 'callee', text: 'Hello?' });
      expect(rig.turns.at(-1)).to.include({ speaker: 'agent', text: APOLOGY.text });
    });
  });

  describe("the model's tool calls", () => {
    it('record the opt-out, answer the model and ask it again; its end_call hangs up once the goodbye has played', async () => {
      const ASK = 'Please take me off your list.';
      const SORRY = 'I am sorry, you will not be called again. Goodbye.';
      rig = await Rig.start({ callee: [{ text: ASK, atMs: 300 }] });
      rig.chat.reply(
        { calls: [{ id: 'call_opt_1', name: 'record_opt_out', arguments: ['{}'] }] },
        { text: ['I am sorry,', ' you will not be called again.', ' Goodbye.'], calls: [{ id: 'call_end_1', name: 'end_call', arguments: ['{"reason":"opt-out"}'] }] },
      );
      rig.begin();
      expect(await rig.done()).to.equal('end_call');
      expect(rig.lifecycle).to.deep.equal(['recordOptOut', 'turnsWritten']);
      const asked = { role: 'assistant', content: null, tool_calls: [{ id: 'call_opt_1', type: 'function', function: { name: 'record_opt_out', arguments: '{}' } }] };
      const answered = { role: 'tool', tool_call_id: 'call_opt_1', content: '{"recorded":true}' };
      expect(rig.chat.requests.map((r) => r.body.messages)).to.deep.equal([
        [SYSTEM, { role: 'user', content: ASK }],
        [SYSTEM, { role: 'user', content: ASK }, asked, answered],
      ]);
      expect(rig.session.conversation).to.deep.equal([
        SYSTEM,
        { role: 'user', content: ASK },
        asked,
        answered,
        { role: 'assistant', content: SORRY, tool_calls: [{ id: 'call_end_1', type: 'function', function: { name: 'end_call', arguments: '{"reason":"opt-out"}' } }] },
      ]);
      expect(rig.line.agentAudio.equals(voiced(...rig.spokenInputs))).to.equal(true);
      expect(rig.spokenInputs.join(' ')).to.equal(SORRY);
      // The goodbye's mark goes after all its audio, and the hang-up comes once it is back: nothing was left to play.
      const events = rig.line.events.map((e) => `${e.what}${e.name ? ` ${e.name}` : ''}`);
      expect(events.indexOf('mark end_call')).to.be.greaterThan(events.lastIndexOf('play'));
      expect(rig.line.signals.slice(-2)).to.deep.equal(['marked end_call', 'hangUp end_call']);
      const hangUp = rig.line.events.at(-1)!;
      expect(hangUp).to.include({ what: 'hangUp', bytes: 0 });
      expect(rig.line.heardBytes).to.equal(rig.line.agentAudio.length);
      expect(rig.turns.map((t) => [t.speaker, t.text])).to.deep.equal([
        ['callee', ASK],
        ['agent', SORRY],
      ]);
    });

    it('to a tool the call does not have are answered with an error, and the model is asked again', async () => {
      rig = await Rig.start({ callee: [{ text: 'Can you put me through to the manager?', atMs: 300 }] });
      rig.chat.reply({ calls: [{ id: 'call_tx_1', name: 'transfer_call', arguments: ['{"to":', '"+14155550199"}'] }] }, { text: ['I cannot transfer calls, I am sorry.'] });
      rig.begin();
      await rig.line.until('the answer heard', () => rig.turns.some((t) => t.speaker === 'agent'));
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');
      expect(rig.chat.requests).to.have.length(2);
      expect(rig.chat.requests[1]!.body.messages.slice(2)).to.deep.equal([
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_tx_1', type: 'function', function: { name: 'transfer_call', arguments: '{"to":"+14155550199"}' } }] },
        { role: 'tool', tool_call_id: 'call_tx_1', content: '{"error":"no tool named transfer_call"}' },
      ]);
      expect(rig.spokenInputs).to.deep.equal(['I cannot transfer calls, I am sorry.']);
      expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
      expect(rig.turns.map((t) => t.text)).to.deep.equal(['Can you put me through to the manager?', 'I cannot transfer calls, I am sorry.']);
    });
  });

  describe('a callee who talks over the agent', () => {
    const LONG = 'Hello, this is an assistant calling on behalf of Acme about the opening hours of your shop.';
    const WHO = 'Sorry, who is this?';
    const ANSWER = 'This is an assistant calling for Acme.';

    it('for longer than minSpeechMs clears the line, cuts the turn and the model’s message to the words heard, and aborts the reply in progress', async () => {
      rig = await Rig.start({
        callee: [
          { text: 'Hello?', atMs: 300 },
          { text: WHO, atMs: 3500, interims: 0 },
        ],
      });
      // The reply's stream stays open after its first sentence: the model is still writing when the callee cuts in.
      rig.chat.reply({ text: [LONG, ' We', ' would like to know'], stallAfter: 3 }, { text: [ANSWER] });
      rig.begin();
      await rig.line.until('the answer heard', () => rig.turns.filter((t) => t.speaker === 'agent').length === 2);
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');

      const [, who] = await speechSpans(rig.line.callee);
      // The cut comes on the frame where the speech over the agent has lasted minSpeechMs (400 ms).
      const cutAt = await speechLastedAt(rig.line.callee, 3000, 400);
      expect(rig.ears.of('barge_in')).to.deep.equal([{ type: 'barge_in', atMs: who!.startMs, nowMs: cutAt }]);
      const clears = rig.line.events.filter((e) => e.what === 'clear');
      expect(clears).to.have.length(1);
      expect(clears[0]!.atMs).to.equal(cutAt);
      expect(rig.chat.requests[0]!.aborted).to.equal(true);
      const heard = rig.turns[1]!;
      expect(heard.speaker).to.equal('agent');
      const words = heard.text.split(' ');
      expect(LONG.startsWith(heard.text)).to.equal(true);
      expect(words.length).to.be.within(Math.max(1, wordsHeard(clears[0]!.bytes! / 8 - 100)), wordsHeard(clears[0]!.bytes! / 8));
      expect(words.length).to.be.below(LONG.split(' ').length);
      // The turn ends where the clear lands, which a loaded event loop can place up to a frame after the last byte.
      expect(heard.endMs - heard.startMs).to.be.within(clears[0]!.bytes! / 8 - 100, clears[0]!.bytes! / 8 + 20);
      expect(rig.chat.requests[1]!.body.messages).to.deep.equal([SYSTEM, { role: 'user', content: 'Hello?' }, { role: 'assistant', content: heard.text }, { role: 'user', content: WHO }]);
      expect(rig.session.conversation.at(-1)).to.deep.equal({ role: 'assistant', content: ANSWER });
      expect(rig.turns.map((t) => [t.speaker, t.text])).to.deep.equal([
        ['callee', 'Hello?'],
        ['agent', heard.text],
        ['callee', WHO],
        ['agent', ANSWER],
      ]);
      // After the clear the line carries the answer alone.
      const afterClear = rig.line.events.slice(rig.line.events.indexOf(clears[0]!)).filter((e) => e.what === 'play');
      expect(afterClear.reduce((n, e) => n + e.bytes!, 0)).to.equal(voiced(ANSWER).length);
      expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
    });

    it('who took up a gap in its reply (its voice slower than the line) and talks on as the agent resumes, cuts it off there', async () => {
      // 55 characters: whole 100 ms chunks of the voice's audio, every one of them marked, so in the gap the line has
      // played all the agent sent and nothing of it is left to play.
      const FIRST = 'Hello, this is an assistant calling on behalf of Acmes.';
      rig = await Rig.start({
        callee: [
          { text: 'Hello?', atMs: 300 },
          { text: WHO, atMs: 4800, interims: 0 },
        ],
      });
      // The first sentence plays out; the rest of the reply comes only once the callee has begun to speak in the gap.
      const calleeSpeaksAgain = () => rig.line.until('the callee speaks in the gap', () => rig.ears.of('speech_started').length === 2);
      rig.chat.reply({ text: [FIRST, ' We', ' would like to know the opening hours of your shop.'], holdAfter: 3, until: calleeSpeaksAgain }, { text: [ANSWER] });
      rig.begin();
      await rig.line.until('the answer heard', () => rig.turns.filter((t) => t.speaker === 'agent').length === 2);
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');

      const [, who] = await speechSpans(rig.line.callee);
      expect(rig.ears.of('barge_in')).to.have.length(1);
      // Counted from where the agent came back over speech already under way (barge-in-detector.ts).
      expect(rig.ears.of('barge_in')[0]!.atMs).to.be.within(who!.startMs + 20, who!.endMs);
      expect(rig.line.events.filter((e) => e.what === 'clear')).to.have.length(1);
      // The cut turn holds the first sentence, heard whole, and no more than a few words of the rest.
      const heard = rig.turns[1]!;
      expect(heard.speaker).to.equal('agent');
      expect(heard.text.startsWith(FIRST)).to.equal(true);
      expect(heard.text.split(' ').length).to.be.below(FIRST.split(' ').length + 4);
      expect(rig.turns.map((t) => [t.speaker, t.text])).to.deep.equal([
        ['callee', 'Hello?'],
        ['agent', heard.text],
        ['callee', WHO],
        ['agent', ANSWER],
      ]);
    });

    it('with an "uh-huh" shorter than minSpeechMs leaves the agent talking: the reply plays whole, the model is not asked again', async () => {
      rig = await Rig.start({
        callee: [
          { text: 'Hello?', atMs: 300 },
          // A quick "uh-huh" (en-gb at 190 words a minute): 300 ms of speech.
          { text: 'Uh-huh.', atMs: 3000, voice: VOICES[2] },
        ],
      });
      expect(await speechLastedAt(rig.line.callee, 2500, 400)).to.equal(null);
      rig.chat.reply({ text: [LONG] });
      rig.begin();
      await rig.line.until('the reply heard', () => rig.turns.some((t) => t.speaker === 'agent'));
      await rig.line.until('the uh-huh written', () => rig.turns.length === 3);
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');
      expect(rig.ears.of('barge_in')).to.deep.equal([]);
      expect(rig.line.events.filter((e) => e.what === 'clear')).to.deep.equal([]);
      expect(rig.line.agentAudio.equals(voiced(LONG))).to.equal(true);
      expect(rig.line.heardBytes).to.equal(rig.line.agentAudio.length);
      expect(rig.chat.requests).to.have.length(1);
      expect(rig.turns.map((t) => [t.speaker, t.text])).to.deep.equal([
        ['callee', 'Hello?'],
        ['agent', LONG],
        ['callee', 'Uh-huh.'],
      ]);
      expect(rig.session.conversation).to.deep.equal([SYSTEM, { role: 'user', content: 'Hello?' }, { role: 'assistant', content: LONG }]);
      expect(rig.lifecycle).to.deep.equal(['turnsWritten']);
    });
  });

  describe("the end of the callee's turn", () => {
    it('waits through a pause shorter than the silence bound: one turn, one request to the model', async () => {
      const ANSWER = 'we open at nine on Sunday.';
      // Deepgram's own endpointing set past the pause: it finalises the first words without marking the end of speech.
      rig = await Rig.start({
        callee: [
          { text: 'I think', atMs: 300, end: 'is_final' },
          { text: ANSWER, afterMs: 500 },
        ],
        recognizer: { endpointingMs: 1000 },
      });
      rig.chat.reply({ text: ['Thank you.'] });
      rig.begin();
      await rig.line.until('the reply heard', () => rig.turns.some((t) => t.speaker === 'agent'));
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');
      expect(rig.deepgram.connections[0]!.query.get('endpointing')).to.equal('1000');
      const [first, second] = await speechSpans(rig.line.callee);
      // The detector heard the pause as silence (its speech stopped and started again), inside the 700 ms bound.
      expect(second!.startMs - first!.endMs).to.be.within(300, 600);
      expect(rig.ears.of('speech_stopped').map((e) => e.atMs)).to.deep.equal([first!.endMs, second!.endMs]);
      expect(rig.ears.of('turn_ended').map(({ text, startMs, endMs }) => ({ text, startMs, endMs }))).to.deep.equal([{ text: `I think ${ANSWER}`, startMs: first!.startMs, endMs: second!.endMs }]);
      expect(rig.chat.requests.map((r) => r.body.messages)).to.deep.equal([[SYSTEM, { role: 'user', content: `I think ${ANSWER}` }]]);
      expect(rig.turns[0]).to.deep.equal({ speaker: 'callee', text: `I think ${ANSWER}`, startMs: first!.startMs, endMs: second!.endMs });
    });

    const ANSWER = 'Yes, we are open on Sunday.';
    const endOfTurn = async (end: 'speech_final' | 'is_final') => {
      rig = await Rig.start({ callee: [{ text: ANSWER, atMs: 300, end }], ears: { endpointing: { silenceMs: 3000 } } });
      rig.chat.reply({ text: ['Thank you.'] });
      rig.begin();
      await rig.line.until('the reply heard', () => rig.turns.some((t) => t.speaker === 'agent'));
      expect(await rig.line.calleeHangsUp()).to.equal('line_ended');
      const [span] = await speechSpans(rig.line.callee);
      const [ended] = rig.ears.of('turn_ended');
      expect(ended).to.deep.include({ text: ANSWER, startMs: span!.startMs, endMs: span!.endMs });
      // The agent answers the callee's turn; it does not greet them while their turn is still open.
      expect(rig.chat.requests.map((r) => r.body.messages)).to.deep.equal([[SYSTEM, { role: 'user', content: ANSWER }]]);
      expect(rig.turns.map((t) => [t.speaker, t.text])).to.deep.equal([
        ['callee', ANSWER],
        ['agent', 'Thank you.'],
      ]);
      const finals = rig.deepgram.connections[0]!.sent.filter((m) => m.is_final === true && (m as any).channel.alternatives[0].transcript !== '');
      expect(finals.map((m) => m.speech_final)).to.deep.equal([end === 'speech_final']);
      return { endMs: span!.endMs, atMs: ended!.nowMs };
    };

    it("ends sooner than the silence bound on the recogniser's speech_final", async () => {
      const { endMs, atMs } = await endOfTurn('speech_final');
      // Deepgram marks the end 300 ms after the words; the turn ends 150 ms after the mark arrives, not 3 s after the speech.
      expect(atMs - endMs).to.be.at.least(300 + 150);
      expect(atMs - endMs).to.be.below(1500);
    });

    it('without speech_final, ends on the silence bound to the frame', async () => {
      const { endMs, atMs } = await endOfTurn('is_final');
      expect(atMs).to.equal(endMs + 3000);
    });
  });

  it('logs no key, nor a dozen characters of one, when every vendor fails quoting it', async () => {
    const wrongVoiceKey = 'sk-tts-wrong-7d1c3b5a9e2f4068';
    const parts: CalleePart[] = [{ text: 'Hello?', atMs: 300 }];
    rig = await Rig.start({
      callee: parts,
      // Deepgram reports an error in the stream, quoting the key; the chat server's 500 body quotes the key it was
      // sent; the voice's 401 quotes the wrong key it was given.
      deepgram: (said) => ({
        script: [...deepgramScript(parts, said), { afterBytes: 160, error: { description: `Key ${FAKE_DEEPGRAM_KEY} is over quota`, message: FAKE_DEEPGRAM_KEY, variant: 'quota' } }],
      }),
      openAiVoice: { apiKey: wrongVoiceKey },
    });
    rig.chat.reply({ status: 500 }, { text: ['Hello, this is an assistant calling for Acme.'] });
    rig.begin();
    await expectApology();
    expect(rig.speech.events).to.include('status 1 401');
    const logs = rig.logs.join('\n');
    // The failures were logged, in the providers' words less their keys.
    expect(logs).to.contain('deepgram error message');
    expect(logs).to.contain('[redacted] is over quota');
    expect(logs).to.contain('provider failed before the reply was heard; asking again');
    expect(logs).to.contain('the cascaded agent cannot go on');
    for (const key of [...KEYS, wrongVoiceKey]) for (let i = 0; i + 12 <= key.length; i++) expect(logs).not.to.contain(key.slice(i, i + 12));
  });
});
