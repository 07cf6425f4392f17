// The cascaded session on a live line, against the vendors' fakes.
import { expect } from 'chai';
import { chatTools } from '../../../server/src/chat-model/chat-model.js';
import { encodeMuLaw, pcm16, resample } from '../../../server/src/speech/audio.js';
import { realtimeInstructions } from '../../../server/src/voice-agent/realtime-instructions.js';
import { CALL_TOOLS } from '../../../server/src/voice-agent/tools.js';
import { until } from '../../support/until.js';
import { APOLOGY, BRIEF, KEYS, Rig, speechSpans } from './session-rig.js';

const SYSTEM = { role: 'system', content: realtimeInstructions(BRIEF) };

describe('the cascaded session on a live line, against the vendors’ fakes', function () {
  this.timeout(30_000);
  let rig: Rig;

  afterEach(async () => {
    await rig?.close();
    const logs = rig.logs.join('\n');
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
    rig.speech.release();
    await rig.line.until('the reply heard', () => rig.turns.some((t) => t.speaker === 'agent'));
    expect(await rig.line.calleeHangsUp()).to.equal('line_ended');

    expect(seen).to.deep.equal(["voice asked while the model's stream was open", "first audio on the line while its sentence's body was still coming"]);
    const reply = 'Hello, this is an assistant calling for Acme. Are you open on Sunday?';
    expect(rig.chat.requests).to.have.length(1);
    expect(rig.chat.requests[0]!.body.messages).to.deep.equal([SYSTEM, { role: 'user', content: 'Hello?' }]);
    expect(rig.chat.requests[0]!.body.tools).to.deep.equal(chatTools(CALL_TOOLS.offered));
    expect(rig.spokenInputs).to.deep.equal(['Hello, this is an assistant calling for Acme.', 'Are you open on Sunday?']);
    expect(rig.line.agentAudio.equals(voiced(...rig.spokenInputs))).to.equal(true);
    expect(rig.line.signals.filter((s) => !s.startsWith('mark') && !s.startsWith('marked'))).to.deep.equal(['ended']);
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
      expect(rig.turns).to.deep.equal([{ speaker: 'agent', text: 'Hello, this is an assistant calling for Acme.', startMs: rig.turns[0]!.startMs, endMs: rig.turns[0]!.startMs + Math.round(rig.line.agentAudio.length / 8) }]);
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
});
