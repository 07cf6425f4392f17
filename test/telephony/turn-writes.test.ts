// One write per socket per event: the first message of an event corks the socket, and it is uncorked once the
// event's work is done, before the next event.
import { expect } from 'chai';
import { turnWrites } from '../../server/src/telephony/turn-writes.js';

const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe('turn writes', () => {
  it("corks the socket at an event's first message and uncorks it once, when the event is done", async () => {
    const calls: string[] = [];
    const batch = turnWrites({ cork: () => void calls.push('cork'), uncork: () => void calls.push('uncork') });
    batch();
    batch();
    batch();
    expect(calls).to.deep.equal(['cork']);
    await nextTick();
    expect(calls).to.deep.equal(['cork', 'uncork']);
    batch();
    await nextTick();
    expect(calls).to.deep.equal(['cork', 'uncork', 'cork', 'uncork']);
  });

  it('leaves a socket nothing was sent on alone', async () => {
    const calls: string[] = [];
    turnWrites({ cork: () => void calls.push('cork'), uncork: () => void calls.push('uncork') });
    await nextTick();
    expect(calls).to.deep.equal([]);
  });
});
