// A call's turn rows settled to its record as it ends: a live line numbers its turns as they begin, and a turn
// that began but was never said (noise the recogniser made no words of, a reply cut before a word was heard)
// leaves a gap in the numbers. Settling must leave exactly the record's turns, each once, on either store.
import { expect } from 'chai';
import type { TimedTurn } from '../../server/src/conversation/conversation.js';
import { appendTurn, settleTurns } from '../../server/src/voice-agent/recorded-turns.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';

const turns: TimedTurn[] = [
  { speaker: 'callee', text: 'Hello?', startMs: 400, endMs: 900 },
  { speaker: 'agent', text: 'Hi, this is an AI assistant.', startMs: 1500, endMs: 3000 },
  { speaker: 'callee', text: 'Yes, we are open.', startMs: 3600, endMs: 4800 },
  { speaker: 'agent', text: 'Thank you, goodbye.', startMs: 5400, endMs: 6600 },
];

forEachStore('settling a live call’s turns', (kind) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await freshStore(kind);
  });
  afterEach(() => t.drop());

  const rows = () => t.store.db.selectFrom('call_turns').select(['seq', 'speaker', 'text']).where('call_id', '=', 'c1').orderBy('seq').execute();

  it('leaves each turn once when the line’s numbers have gaps', async () => {
    // Seqs 1 and 4 began but were never said.
    await appendTurn(t.store.db, 'c1', 0, turns[0]!, 1000);
    await appendTurn(t.store.db, 'c1', 2, turns[1]!, 1000);
    await appendTurn(t.store.db, 'c1', 3, turns[2]!, 1000);
    await appendTurn(t.store.db, 'c1', 5, turns[3]!, 1000);
    await t.store.write(({ ex }) => settleTurns(ex, 'c1', turns, 10_000, 2000));
    expect((await rows()).map((r) => [Number(r.seq), r.speaker, r.text])).to.deep.equal(turns.map((x, i) => [i, x.speaker, x.text]));
  });

  it('keeps rows already in place as they are', async () => {
    for (const [i, turn] of turns.entries()) await appendTurn(t.store.db, 'c1', i, turn, 1000 + i);
    await t.store.write(({ ex }) => settleTurns(ex, 'c1', turns, 10_000, 5000));
    const heard = await t.store.db.selectFrom('call_turns').select(['seq', 'heard_at']).where('call_id', '=', 'c1').orderBy('seq').execute();
    expect(heard.map((r) => Number(r.heard_at))).to.deep.equal([1000, 1001, 1002, 1003]);
  });
});
