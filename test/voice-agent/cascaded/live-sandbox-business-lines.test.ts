// The sandbox's business lines through the cascaded agent on the live line, offline, across an api and a worker
// process (server/src/main.ts) sharing only the store: the key menu hears the agent's keys as DTMF tones in its audio
// and puts it through to a person after the right ones (555-0125); the spoken menu takes the option the agent says
// (555-0126); the queue plays its recording and a minute of hold music, through which the agent says nothing until a
// person picks up (555-0127), or, with a short hold budget, until the agent hangs up (hold_timeout). Each call's
// turns, record and recording are as they were on the line.
import { expect } from 'chai';
import { menuPrompt, KEY_MENU, HOLD_ANNOUNCEMENT, SPOKEN_MENU, CONNECTING } from '../../../server/src/conversation/sandbox-menus.js';
import { decodeDtmf } from '../../../server/src/telephony/dtmf-decoder.js';
import { scriptedTalk } from '../../../server/src/voice-agent/scripted-agent.js';
import { liveSandbox } from './live-sandbox-rig.js';

const CALLS = {
  keyMenu: { to: '+14155550125', objective: 'Ask when my delivery will arrive.' },
  spokenMenu: { to: '+14155550126', objective: 'Ask about a charge on my last bill.' },
  hold: { to: '+14155550127', objective: 'Ask whether the shop is open on Sunday.' },
  holdTooLong: { to: '+14155550127', objective: 'Ask whether the shop is open on Sunday.', hold: { maxWaitSec: 20 } },
};
const FIELDS = [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }];

