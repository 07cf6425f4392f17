// Twilio records each party on its own channel (RecordingChannels=dual). The recording job fetches the v1
// recording downmixed to one channel (RequestedChannels=1), as recordingUrl serves it, and the
// two-channel rendition (RequestedChannels=2) beside it, served at ?channels=2.
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeWav } from '../../../server/src/recording/encode-wav.js';
import type { JobRunner } from '../../../server/src/jobs/job-runner.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import type { TestTenant } from '../../support/server.js';
import { forEachStore } from '../../support/stores.js';
import { startTwilioEngine, type TwilioEngine } from './twilio-engine.js';

const MONO = encodeWav(
  Int16Array.from({ length: 8000 }, (_, i) => Math.round(8000 * Math.sin(i / 5))),
  8000,
);
/** The agent on the first channel, the callee silent on the second. */
const DUAL = encodeWav(
  Int16Array.from({ length: 16_000 }, (_, i) => (i % 2 === 0 ? Math.round(8000 * Math.sin(i / 10)) : 0)),
  8000,
  2,
);

forEachStore('two-channel recordings on the Twilio carrier', (kind) => {
  let fake: FakeTwilio;
  let h: TwilioEngine;
  let srv: EngineServer;
  let alice: TestTenant;
  let dataDir: string;
  let jobs: JobRunner;

  beforeEach(async () => {
    fake = await FakeTwilio.start();
    h = await startTwilioEngine(kind, fake);
    ({ srv, alice, dataDir, jobs } = h);
  });
  afterEach(async () => {
    await h?.close();
    await fake.close();
  });

  /** A call answered, completed, and its recording reported ready by Twilio. */
  async function completedCall(): Promise<{ id: string; sid: string }> {
    const { id, sid } = await h.placeAndDial();
    expect(fake.call(sid).params.RecordingChannels).to.deep.equal(['dual']);
    await fake.status(sid, 'in-progress');
    srv.clock.advance(1000);
    await fake.amd(sid, 'human');
    await srv.engine.tick();
    srv.clock.advance(10_000);
    await fake.status(sid, 'completed');
    expect((await srv.drive(id)).status).to.equal('completed');
    expect((await fake.recordingReady(sid, MONO, DUAL)).status).to.equal(204);
    return { id, sid };
  }

  it('stores both renditions: recordingUrl serves the one-channel file a v1 client gets, ?channels=2 the two-channel one', async () => {
    const { id } = await completedCall();
    expect(await jobs.tick()).to.equal(1);
    expect((await srv.row(id)).recording_path).to.equal(`recordings/${id}.wav`);
    expect((await readdir(join(dataDir, 'recordings'))).sort()).to.deep.equal([`${id}.2ch.wav`, `${id}.wav`]);
    const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(call.recordingUrl).to.equal(`${srv.baseUrl}/v1/agent/calls/${id}/recording`);
    const v1 = await alice.api.get(call.recordingUrl.slice(srv.baseUrl.length));
    expect([v1.status, v1.headers.get('content-type')]).to.deep.equal([200, 'audio/wav']);
    expect((v1.body as Buffer).equals(MONO), 'the one-channel file, as Twilio downmixes it').to.equal(true);
    const two = await alice.api.get(`/v1/agent/calls/${id}/recording?channels=2`);
    expect(two.status).to.equal(200);
    expect((two.body as Buffer).equals(DUAL)).to.equal(true);
    expect((two.body as Buffer).readUInt16LE(22), 'channels in the fmt chunk').to.equal(2);
  });

  it('keeps the one-channel recording when Twilio refuses the two-channel rendition outright', async () => {
    const { id } = await completedCall();
    fake.recordingFailures = [null, { status: 400, code: 20001, message: 'Invalid RequestedChannels' }];
    expect(await jobs.tick()).to.equal(1);
    const [job] = await srv.deps.store.db.selectFrom('jobs').selectAll().execute();
    expect(job).to.include({ kind: 'twilio.fetch_recording', state: 'done' });
    expect(await readdir(join(dataDir, 'recordings'))).to.deep.equal([`${id}.wav`]);
    expect(((await alice.api.get(`/v1/agent/calls/${id}/recording`)).body as Buffer).equals(MONO)).to.equal(true);
    const two = await alice.api.get(`/v1/agent/calls/${id}/recording?channels=2`);
    expect(two.status).to.equal(404);
    expect(two.body).to.deep.equal({ error: 'not_found', message: `Call ${id} has no two-channel recording.` });
  });

  it('tries both again when the two-channel rendition is not ready yet, and stores nothing before both are', async () => {
    const { id } = await completedCall();
    fake.recordingFailures = [null, { status: 404, code: 20404, message: 'The requested resource was not found' }];
    expect(await jobs.tick()).to.equal(1);
    const [job] = await srv.deps.store.db.selectFrom('jobs').selectAll().execute();
    expect(job).to.include({ state: 'pending', last_error: 'Twilio answered 404 (code 20404): The requested resource was not found' });
    expect((await srv.row(id)).recording_path).to.equal(null);
    srv.clock.ms = job.run_at!;
    expect(await jobs.tick()).to.equal(1);
    expect((await readdir(join(dataDir, 'recordings'))).sort()).to.deep.equal([`${id}.2ch.wav`, `${id}.wav`]);
    expect((await srv.row(id)).recording_path).to.equal(`recordings/${id}.wav`);
  });
});
