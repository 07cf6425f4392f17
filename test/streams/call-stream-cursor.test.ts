// A call's stream over two reads of the hub that disagree on the order of kinds: the first read saw a turn but not
// the status before it (the status log is read first, and the change committed between the queries), the next
// sees both. The turn is not sent again, the status comes once, after it, and every event's id counts what was
// sent before it, so a resume from any of them sends nothing twice.
import { expect } from 'chai';
import { pino } from 'pino';
import { CallStream, type LiveStreamDeps, type StreamSink } from '../../server/src/streams/live-streams.js';
import type { StreamHub } from '../../server/src/streams/stream-hub.js';
import type { CallCursor, CallRead, StreamItem } from '../../server/src/streams/stream-reads.js';
import { until } from '../support/until.js';

const CALL = 'call-1';

const status = (name: string): StreamItem => ({ event: 'status', apiKeyId: 'key', at: 0, callId: CALL, data: { id: `${CALL}:status:${name}`, status: name } as never });
const turn = (index: number): StreamItem => ({ event: 'turn', apiKeyId: 'key', at: 0, callId: CALL, data: { id: `${CALL}:turn:${index}`, index } as never });
const tool = (index: number): StreamItem => ({ event: 'tool_call', apiKeyId: 'key', at: 0, callId: CALL, data: { id: `${CALL}:tool_call:${index}`, index } as never });
const at = (statuses: number, turns: number, tools = 0): CallCursor => ({ statuses, turns, tools });

/** A client's connection that takes everything, keeping each event's id and data id. */
function sink() {
  const events: string[] = [];
  let open = true;
  const s: StreamSink = {
    get isOpen() {
      return open;
    },
    buffered: 0,
    write(frames) {
      for (const frame of frames.split('\n\n').filter(Boolean)) {
        const id = /^id: (.*)$/m.exec(frame)![1];
        events.push(`${id} ${JSON.parse(/^data: (.*)$/m.exec(frame)![1]).id.slice(CALL.length + 1)}`);
      }
      return true;
    },
    note() {},
    drained: async () => true,
    end() {
      open = false;
    },
  };
  return { s, events, ended: () => !open };
}

describe("a call's stream when the hub's reads order its kinds differently", () => {
  it('sends each status, turn and use of a tool once, each id counting what was sent before it', async () => {
    let read: CallRead = {
      items: [
        { item: status('queued'), cursor: at(1, 0) },
        { item: status('dialing'), cursor: at(2, 0) },
        { item: turn(0), cursor: at(2, 1) },
        { item: tool(0), cursor: at(2, 1, 1) },
      ],
      ended: false,
    };
    const hub = { callRead: () => read } as unknown as StreamHub;
    const deps = { hub, logger: pino({ level: 'silent' }) } as unknown as LiveStreamDeps;
    const client = sink();
    const stream = new CallStream(deps, client.s, 'key', null, CALL, at(0, 0));
    stream.wake();
    await until('the first read sent', () => client.events.length === 4);

    read = {
      items: [
        { item: status('queued'), cursor: at(1, 0) },
        { item: status('dialing'), cursor: at(2, 0) },
        { item: status('in_progress'), cursor: at(3, 0) },
        { item: turn(0), cursor: at(3, 1) },
        { item: tool(0), cursor: at(3, 1, 1) },
        { item: turn(1), cursor: at(3, 2, 1) },
        { item: status('completed'), cursor: at(4, 2, 1) },
      ],
      ended: true,
    };
    stream.wake();
    await until('the stream ended', client.ended);
    expect(client.events).to.deep.equal(['1.0 status:queued', '2.0 status:dialing', '2.1 turn:0', '2.1.1 tool_call:0', '3.1.1 status:in_progress', '3.2.1 turn:1', '4.2.1 status:completed']);
    // The frames the hub keeps for every stream of the call are those of its own order, not this stream's.
    expect(read.items[2].frame).to.equal(undefined);
    expect(read.items[5].frame).to.match(/^id: 3\.2\.1\n/);
  });
});