interface Turn {
  speaker: 'agent' | 'callee';
  text: string;
  startSec: number;
  endSec: number;
}
interface CallRecord {
  id: string;
  status: string;
  summary: string | null;
  turns: Turn[] | null;
  holdSec: number | null;
  endReason: string | null;
  hold: { maxWaitSec: number } | null;
  durationSec: number | null;
  recordingUrl: string | null;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`the sandbox's business lines on the live line, through the cascaded agent [${kind}]`, function () {
    this.timeout(150_000);
    const rig = liveSandbox<keyof typeof CALLS, CallRecord>({
      kind,
      timeScale: '0.5',
      bodies: (Object.entries(CALLS) as Array<[keyof typeof CALLS, Record<string, unknown>]>).map(([name, body]) => [name, { ...body, fields: FIELDS }]),
      endedWithinMs: 120_000,
    });
    const { calls } = rig;

    /** What the person says and the agent answers. */
    const talk = (id: string) => rig.lines(id, scriptedTalk);
    const texts = (c: CallRecord) => c.turns!.map((t) => `${t.speaker}: ${t.text}`);
    /** The two legs of the call's recording (the agent left, the callee right; 8 kHz, 16-bit, after the 44-byte header). */
    const recording = async (c: CallRecord) => {
      const res = await fetch(`${rig.apiUrl}/v1/agent/calls/${c.id}/recording?channels=2`, { headers: { authorization: `Bearer ${rig.key}` } });
      expect(res.status).to.equal(200);
      const wav = Buffer.from(await res.arrayBuffer());
      expect([wav.readUInt16LE(22), wav.readUInt32LE(24)]).to.deep.equal([2, 8000]);
      const frames = (wav.length - 44) / 4;
      const leg = (channel: number) => Int16Array.from({ length: frames }, (_, i) => wav.readInt16LE(44 + i * 4 + channel * 2));
      return { agent: leg(0), callee: leg(1) };
    };

    it('goes through the key menu with the keys that fit the objective, heard as tones by the menu, then talks to the person', async () => {
      const call = calls.get('keyMenu')!;
      const { callee, agent } = await talk(call.id);
      expect(call.status).to.equal('completed');
      expect(texts(call)).to.deep.equal([
        `callee: ${menuPrompt(KEY_MENU, 'keys')}`,
        'agent: [pressed 2]',
        `callee: ${menuPrompt(KEY_MENU.options[1]!.next!, 'keys')}`,
        'agent: [pressed 1]',
        `callee: ${CONNECTING}`,
        ...agent.flatMap((line, i) => [`callee: ${callee[i]}`, `agent: ${line}`]),
      ]);
      expect([call.holdSec, call.endReason]).to.deep.equal([0, 'hung_up']);
      // The agent's leg carries the keys as tones where its turns say, and the menu's answers come after them.
      const keys = decodeDtmf((await recording(call)).agent).filter((k) => k.key !== '?');
      const pressed = call.turns!.filter((t) => t.text.startsWith('[pressed'));
      expect(keys.map((k) => k.key)).to.deep.equal(['2', '1']);
      keys.forEach((k, i) => {
        expect(k.startMs / 1000).to.be.within(pressed[i]!.startSec, pressed[i]!.endSec);
        expect(k.endMs - k.startMs).to.equal(100);
      });
    });

    it('says the option the spoken menu asks for, then talks to the person', async () => {
      const call = calls.get('spokenMenu')!;
      const { callee, agent } = await talk(call.id);
      expect(call.status).to.equal('completed');
      expect(texts(call)).to.deep.equal([
        `callee: ${menuPrompt(SPOKEN_MENU, 'spoken')}`,
        'agent: Billing.',
        `callee: ${CONNECTING}`,
        ...agent.flatMap((line, i) => [`callee: ${callee[i]}`, `agent: ${line}`]),
      ]);
    });

    it('waits through the hold music in silence and picks up with the person who comes on', async () => {
      const call = calls.get('hold')!;
      const { callee, agent } = await talk(call.id);
      expect(call.status).to.equal('completed');
      expect(texts(call)).to.deep.equal([`callee: ${HOLD_ANNOUNCEMENT}`, 'agent: [waiting on hold]', ...agent.flatMap((line, i) => [`callee: ${callee[i]}`, `agent: ${line}`])]);
      const [announcement, wait, hello] = call.turns!;
      // The wait runs from the model's wait_on_hold, after the announcement, to the person's first word, a minute of
      // music later; the record's time on hold is that turn.
      expect(wait!.startSec).to.be.within(announcement!.endSec, announcement!.endSec + 2);
      expect(wait!.endSec).to.equal(hello!.startSec);
      // The music follows the recording at once, and the line's voice activity detection takes its first second or
      // so for more of the recording (its noise floor has not learnt the music yet): the person comes on a minute
      // after the recording's audio, a little less after its turn as heard.
      expect(hello!.startSec - announcement!.endSec).to.be.within(58.5, 61);
      expect(call.holdSec).to.equal(Math.round((wait!.endSec - wait!.startSec) * 1000) / 1000);
      expect(call.endReason).to.equal('hung_up');
      // Nothing of the agent's on the line while it waited.
      const { agent: agentLeg } = await recording(call);
      const during = agentLeg.subarray(Math.ceil(wait!.startSec * 8000), Math.floor(wait!.endSec * 8000));
      expect(during.reduce((peak, s) => Math.max(peak, Math.abs(s)), 0)).to.be.below(50);
    });

    it('hangs up when the hold outlasts the call’s budget: completed, hold_timeout, the summary saying so', async () => {
      const call = calls.get('holdTooLong')!;
      expect(call).to.include({ status: 'completed', endReason: 'hold_timeout' });
      expect(call.hold).to.deep.equal({ maxWaitSec: 20 });
      expect(texts(call)).to.deep.equal([`callee: ${HOLD_ANNOUNCEMENT}`, 'agent: [waiting on hold]']);
      const wait = call.turns![1]!;
      expect(wait.endSec - wait.startSec).to.be.within(20, 20.1);
      expect(call.holdSec).to.equal(Math.round((wait.endSec - wait.startSec) * 1000) / 1000);
      // The line ends once the session has closed its records, on another process's clock: a few seconds after.
      expect(call.durationSec).to.be.within(wait.endSec, wait.endSec + 8);
      expect(call.summary).to.equal(
        'Objective: Ask whether the shop is open on Sunday. The call was ended after waiting on hold for longer than its hold limit (hold.maxWaitSec); the agent asked 0 of 1 questions and got 0 answers. Not asked before the call ended: whether the shop is open on Sunday.',
      );
    });
  });
}
