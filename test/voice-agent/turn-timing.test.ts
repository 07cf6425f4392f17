// The turn timing the ledger feeds: the answer to the agent's first audio, each answer's delay after the callee's
// end of speech, each barge-in's clear after the callee's speech start, all in call time (the callee's stream
// position run on by the clock between frames), and a cut item truncated where the line has played to: since its
// last mark, by the callee's audio heard meanwhile, whatever the wall clock says.
import { expect } from 'chai';
import { pino } from 'pino';
import type { TimedTurn } from '../../server/src/conversation/conversation.js';
import { TurnLedger } from '../../server/src/voice-agent/turn-ledger.js';
import { nearestRank, TurnTiming, type CallLatency } from '../../server/src/voice-agent/turn-timing.js';

/** `ms` of mu-law silence, base64 (8 bytes a ms). */
const audio = (ms: number) => Buffer.alloc(ms * 8, 0xff).toString('base64');

function ledger() {
  let t = 0;
  const line: string[] = [];
  const written: Array<[number, TimedTurn]> = [];
  const observed: string[] = [];
  const stored: CallLatency[] = [];
  const timing = new TurnTiming(
    { firstAudio: (ms) => void observed.push(`first ${ms}`), turnResponse: (ms) => void observed.push(`turn ${ms}`), bargeInClear: (ms) => void observed.push(`clear ${ms}`) },
    () => t,
  );
  const l = new TurnLedger(
    { play: (p) => void line.push(`play ${Buffer.from(p, 'base64').length}`), mark: (n) => void line.push(`mark ${n}`), clear: () => void line.push('clear') },
    async (seq, turn) => void written.push([seq, turn]),
    pino({ level: 'silent' }),
    'call-1',
    { timing, writeLatency: async (latency) => void stored.push(latency) },
  );
  return { l, line, written, observed, stored, at: (ms: number) => (t = ms) };
}

