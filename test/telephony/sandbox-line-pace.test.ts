// The sandbox's live line keeps the call's pace while its process can, and slows down when it cannot: a process
// starved for longer than 200 ms of call time gets at most that much of the callee in one turn of its event loop,
// never the whole backlog at once, so the agent on the line has its turn to answer between.
import { expect } from 'chai';
import { pino } from 'pino';
import type { LineCallee } from '../../server/src/telephony/sandbox/line-callee.js';
import { SandboxLine } from '../../server/src/telephony/sandbox/sandbox-line.js';
import type { LineEnd, LineSession } from '../../server/src/telephony/live-line.js';

const logger = pino({ level: 'silent' });
const silentCallee = { frame: () => Buffer.alloc(160, 0xff), hangsUp: () => false } as unknown as LineCallee;

/** Blocks the event loop for `ms`, as a busy process does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("the sandbox's live line under a starved process", () => {
  it('sends at most 200 ms of call time in one turn of the event loop, and goes on at its pace after', async () => {
    // 20 ms of call time every 4 ms of wall time (the live sandbox's fastest scale).
    const line = new SandboxLine(silentCallee, { timeScale: 0.2, logger });
    // The call time of each frame heard, and in which turn of the event loop it came.
    const turns: number[][] = [];
    let turn: number[] | null = null;
    const session: LineSession = {
      done: new Promise<LineEnd>(() => undefined),
      heard: (_payload, at) => {
        if (!turn) {
          turn = [];
          turns.push(turn);
          setImmediate(() => (turn = null));
        }
        turn.push(at!);
        // The process is starved once, at 1 s into the call: a whole second of wall time (5 s of call time).
        if (at === 1000) busy(1000);
      },
      marked: () => undefined,
      dtmf: () => undefined,
      ended: async () => 'line_ended',
    };
    const started = performance.now();
    line.start(session);
    await new Promise((r) => setTimeout(r, 1600));
    line.takeDown();
    const wallMs = performance.now() - started;
    const heard = turns.flat();
    // Every frame once, in order, none skipped.
    expect(heard).to.deep.equal(heard.map((_, i) => i * 20));
    expect(Math.max(...turns.map((t) => t.length))).to.be.at.most(10);
    // The second of starvation was not made up: the call time is the wall time less that second (at five times
    // real time), and 200 ms more, not the whole wall time's (8 s and more).
    expect(heard.at(-1)!).to.be.within(1000, (wallMs - 1000) / 0.2 + 200 + 20);
  });
});
