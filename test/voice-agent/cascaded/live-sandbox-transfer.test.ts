// Transfers through the cascaded agent on the sandbox's live line, offline, across an api and a worker process
// sharing only the store: on 555-0128 the callee (espeak-ng audio) asks for a person, the scripted model behind the
// chat-model port calls transfer_call as the script says, and the line hands the callee over, calling the person
// first for a warm transfer (on the line's own call time), or finding that nobody answers 555-0129. Without a
// transfer the agent declines and goes on. The record says whether, to whom and when.
import { expect } from 'chai';
import { speechMs } from '../../../server/src/conversation/conversation.js';
import { lexiconFor } from '../../../server/src/conversation/lexicon.js';
import { TRANSFER_RING_MS } from '../../../server/src/telephony/live-line.js';
import { scriptedConversation } from '../../../server/src/voice-agent/scripted-agent.js';
import { TRANSFER_NOTES } from '../../../server/src/voice-agent/transfer.js';
import { liveSandbox } from './live-sandbox-rig.js';

const ASKS_FOR_PERSON = '+14155550128';
const PERSON = '+14155550142';
const NEVER_ANSWERS = '+14155550129';
const TRANSFERS = {
  none: null,
  cold: { to: PERSON },
  warm: { to: PERSON, mode: 'warm' },
  unanswered: { to: NEVER_ANSWERS, mode: 'warm' },
} as const;
const lex = lexiconFor('en');

interface Turn {
  speaker: 'agent' | 'callee';
  text: string;
  startSec: number;
  endSec: number;
}
interface CallRecord {
  id: string;
  status: string;
  turns: Turn[] | null;
  durationSec: number | null;
  endedAt: string | null;
  transferredTo: string | null;
  transferredAt: string | null;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`transfers by the cascaded agent on the sandbox's live line, across api and worker processes [${kind}]`, function () {
    this.timeout(240_000);
    const rig = liveSandbox<keyof typeof TRANSFERS, CallRecord>({
      kind,
      // Real time: the callee's gaps and the agent's synthesis are as on a real line, whatever else the machine does.
      timeScale: '1',
      bodies: (Object.entries(TRANSFERS) as Array<[keyof typeof TRANSFERS, (typeof TRANSFERS)[keyof typeof TRANSFERS]]>).map(([name, transfer]) => [
        name,
        { to: ASKS_FOR_PERSON, objective: 'Ask whether the shop is open on Sunday.', fields: [{ name: 'open_sunday', type: 'boolean' }], transfer },
      ]),
      endedWithinMs: 200_000,
    });
    const { calls } = rig;

    /** The sandbox callee's and the scripted agent's lines for a call. */
    const script = (id: string) => rig.lines(id, scriptedConversation);
    const said = (c: CallRecord, speaker: Turn['speaker']) => c.turns!.filter((t) => t.speaker === speaker).map((t) => t.text);

    it('hands a cold transfer over once the agent has said it is transferring: completed, transferred, when the agent left', async () => {
      const call = calls.get('cold')!;
      const { callee, agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: PERSON, transferredAt: call.endedAt });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent.slice(-2)).to.deep.equal([lex.agent.transferring, TRANSFER_NOTES.transferred]);
      // The callee's thanks comes after the handover: the line is the person's by then.
      expect(said(call, 'callee')).to.deep.equal(callee.slice(0, -1));
      // The agent left once its words had played: the handover is the last turn.
      expect(call.turns!.at(-1)!.startSec).to.be.at.least(call.turns!.at(-2)!.endSec);
    });

    it('calls the person of a warm transfer while the callee holds, briefs them, and joins the two once they take it', async () => {
      const call = calls.get('warm')!;
      const { callee, agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: PERSON, transferredAt: call.endedAt });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent.slice(1)).to.deep.equal([
        lex.agent.holdForTransfer,
        TRANSFER_NOTES.calling(lex.agent.briefing('Ask whether the shop is open on Sunday')),
        TRANSFER_NOTES.outcome.accepted,
        lex.agent.connecting,
        TRANSFER_NOTES.transferred,
      ]);
      expect(said(call, 'callee')).to.deep.equal(callee);
      // On the line's call time, the person's phone rang 4 s, they heard the briefing and the prompt at the speaking
      // rate, and pressed 1 a second later.
      const heard = speechMs(`${lex.agent.briefing('Ask whether the shop is open on Sunday')} ${lex.agent.takeCallPrompt}`);
      const notes = call.turns!.filter((t) => t.text.startsWith('['));
      expect(Math.round((notes[1]!.startSec - notes[0]!.startSec) * 1000)).to.be.within(4000 + heard + 1000, 4000 + heard + 1000 + 200);
    });

    it('tells the callee when nobody answers the transfer number (555-0129), and goes on with the objective', async () => {
      const call = calls.get('unanswered')!;
      const { callee, agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: null, transferredAt: null });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent[3]).to.equal(TRANSFER_NOTES.outcome.no_answer);
      expect(agent[4]!.startsWith(lex.agent.transferFailed)).to.equal(true);
      // The agent hangs up once its goodbye has played: the callee's own goodbye is said only if the hang-up is slow.
      const heard = said(call, 'callee');
      expect(heard).to.deep.equal(callee.slice(0, heard.length));
      expect(heard.length).to.be.at.least(callee.length - 1);
      // The person's phone rang out: TRANSFER_RING_MS of the line's call time.
      const notes = call.turns!.filter((t) => t.text.startsWith('['));
      expect(Math.round((notes[1]!.startSec - notes[0]!.startSec) * 1000)).to.be.within(TRANSFER_RING_MS, TRANSFER_RING_MS + 200);
    });

    it('declines politely on a call placed without a transfer, and goes on', async () => {
      const call = calls.get('none')!;
      const { agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: null });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent[1]!.startsWith(lex.agent.declineTransfer)).to.equal(true);
    });
  });
}
