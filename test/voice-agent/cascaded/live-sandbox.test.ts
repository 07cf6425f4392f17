// Whole calls through the cascaded agent on the sandbox's live line, offline, through exactly the code that runs a
// real call: an api process and a worker process (server/src/main.ts) sharing only the store; the worker dials,
// carries the line (the callee's lines as espeak-ng audio, the agent's voice back), hears the callee through the
// oracle recogniser and libfvad, answers with the scripted model behind the chat-model port, and writes the turns,
// the latency and a two-leg recording. Each sandbox manner exercises the agent's turn-taking on real audio.
import { expect } from 'chai';
import { decodePcm16Wav } from '../../../server/src/recording/encode-wav.js';
import { scriptedConversation } from '../../../server/src/voice-agent/scripted-agent.js';
import { liveSandbox } from './live-sandbox-rig.js';

const NUMBERS = { plain: '+14155550150', optsOut: '+14155550118', interrupts: '+14155550121', pauses: '+14155550122', talksOver: '+14155550123', noisy: '+14155550124' };
const FIELDS = [
  { name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' },
  { name: 'hours', type: 'string', description: 'the opening hours on Sunday' },
];

interface Turn {
  speaker: 'agent' | 'callee';
  text: string;
  startSec: number;
  endSec: number;
}
interface CallRecord {
  id: string;
  status: string;
  optOut: boolean;
  turns: Turn[] | null;
  recordingUrl: string | null;
  latency: { firstAudioMs: number | null; turns: Array<{ afterMs: number; stages?: Record<string, number> }>; bargeIns: Array<{ atMs: number; clearMs: number }> } | null;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`the cascaded agent on the sandbox's live line, across api and worker processes [${kind}]`, function () {
    this.timeout(240_000);
    const rig = liveSandbox<keyof typeof NUMBERS, CallRecord>({
      kind,
      // Real time: the callee's gaps and the agent's synthesis are as on a real line, whatever else the machine does.
      timeScale: '1',
      bodies: (Object.entries(NUMBERS) as Array<[keyof typeof NUMBERS, string]>).map(([name, to]) => [name, { to, objective: 'Ask whether the shop is open on Sunday.', fields: FIELDS }]),
      endedWithinMs: 180_000,
    });
    const { calls } = rig;

    /** The sandbox callee's and the scripted agent's lines for a call. */
    const script = (id: string) => rig.lines(id, scriptedConversation);
    const said = (c: CallRecord, speaker: Turn['speaker']) => c.turns!.filter((t) => t.speaker === speaker).map((t) => t.text);

    it('holds a whole call: the callee heard line by line, the script answered in order, the agent hanging up after its goodbye', async () => {
      const call = calls.get('plain')!;
      const { callee, agent } = await script(call.id);
      expect(call.status).to.equal('completed');
      expect(said(call, 'agent')).to.deep.equal(agent);
      // The agent hangs up once its goodbye has played: the callee's own goodbye is never said.
      expect(said(call, 'callee')).to.deep.equal(callee.slice(0, -1));
      expect(call.turns!.map((t) => t.speaker)).to.deep.equal(agent.flatMap(() => ['callee', 'agent']).slice(0, agent.length * 2));
      for (let i = 1; i < call.turns!.length; i++) expect(call.turns![i]!.startSec, `turn ${i} starts after the one before ends`).to.be.greaterThan(call.turns![i - 1]!.endSec);
    });

    it('times each answer stage by stage, on the record', () => {
      const { latency } = calls.get('plain')!;
      expect(latency!.turns).to.have.length(4);
      for (const t of latency!.turns) {
        expect(t.stages).to.have.all.keys('endpointMs', 'ownMs', 'modelMs', 'voiceMs');
        // The endpoint is the largest part: the silence that ends the callee's turn, and the recogniser's final.
        expect(t.stages!.endpointMs).to.be.within(150, 1000);
        expect(t.afterMs).to.be.at.least(t.stages!.endpointMs);
      }
      expect(latency!.bargeIns).to.deep.equal([]);
    });

    it('records both legs of the line: two channels, the agent on the left and the callee on the right, and their mix', async () => {
      const call = calls.get('plain')!;
      const auth = { authorization: `Bearer ${rig.key}` };
      const mono = decodePcm16Wav(new Uint8Array(await (await fetch(call.recordingUrl!.replace(/^http:\/\/[^/]+/, rig.apiUrl), { headers: auth })).arrayBuffer()));
      const res = await fetch(`${rig.apiUrl}/v1/agent/calls/${call.id}/recording?channels=2`, { headers: auth });
      expect(res.status).to.equal(200);
      const wav = Buffer.from(await res.arrayBuffer());
      expect(wav.readUInt16LE(22), 'channels').to.equal(2);
      expect(wav.readUInt32LE(24), 'sample rate').to.equal(8000);
      expect(mono.sampleRate).to.equal(8000);
      const frames = (wav.length - 44) / 4;
      expect(frames).to.equal(mono.samples.length);
      const lastEnd = Math.max(...call.turns!.map((t) => t.endSec));
      expect(frames / 8000).to.be.within(lastEnd, lastEnd + 1);
      // Each leg carries its own speaker: loud where they talk, silent where only the other does.
      const level = (channel: 0 | 1, fromSec: number, toSec: number) => {
        let sum = 0;
        const a = Math.floor(fromSec * 8000);
        const b = Math.floor(toSec * 8000);
        for (let i = a; i < b; i++) sum += Math.abs(wav.readInt16LE(44 + i * 4 + channel * 2));
        return sum / Math.max(1, b - a);
      };
      const agentTurn = call.turns!.find((t) => t.speaker === 'agent')!;
      const calleeTurn = call.turns!.find((t) => t.speaker === 'callee')!;
      expect(level(0, agentTurn.startSec, agentTurn.endSec)).to.be.greaterThan(500);
      expect(level(1, agentTurn.startSec, agentTurn.endSec)).to.be.below(50);
      expect(level(1, calleeTurn.startSec, calleeTurn.endSec)).to.be.greaterThan(500);
      expect(level(0, calleeTurn.startSec, calleeTurn.endSec)).to.be.below(50);
    });

    it('records the opt-out the callee asks for, and ends the call after the apology', async () => {
      const call = calls.get('optsOut')!;
      const { agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', optOut: true });
      expect(said(call, 'agent')).to.deep.equal(agent);
    });

    it('stops its greeting where a callee who picks up silent says "Hello?" over it, and answers them', async () => {
      const call = calls.get('interrupts')!;
      const { callee, agent } = await script(call.id);
      expect(call.status).to.equal('completed');
      // The agent greets after a second of silence; the callee's "Hello?" comes 0.6 s into the greeting and cuts it.
      const greeting = call.turns![0]!;
      expect(greeting.speaker).to.equal('agent');
      expect(greeting.startSec).to.be.within(1, 1.5);
      expect(agent[0]!.startsWith(greeting.text)).to.equal(true);
      expect(greeting.text.length).to.be.below(agent[0]!.length);
      // Its speech starts 0.6 s in; the detector dates it to its first voiced frame, a frame or two later.
      expect(call.turns![1]).to.include({ speaker: 'callee', text: callee[0] });
      expect(call.turns![1]!.startSec - greeting.startSec).to.be.within(0.56, 0.72);
      expect(call.latency!.bargeIns).to.have.length(1);
      expect(call.latency!.bargeIns[0]!.atMs).to.equal(Math.round(call.turns![1]!.startSec * 1000));
      expect(call.latency!.bargeIns[0]!.clearMs).to.be.within(100, 600);
    });

    it('waits through a callee’s pause to think: each answer is one turn, whole', async () => {
      const call = calls.get('pauses')!;
      const { callee, agent } = await script(call.id);
      expect(call.status).to.equal('completed');
      expect(said(call, 'callee')).to.deep.equal(callee.slice(0, -1));
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(call.latency!.bargeIns).to.deep.equal([]);
    });

    it('stops talking when the callee answers over its question, keeping only what they heard of it', async () => {
      const call = calls.get('talksOver')!;
      const { agent } = await script(call.id);
      expect(call.status).to.equal('completed');
      expect(call.latency!.bargeIns).to.have.length(1);
      const cut = call.turns!.filter((t) => t.speaker === 'agent')[2]!;
      expect(agent[2]!.startsWith(cut.text)).to.equal(true);
      expect(cut.text.length).to.be.below(agent[2]!.length);
      const answer = call.turns![call.turns!.indexOf(cut) + 1]!;
      expect(answer.speaker).to.equal('callee');
      expect(answer.startSec).to.be.below(cut.endSec);
      // Cut soon after the callee began: well before the question would have ended.
      expect(cut.endSec - answer.startSec).to.be.within(0.1, 0.8);
      expect(call.latency!.bargeIns[0]!.atMs).to.equal(answer.startSec * 1000);
    });

    it('hears a noisy line’s callee and nothing else: no turn made of the noise', async () => {
      const call = calls.get('noisy')!;
      const { callee, agent } = await script(call.id);
      expect(call.status).to.equal('completed');
      expect(said(call, 'callee')).to.deep.equal(callee.slice(0, -1));
      expect(said(call, 'agent')).to.deep.equal(agent);
    });
  });
}
