// Twilio's status callbacks out of order. Twilio fires them in order, numbered by SequenceNumber, but sends each
// as its own request, so a `completed` can arrive before the `in-progress` fired ahead of it. The carrier reads the
// status callbacks it has in SequenceNumber order, and a `completed` that comes before any pick-up still completes
// the call: Twilio's completed means answered, and its CallDuration dates the pick-up. The callbacks are posted
// through the fake with the SequenceNumber each would have carried.
import { expect } from 'chai';
import { readTwilioEvents } from '../../../server/src/telephony/twilio/line-events.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';
import { startTwilioEngine, type TwilioEngine } from './twilio-engine.js';

forEachStore('Twilio status callbacks out of order', (kind) => {
  let fake: FakeTwilio;
  let h: TwilioEngine;
  let srv: EngineServer;

  beforeEach(async () => {
    fake = await FakeTwilio.start();
    h = await startTwilioEngine(kind, fake);
    srv = h.srv;
  });
  afterEach(async () => {
    await h?.close();
    await fake.close();
  });

  const placeAndDial = () => h.placeAndDial();

  /** A status callback as Twilio numbers it for the call: initiated 0, ringing 1, in-progress 2, completed 3. */
  const status = async (sid: string, callStatus: string, sequence: number, extra: Record<string, string> = {}) => {
    expect((await fake.status(sid, callStatus, { SequenceNumber: String(sequence), ...extra })).status, callStatus).to.equal(204);
  };

  it('completes a call whose completed arrives, and is read, before its in-progress', async () => {
    const { id, sid } = await placeAndDial();
    await status(sid, 'initiated', 0);
    await status(sid, 'ringing', 1);
    srv.clock.advance(50_000);
    const endedAt = srv.clock.now();
    await status(sid, 'completed', 3, { CallDuration: '42' });
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', answered_by: 'unknown', started_at: endedAt - 42_000, ended_at: endedAt, duration_sec: 42, billed_minutes: 1, error: null });
    // The in-progress fired before it arrives last, and changes nothing.
    srv.clock.advance(1000);
    await status(sid, 'in-progress', 2);
    await srv.engine.tick();
    expect(await srv.row(id)).to.include({ status: 'completed', started_at: endedAt - 42_000, duration_sec: 42 });
    expect(fake.call(sid).updates, 'the line ended by itself: no hang-up').to.deep.equal([]);
  });

  it('reads an in-progress that arrived after its completed in SequenceNumber order, dating the pick-up by CallDuration', async () => {
    const { id, sid } = await placeAndDial();
    srv.clock.advance(30_000);
    const endedAt = srv.clock.now();
    await status(sid, 'completed', 3, { CallDuration: '25' });
    srv.clock.advance(200);
    await status(sid, 'in-progress', 2);
    srv.clock.advance(100);
    expect((await fake.amd(sid, 'human')).status).to.equal(204);
    const events = await readTwilioEvents(srv.deps.store.db, sid, 0);
    expect(events.map((e) => [e.source, e.event.kind])).to.deep.equal([
      ['status', 'answered'],
      ['status', 'hung_up'],
      ['amd', 'answered'],
    ]);
    expect(events[1]!.callDurationSec).to.equal(25);
    const row = await srv.drive(id);
    // The in-progress arrived after the end, so its arrival is not its time: the completed's CallDuration is.
    expect(row).to.include({ status: 'completed', answered_by: 'human', started_at: endedAt - 25_000, ended_at: endedAt, duration_sec: 25, error: null });
  });

  it('keeps the time of an in-progress that arrived in order', async () => {
    const { id, sid } = await placeAndDial();
    srv.clock.advance(4000);
    const pickedUpAt = srv.clock.now();
    await status(sid, 'in-progress', 2);
    srv.clock.advance(40_000);
    // Twilio's CallDuration is whole seconds and need not agree to the millisecond with our clock.
    await status(sid, 'completed', 3, { CallDuration: '41' });
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', started_at: pickedUpAt, ended_at: pickedUpAt + 40_000, duration_sec: 40 });
  });

  it('completes a call whose completed says CallDuration 0 and comes with no in-progress, connected for 0 s', async () => {
    const { id, sid } = await placeAndDial();
    srv.clock.advance(20_000);
    const endedAt = srv.clock.now();
    await status(sid, 'completed', 3, { CallDuration: '0' });
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', answered_by: 'unknown', started_at: endedAt, ended_at: endedAt, duration_sec: 0, billed_minutes: 0, error: null });
  });

  it('still ends a call never answered by its own status, whatever came before it', async () => {
    const { id, sid } = await placeAndDial();
    await status(sid, 'ringing', 1);
    srv.clock.advance(25_000);
    await status(sid, 'no-answer', 2);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'no_answer', started_at: null, duration_sec: 0, answered_by: null });
  });
});
