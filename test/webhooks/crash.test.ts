import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { seedFixture } from './support/outbox-fixture.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { until } from '../support/until.js';

const WORKER = join(import.meta.dirname, 'support', 'crash-worker.ts');
const EVENTS = 40;

function spawnWorker(dbPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', () => resolve(child));
  });
}

describe('webhook worker crash', () => {
  let dir: string;
  let store: Store;
  let rx: Receiver;
  const children: ChildProcess[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-webhook-crash-'));
    store = openStore({ sqlitePath: join(dir, 'svc.db') });
    await migrate(store);
    // Every answer takes a while, so the kill finds deliveries in flight.
    rx = await startReceiver(() => ({ status: 200, delayMs: 60 }));
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await rx.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no event when the worker is SIGKILLed mid-delivery: after a restart every event arrives', async () => {
    const fx = await seedFixture(store, Date.now());
    const ids = new Set<string>();
    for (let i = 0; i < EVENTS; i++) ids.add((await fx.event(rx.url)).eventId);
    const dbPath = join(dir, 'svc.db');
    const states = async () => {
      const rows = await store.db.selectFrom('webhook_events').select(['state', 'lease_owner']).execute();
      return { delivered: rows.filter((r) => r.state === 'delivered').length, leased: rows.filter((r) => r.state === 'pending' && r.lease_owner !== null).length };
    };

    const first = await spawnWorker(dbPath);
    children.push(first);
    await until('some deliveries', () => rx.received.length >= 8, 15_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = await states();
    expect(atKill.delivered, 'the first worker did not finish').to.be.below(EVENTS);
    expect(atKill.leased, 'claims held by the dead worker').to.be.above(0);
    const receivedBeforeRestart = rx.received.length;

    const second = await spawnWorker(dbPath);
    children.push(second);
    await until('every event delivered', async () => (await states()).delivered === EVENTS, 15_000);
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));

    const arrived = new Set(rx.received.map((r) => JSON.parse(r.body).eventId as string));
    expect(arrived).to.deep.equal(ids);
    expect(rx.received.length).to.be.at.least(EVENTS);
    expect(rx.received.length - receivedBeforeRestart, 'the restarted worker delivered the rest').to.be.above(0);
    const rows = await store.db.selectFrom('webhook_events').select(['state', 'lease_owner']).execute();
    expect(rows.every((r) => r.state === 'delivered' && r.lease_owner === null)).to.equal(true);
  });
});
