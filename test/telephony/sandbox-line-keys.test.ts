// The press_keys tool on the sandbox's live line: the keys go out as tones in the agent's leg at the call's pace, each
// 100 ms with 100 ms after it and w a 0.5 s pause, as a receiver hears them in the call's recording; the tool answers
// once the line has played them (their mark), and the press is a turn of the agent's.
import { expect } from 'chai';
import { pino } from 'pino';
import type { TimedTurn } from '../../server/src/conversation/conversation.js';
import type { LineCallee } from '../../server/src/telephony/sandbox/line-callee.js';
import { SandboxLine } from '../../server/src/telephony/sandbox/sandbox-line.js';
import type { LineEnd, LineSession } from '../../server/src/telephony/live-line.js';
import { KeyPad } from '../../server/src/voice-agent/keypad.js';
import { CALL_TOOLS } from '../../server/src/voice-agent/tools.js';
import { TurnLedger } from '../../server/src/voice-agent/turn-ledger.js';
import { decodeDtmf } from '../../server/src/telephony/dtmf-decoder.js';

const logger = pino({ level: 'silent' });

/** A callee who says nothing and never hangs up. */
const silentCallee = { frame: () => Buffer.alloc(160, 0xff), hangsUp: () => false } as unknown as LineCallee;

describe("press_keys on the sandbox's live line", () => {
  it('plays the keys as tones in the agent leg, answering once they have played, the press a turn of the agent', async () => {
    // 20 ms of call time a millisecond.
    const line = new SandboxLine(silentCallee, { timeScale: 0.05, logger });
    const turns: TimedTurn[] = [];
    const ledger = new TurnLedger(line, async (_seq, turn) => void turns.push(turn), logger, 'call-sandbox-keys');
    const keypad = new KeyPad(line, ledger, logger, 'call-sandbox-keys');
    const session: LineSession = {
      done: new Promise<LineEnd>(() => undefined),
      heard: (payload, at) => ledger.heard(payload, at),
      marked: (name) => void keypad.marked(name),
      dtmf: () => undefined,
      ended: async () => 'line_ended',
    };
    const ctx = { callId: 'call-sandbox-keys', line, logger, endCall: () => undefined, recordOptOut: async () => undefined, pressKeys: (d: string) => keypad.press(d) };
    const answer = CALL_TOOLS.find('press_keys')!.run({ digits: '4w5' }, ctx);
    line.start(session);
    expect(await answer).to.deep.equal({ sent: '4w5' });
    // Answered once the 900 ms of keys had gone out, not before.
    expect(ledger.nowMs).to.be.at.least(900);
    line.takeDown();
    await ledger.close();
    const { twoChannels } = line.legs();
    const agentLeg = Int16Array.from({ length: twoChannels.length / 2 }, (_, i) => twoChannels[2 * i]!);
    expect(decodeDtmf(agentLeg)).to.deep.equal([
      { key: '4', startMs: 0, endMs: 100 },
      { key: '5', startMs: 700, endMs: 800 },
    ]);
    expect(turns).to.deep.equal([{ speaker: 'agent', text: '[pressed 4 5]', startMs: 0, endMs: 900 }]);
  });
});
