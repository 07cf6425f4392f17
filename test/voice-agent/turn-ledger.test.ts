// The turn ledger: turns timed on the callee's stream from the answer, numbered in the order they began, the
// agent's written once the line has played it, and cut where the callee talked over it.
import { expect } from 'chai';
import { pino } from 'pino';
import type { TimedTurn } from '../../server/src/conversation/conversation.js';
import { TurnLedger } from '../../server/src/voice-agent/turn-ledger.js';
import { TurnTiming } from '../../server/src/voice-agent/turn-timing.js';

/** `ms` of mu-law silence, base64 (8 bytes a ms). */
const audio = (ms: number) => Buffer.alloc(ms * 8, 0xff).toString('base64');

function ledger(orderWaitMs?: number) {
  const line: string[] = [];
  const written: Array<[number, TimedTurn]> = [];
  /** What was written, turns and uses of tools, in the order written, with the time each is heard at. */
  const heard: Array<{ what: string; at: number }> = [];
  const l = new TurnLedger(
    { play: (p) => void line.push(`play ${Buffer.from(p, 'base64').length}`), mark: (n) => void line.push(`mark ${n}`), clear: () => void line.push('clear') },
    async (seq, turn, at) => {
      written.push([seq, turn]);
      heard.push({ what: `turn ${seq}`, at });
    },
    pino({ level: 'silent' }),
    'call-1',
    // A clock that stands still: what has played is what the marks say.
    { timing: new TurnTiming(null, () => 0), orderWaitMs },
  );
  const use = (name: string) => l.inOrder().then((at) => void heard.push({ what: name, at }));
  return { l, line, written, heard, use };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the turn ledger', () => {
  it('times turns on the callee stream and writes the agent turn once the line has played it', async () => {
    const { l, line, written } = ledger();
    l.heard(audio(20), 0);
    l.play('agent-1', audio(60));
    l.play('agent-1', audio(60)); // 120 ms since the last mark: marked
    l.play('agent-1', audio(40));
    l.markSent(); // the item's audio ended
    l.said('agent-1', 'agent', ' Hello, this is the assistant. ');
    expect(written).to.deep.equal([]);
    l.marked('a1');
    expect(written).to.deep.equal([]); // 40 ms still unplayed
    l.marked('a2');
    l.heard(audio(1000), 2000);
    l.calleeStarted('callee-1', 1500);
    l.calleeStopped('callee-1', 2900);
    l.said('callee-1', 'callee', 'Yes?');
    await l.close();
    expect(line).to.deep.equal(['play 480', 'play 480', 'mark a1', 'play 320', 'mark a2']);
    expect(written).to.deep.equal([
      [0, { speaker: 'agent', text: 'Hello, this is the assistant.', startMs: 20, endMs: 180 }],
      [1, { speaker: 'callee', text: 'Yes?', startMs: 1500, endMs: 2900 }],
    ]);
  });

  it('cuts the agent turn where the callee talked over it, clears the line and drops the rest of the item', async () => {
    const { l, line, written } = ledger();
    l.play('agent-1', audio(100)); // marked a1
    l.play('agent-1', audio(100)); // marked a2
    l.said('agent-1', 'agent', 'Good morning, I am calling about your parcel.');
    l.marked('a1');
    l.calleeStarted('callee-1', 150);
    expect(l.cutIn()).to.deep.equal({ itemId: 'agent-1', heardMs: 100 });
    l.play('agent-1', audio(100)); // still in flight from the model: not played
    l.marked('a2'); // the cleared mark comes back: nothing more was heard
    expect(l.cutIn()).to.equal(null); // nothing is playing any more
    await l.close();
    expect(line).to.deep.equal(['play 800', 'mark a1', 'play 800', 'mark a2', 'clear']);
    expect(written).to.deep.equal([[0, { speaker: 'agent', text: 'Good morning, I am calling about your parcel.', startMs: 0, endMs: 100 }]]);
  });

  it('writes, as the session closes, an agent turn whose audio had not all played, and no turn without words', async () => {
    const { l, written } = ledger();
    l.play('agent-1', audio(40));
    l.said('agent-1', 'agent', 'Goodbye.');
    l.calleeStarted('callee-1', null);
    await l.close();
    expect(written).to.deep.equal([[0, { speaker: 'agent', text: 'Goodbye.', startMs: 0, endMs: 40 }]]);
  });

  it('writes a turn of keys in its place among the turns, no mark awaited, with the times given, and times no answer by it', async () => {
    const { l, line, written } = ledger();
    l.heard(audio(500), 0);
    l.note('callee-keys-1', 'callee', 120, 480.4, '[pressed 1 2]');
    l.note('svc_keys_1', 'agent', 600, 550, '[pressed 9]');
    await l.close();
    expect(written).to.deep.equal([
      [0, { speaker: 'callee', text: '[pressed 1 2]', startMs: 120, endMs: 480 }],
      [1, { speaker: 'agent', text: '[pressed 9]', startMs: 600, endMs: 600 }],
    ]);
    expect(line).to.deep.equal([]);
    expect(l.timing.latency()).to.deep.equal(new TurnTiming(null, () => 0).latency());
  });

  it("writes what the agent does after the callee spoke once the callee's words are in, each at a later time than the one before", async () => {
    const { l, written, heard, use } = ledger();
    l.heard(audio(100), 0);
    l.calleeStarted('callee-1', 0);
    l.calleeStopped('callee-1', 90);
    // The model acts on the words before its transcriber delivers them: a tool is used, the answer played.
    const used = use('tool 0');
    l.play('agent-2', audio(40));
    l.markSent();
    l.said('agent-2', 'agent', 'Three in stock.');
    l.marked('a1');
    await settle();
    expect(heard).to.deep.equal([]);
    l.said('callee-1', 'callee', 'Do you have the kettle?');
    await used;
    await l.close();
    expect(heard.map((h) => h.what)).to.deep.equal(['turn 0', 'tool 0', 'turn 1']);
    expect(heard[1]!.at).to.be.greaterThan(heard[0]!.at);
    expect(heard[2]!.at).to.be.greaterThan(heard[1]!.at);
    expect(written.map(([seq, t]) => [seq, t.text])).to.deep.equal([
      [0, 'Do you have the kettle?'],
      [1, 'Three in stock.'],
    ]);
  });

  it('waits no longer than its bound for words that never come, and none for a turn found to have none', async () => {
    const { l, heard, use } = ledger(30);
    l.calleeStarted('callee-1', 0); // noise: no words ever come
    const used = use('tool 0');
    await settle();
    expect(heard).to.deep.equal([]);
    await used;
    expect(heard.map((h) => h.what)).to.deep.equal(['tool 0']);
    // A failed transcription says there are none: what comes after it is written at once.
    l.calleeStarted('callee-2', 100);
    l.said('callee-2', 'callee', null);
    await use('tool 1');
    expect(heard.map((h) => h.what)).to.deep.equal(['tool 0', 'tool 1']);
    await l.close();
  });

  it('holds nothing behind an agent turn cut before any of its words were heard', async () => {
    const { l, heard } = ledger();
    l.play('agent-1', audio(200));
    l.calleeStarted('callee-1', 0);
    expect(l.cutIn(() => null)).to.deep.equal({ itemId: 'agent-1', heardMs: 0 });
    l.calleeStopped('callee-1', 50);
    l.said('callee-1', 'callee', 'Hello?');
    await settle();
    expect(heard.map((h) => h.what)).to.deep.equal(['turn 1']);
    await l.close();
  });

  it('writes what waits at once when it closes', async () => {
    const { l, heard, use } = ledger();
    l.calleeStarted('callee-1', 0);
    const used = use('tool 0');
    await settle();
    expect(heard).to.deep.equal([]);
    await l.close();
    await used;
    expect(heard.map((h) => h.what)).to.deep.equal(['tool 0']);
    // After it closes, nothing waits.
    await use('tool 1');
    expect(heard.map((h) => h.what)).to.deep.equal(['tool 0', 'tool 1']);
  });
});
