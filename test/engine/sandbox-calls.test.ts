// Every sandbox magic number, placed over HTTP and driven by the clock to its terminal status, with the
// default agent, analyst and recorder: the fields each outcome sets and leaves unset, its events, its dials.
import { expect } from 'chai';
import { createWebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { WaveFile } from 'wavefile';
import { SANDBOX_DROP_AFTER_MS } from '../../server/src/telephony/sandbox/sandbox-carrier.js';
import { forEachStore } from '../support/stores.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';

const fields = [
  { name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' },
  { name: 'closing_time', description: 'the closing time on Sunday' },
  { name: 'staff_count', type: 'number', description: 'how many people work there' },
];

forEachStore('sandbox calls through the engine', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  async function place(to: string, extra: Record<string, unknown> = {}) {
    const res = await alice.api.post('/v1/agent/calls', {
      body: { to, objective: 'Ask whether the shop is open on Sunday and until what time.', fields, webhookUrl: 'http://127.0.0.1:9/hooks', ...extra },
    });
    expect(res.status).to.equal(202);
    return res.body.callId as string;
  }
  const events = async (callId: string) =>
    (await srv.deps.store.db.selectFrom('webhook_events').select(['event', 'body']).where('call_id', '=', callId).orderBy('created_at').execute()).map((e) => ({
      event: e.event,
      payload: JSON.parse(e.body),
    }));

  it('completes an ordinary number: answered, transcript, summary, every field extracted, a recording, two events', async () => {
    const id = await place('+14155550123');
    const placedAt = srv.clock.now();
    const row = await srv.drive(id);
    const res = await alice.api.get(`/v1/agent/calls/${id}`);
    const call = res.body;
    expect(call.status).to.equal('completed');
    expect(call.error).to.equal(null);
    expect(Date.parse(call.startedAt)).to.equal(placedAt + 4000); // four seconds of ringing
    expect(Date.parse(call.endedAt)).to.equal(Date.parse(call.startedAt) + call.durationSec * 1000);
    expect(call.durationSec).to.be.above(10);
    expect(row.billed_minutes).to.equal(Math.ceil(call.durationSec / 60));
    const lines = call.transcript.split('\n');
    expect(lines[0]).to.match(/^Callee: /); // whoever answers speaks first
    expect(lines[1]).to.match(/^Agent: .*open on Sunday and until what time/);
    for (const line of lines) expect(line).to.match(/^(Agent|Callee): \S/);
    expect(call.summary).to.be.a('string').and.include('open on Sunday');
    expect(Object.keys(call.extracted).sort()).to.deep.equal(['closing_time', 'open_sunday', 'staff_count']);
    expect(call.recordingUrl).to.equal(`${srv.baseUrl}/v1/agent/calls/${id}/recording`);
    expect(call.language).to.equal('en-US');
    const recording = await alice.api.get(`/v1/agent/calls/${id}/recording`);
    expect(recording.status).to.equal(200);
    expect(recording.headers.get('content-type')).to.equal('audio/wav');
    const wav = new WaveFile(recording.body as Buffer);
    const fmt = wav.fmt as { sampleRate: number; numChannels: number };
    const frames = (wav.data as { chunkSize: number }).chunkSize / 2;
    expect(fmt.numChannels).to.equal(1);
    expect(Math.abs(frames / fmt.sampleRate - call.durationSec)).to.be.below(0.01); // the recording lasts the call
    const range = await alice.api.get(`/v1/agent/calls/${id}/recording`, { headers: { range: 'bytes=0-11' } });
    expect(range.status).to.equal(206);
    expect((range.body as Buffer).toString('latin1')).to.equal((recording.body as Buffer).subarray(0, 12).toString('latin1'));
    expect(await srv.dials(id)).to.equal(1);
    const sent = await events(id);
    expect(sent.map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
    expect(sent[0].payload).to.include({ status: 'in_progress', startedAt: call.startedAt, endedAt: null, durationSec: null, summary: null, extracted: null, error: null });
    expect(sent[1].payload).to.include({ status: 'completed', startedAt: call.startedAt, endedAt: call.endedAt, durationSec: call.durationSec, summary: call.summary, error: null });
    expect(sent[1].payload.extracted).to.deep.equal(call.extracted);
  });

  const unanswered: [string, string, string, number, string | null][] = [
    ['+14155550111', 'no_answer', 'call.no_answer', 30_000, null],
    ['+14155550112', 'voicemail', 'call.voicemail', 15_000, null],
    ['+14155550113', 'declined', 'call.declined', 6000, null],
    ['+14155550114', 'failed', 'call.failed', 1000, 'carrier_unreachable'],
    ['+14155550117', 'failed', 'call.failed', 120_000, 'carrier_timeout'],
  ];
  for (const [to, status, event, afterMs, error] of unanswered) {
    it(`ends ${to} as ${status}${error ? ` (${error})` : ''} after ${afterMs / 1000} s, never answered: no startedAt, transcript, summary, extracted or recording`, async () => {
      const id = await place(to);
      const placedAt = srv.clock.now();
      await srv.drive(id);
      const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
      expect(call).to.include({ status, startedAt: null, durationSec: 0, transcript: null, summary: null, extracted: null, recordingUrl: null, error });
      expect(Date.parse(call.endedAt)).to.equal(placedAt + afterMs);
      expect(await srv.dials(id)).to.equal(1);
      const sent = await events(id);
      expect(sent.map((e) => e.event)).to.deep.equal([event]);
      expect(sent[0].payload).to.include({ status, startedAt: null, endedAt: call.endedAt, durationSec: 0, summary: null, extracted: null, error });
      const recording = await alice.api.get(`/v1/agent/calls/${id}/recording`);
      expect(recording.status).to.equal(404);
      expect(recording.body.error).to.equal('not_found');
    });
  }

  it('cuts the long call at the maximum call duration and completes it with what was said', async () => {
    const id = await place('+14155550115');
    const row = await srv.drive(id, 200);
    const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(call.status).to.equal('completed');
    expect(call.durationSec).to.equal(600);
    expect(row.billed_minutes).to.equal(10);
    expect(call.summary).to.match(/maximum call duration/i);
    expect(call.transcript.split('\n').length).to.be.above(20);
    expect(call.recordingUrl).to.not.equal(null);
  });

  it('ends the call that drops as failed with call_dropped, keeping the transcript and recording of what was said', async () => {
    const id = await place('+14155550116');
    await srv.drive(id);
    const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(call).to.include({ status: 'failed', error: 'call_dropped', durationSec: SANDBOX_DROP_AFTER_MS / 1000, summary: null, extracted: null });
    expect(call.startedAt).to.not.equal(null);
    expect(call.transcript).to.match(/^Callee: .*\nAgent: /);
    expect(call.recordingUrl).to.not.equal(null);
    expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.failed']);
  });

  it('hangs up when the minute allowance runs out and completes the call with what was said', async () => {
    const bob = await srv.tenant({ planMinutes: 3 });
    const res = await bob.api.post('/v1/agent/calls', { body: { to: '+14155550115', objective: 'Talk for as long as the recipient wants.' } });
    const row = await srv.drive(res.body.callId, 200);
    expect(row.status).to.equal('completed');
    expect(row.duration_sec).to.equal(180);
    expect(row.billed_minutes).to.equal(3);
    expect(row.summary).to.match(/minute/i);
    const next = await bob.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
    expect(next.status).to.equal(429);
    expect(next.body.error).to.equal('over_minute_cap');
  });

  it('sends no events for a call without a webhookUrl: they are logged in state none, which the dispatcher never claims', async () => {
    const id = await place('+14155550123', { webhookUrl: undefined });
    await srv.drive(id);
    const rows = await srv.deps.store.db.selectFrom('webhook_events').select(['event', 'state', 'url', 'attempts']).where('call_id', '=', id).orderBy('created_at').execute();
    expect(rows).to.deep.equal([
      { event: 'call.in_progress', state: 'none', url: '', attempts: 0 },
      { event: 'call.completed', state: 'none', url: '', attempts: 0 },
    ]);
    const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
    expect(await dispatcher.tick()).to.equal(0);
    await dispatcher.stop();
  });

  it('lists the finished calls with their outcomes', async () => {
    const a = await place('+14155550123');
    srv.clock.advance(1);
    const b = await place('+14155550113');
    await srv.drive(a);
    await srv.drive(b);
    const list = (await alice.api.get('/v1/agent/calls')).body.calls;
    expect(list.map((c: { id: string; status: string }) => [c.id, c.status])).to.deep.equal([
      [b, 'declined'],
      [a, 'completed'],
    ]);
  });
});
