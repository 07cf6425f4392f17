// Key presses on a live line, unit by unit: the agent's press goes to the line as keys and a mark, and is answered
// by that mark (played, and a turn of the agent's), by a clear before it (cut off) or by the line ending; the
// callee's keys are grouped while they come less than 1.5 s of call time apart.
import { expect } from 'chai';
import { pino } from 'pino';
import type { Speaker } from '../../server/src/conversation/conversation.js';
import { CalleeKeys, calleePressedNote, GROUP_MS, KeyPad, type PressOutcome, pressedTurnText } from '../../server/src/voice-agent/keypad.js';

function rig() {
  const sent: string[] = [];
  const notes: Array<{ itemId: string; speaker: Speaker; startMs: number; endMs: number; text: string }> = [];
  const ledger = {
    nowMs: 0,
    note: (itemId: string, speaker: Speaker, startMs: number, endMs: number, text: string) => void notes.push({ itemId, speaker, startMs, endMs, text }),
  };
  const line = { sendDigits: (d: string) => void sent.push(`digits ${d}`), mark: (name: string) => void sent.push(`mark ${name}`) };
  const pad = new KeyPad(line, ledger, pino({ level: 'silent' }), 'call-1');
  return { sent, notes, ledger, pad };
}

/** Whether the promise has settled, and how, after the microtasks queued so far. */
async function state(p: Promise<PressOutcome>): Promise<PressOutcome | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);
}

describe('the keypad', () => {
  it("sends the keys then a mark of its own, and answers once that mark is back, with the press as the agent's turn", async () => {
    const { sent, notes, ledger, pad } = rig();
    ledger.nowMs = 1000;
    const press = pad.press('1w2');
    expect(sent).to.deep.equal(['digits 1w2', 'mark svc_keys_1']);
    expect(await state(press)).to.equal('pending');
    expect(pad.marked('a7')).to.equal(false);
    expect(await state(press)).to.equal('pending');
    // The keys take 900 ms; the line says they played 1,400 ms of call time later (what played before them first).
    ledger.nowMs = 2400;
    expect(pad.marked('svc_keys_1')).to.equal(true);
    expect(await press).to.equal('played');
    expect(notes).to.deep.equal([{ itemId: 'svc_keys_1', speaker: 'agent', startMs: 1500, endMs: 2400, text: '[pressed 1 2]' }]);
  });

  it('starts the turn no earlier than the press when its mark comes back sooner than the keys last (call time lags)', async () => {
    const { notes, ledger, pad } = rig();
    ledger.nowMs = 300;
    const press = pad.press('#');
    ledger.nowMs = 340;
    pad.marked('svc_keys_1');
    expect(await press).to.equal('played');
    expect(notes).to.deep.equal([{ itemId: 'svc_keys_1', speaker: 'agent', startMs: 300, endMs: 340, text: '[pressed #]' }]);
  });

  it('settles the presses before a mark with it, as marks come back in order', async () => {
    const { pad } = rig();
    const first = pad.press('1');
    const second = pad.press('2');
    pad.marked('svc_keys_2');
    expect([await first, await second]).to.deep.equal(['played', 'played']);
  });

  it('answers a press pending when the line is cleared as cut off, writing no turn, and a later press as played', async () => {
    const { notes, pad } = rig();
    const cut = pad.press('5');
    pad.cleared();
    pad.marked('svc_keys_1');
    expect(await cut).to.equal('cut_off');
    const next = pad.press('6');
    pad.marked('svc_keys_2');
    expect(await next).to.equal('played');
    expect(notes.map((n) => n.text)).to.deep.equal(['[pressed 6]']);
  });

  it('answers pending presses, and any press after, as the line ending once it is closed, sending nothing more', async () => {
    const { sent, notes, pad } = rig();
    const pending = pad.press('7');
    pad.close();
    expect(await pending).to.equal('line_ended');
    expect(await pad.press('8')).to.equal('line_ended');
    expect(sent).to.deep.equal(['digits 7', 'mark svc_keys_1']);
    expect(notes).to.deep.equal([]);
  });

  it('writes no turn for a press of pauses alone', async () => {
    const { notes, pad } = rig();
    const press = pad.press('ww');
    pad.marked('svc_keys_1');
    expect(await press).to.equal('played');
    expect(notes).to.deep.equal([]);
  });
});

describe("the callee's keys", () => {
  it('are one group while each comes less than 1.5 s of call time after the one before, due 1.5 s after the last', () => {
    const keys = new CalleeKeys();
    expect(GROUP_MS).to.equal(1500);
    expect(keys.due(0)).to.equal(null);
    keys.press('1', 500);
    keys.press('2', 900);
    expect(keys.due(2399)).to.equal(null);
    keys.press('3', 2399);
    expect(keys.due(3898)).to.equal(null);
    expect(keys.due(3899)).to.deep.equal({ keys: ['1', '2', '3'], startMs: 500, endMs: 2399 });
    expect(keys.due(10_000)).to.equal(null);
    keys.press('#', 10_000);
    expect(keys.flush()).to.deep.equal({ keys: ['#'], startMs: 10_000, endMs: 10_000 });
    expect(keys.flush()).to.equal(null);
  });

  it('read as a turn `[pressed 1 2 3]` and as the note to the model `[The callee pressed 1 2 3]`', () => {
    expect(pressedTurnText(['1', '2', '3'])).to.equal('[pressed 1 2 3]');
    expect(calleePressedNote(['*', '9'])).to.equal('[The callee pressed * 9]');
  });
});