describe('the turn timing', () => {
  it('times the first audio, each answer after the end of speech and each barge-in to its clear, in call time', async () => {
    const { l, line, written, observed, stored, at } = ledger();
    at(350);
    l.play('a1', audio(100)); // the greeting's first audio, 350 ms after the answer; marked a1
    l.said('a1', 'agent', 'Hello, this is the assistant.');
    at(450);
    l.marked('a1');
    at(1500);
    l.heard(audio(20), 1480); // the stream is at 1,500 ms
    l.calleeStarted('c1', 1100);
    l.calleeStopped('c1', 1400);
    l.said('c1', 'callee', 'Yes?');
    at(1520); // no frame since: call time has run on 20 ms past the last frame
    l.play('a2', audio(100)); // marked a2
    l.play('a2', audio(100)); // marked a3
    l.said('a2', 'agent', 'I am calling about your parcel, which is due on Monday.');
    at(1620);
    l.heard(audio(100), 1500); // the stream is at 1,600 ms
    l.marked('a2'); // its first 100 ms have played
    at(1900); // a busy process: the wall clock has run far ahead of the line
    l.heard(audio(30), 1600);
    l.calleeStarted('c2', 1560);
    // 30 ms more of the call have passed since the mark: the item is cut at 130 ms, not at the mark's 100, nor at the 380 the wall clock says.
    expect(l.cutIn()).to.deep.equal({ itemId: 'a2', heardMs: 130 });
    at(2000);
    l.heard(audio(20), 1980);
    l.calleeStopped('c2', 1950);
    l.said('c2', 'callee', 'Monday is fine.');
    at(2700);
    l.play('a3', audio(100));
    l.play('a3', audio(20)); // not the item's first audio: not timed again
    await l.close();

    expect(observed).to.deep.equal(['first 350', 'turn 120', 'clear 70', 'turn 750']);
    expect(stored).to.deep.equal([
      {
        firstAudioMs: 350,
        turns: [
          { atMs: 1400, afterMs: 120 },
          { atMs: 1950, afterMs: 750 },
        ],
        p50Ms: 120,
        p95Ms: 750,
        bargeIns: [{ atMs: 1560, clearMs: 70 }],
      },
    ]);
    expect(line).to.deep.equal(['play 800', 'mark a1', 'play 800', 'mark a2', 'play 800', 'mark a3', 'clear', 'play 800', 'mark a4', 'play 160']);
    // The cut turn ends where the callee heard it.
    expect(written.find(([, t]) => t.text.startsWith('I am calling'))![1]).to.deep.equal({
      speaker: 'agent',
      text: 'I am calling about your parcel, which is due on Monday.',
      startMs: 1500,
      endMs: 1630,
    });
  });

  it('cuts an item whose marks have not come back at what has played since its first audio, never past what was sent', () => {
    const { l, at } = ledger();
    at(100);
    l.heard(audio(100), 0);
    l.play('a1', audio(60));
    at(500);
    l.heard(audio(30), 100);
    l.calleeStarted('c1', 90);
    expect(l.cutIn()).to.deep.equal({ itemId: 'a1', heardMs: 30 });
    const next = ledger();
    next.at(100);
    next.l.heard(audio(100), 0);
    next.l.play('a1', audio(60));
    next.at(400);
    next.l.heard(audio(300), 100);
    next.l.calleeStarted('c1', 300);
    expect(next.l.cutIn()).to.deep.equal({ itemId: 'a1', heardMs: 60 });
  });

  it('stores no first audio, no turns and no percentiles for a session in which the agent never spoke', async () => {
    const { l, stored, at } = ledger();
    at(2000);
    l.heard(audio(20), 1980);
    l.calleeStopped('c1', 1900);
    await l.close();
    expect(stored).to.deep.equal([{ firstAudioMs: null, turns: [], p50Ms: null, p95Ms: null, bargeIns: [] }]);
  });

  it('takes the 50th and 95th percentiles by nearest rank', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    expect([nearestRank(twenty, 50), nearestRank(twenty, 95), nearestRank([7], 95), nearestRank([], 50)]).to.deep.equal([100, 190, 7, null]);
  });
});

describe('a cascaded agent’s turn stages', () => {
  it('splits the answer into the endpoint, svc’s own time, the model’s and the voice’s, on the record and to the observer', () => {
    let t = 0;
    const stages: unknown[] = [];
    const timing = new TurnTiming({ firstAudio: () => undefined, turnResponse: () => undefined, bargeInClear: () => undefined, turnStages: (s) => void stages.push(s) }, () => t);
    timing.heard(10_000);
    timing.calleeStopped(9_000);
    // End of speech at 9,000 ms of call time, heard up to 10,000 at wall 0; the first audio goes out at wall 910,
    // call time 10,910: 1,910 ms after the end of speech. The turn was decided at wall 400 (so the endpoint took
    // 1,910 - 510), the model asked at 402, its first sentence handed to the voice at 750, its first audio at 910.
    t = 910;
    timing.stages({ endpointAt: 400, modelAskedAt: 402, firstTokenAt: 700, voiceAskedAt: 750, firstAudioAt: 910 });
    timing.agentStarted();
    const expected = { endpointMs: 1400, ownMs: 2, modelMs: 348, voiceMs: 160 };
    expect(timing.latency().turns).to.deep.equal([{ atMs: 9000, afterMs: 1910, stages: expected }]);
    expect(stages).to.deep.equal([expected]);
  });

  it('leaves a turn no endpoint decided (the greeting) without stages', () => {
    const timing = new TurnTiming(null, () => 0);
    timing.calleeStopped(0);
    timing.stages({ endpointAt: null, modelAskedAt: 1, firstTokenAt: 2, voiceAskedAt: 3, firstAudioAt: 4 });
    timing.agentStarted();
    expect(timing.latency().turns).to.deep.equal([{ atMs: 0, afterMs: 0 }]);
  });
});
