// Units of one lock key on Postgres (an account's placements): still one at a time under the key's advisory lock,
// but at most two of them hold a pooled connection (the two race for the lock; the rest follow in the order they
// came), so a burst of one account's units leaves the rest of the pool to every other request of the process.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openStore } from '../../server/src/store/open-store.js';
import type { Store } from '../../server/src/store/store.js';
import { freshStore, type TestStore } from '../support/stores.js';
import { requirePostgres } from '../scale/support/pg-schema.js';
import { until } from '../support/until.js';

// The database is shared with other test processes (a parallel run, another checkout's run), and advisory locks
// and pg_stat_activity span the database: so each test locks keys of its own, and counts only its own pool's
// connections, which carry an application_name of their own.
describe('units of one lock key [postgres]', function () {
  let ts: TestStore;
  let store: Store;
  let pool: string;
  let key: (name: string) => string;
  before(async function () {
    await requirePostgres(this);
  });
  beforeEach(async () => {
    ts = await freshStore('postgres');
    const run = randomUUID();
    pool = `key-queue-${run}`;
    key = (name) => `${name}-${run}`;
    store = openStore({ postgresUrl: `${ts.url}&application_name=${pool}`, poolSize: 3 });
  });
  afterEach(async () => {
    await store.close();
    await ts.drop();
  });

  it('run one at a time, those queued in the process in arrival order, and leave the pool to other work while they queue', async () => {
    const gates: Array<() => void> = [];
    const order: string[] = [];
    let inside = 0;
    let mostInside = 0;
    const unit = (name: string) =>
      store.write(({ atomically }) =>
        atomically(key('account-1'), async (ex) => {
          inside++;
          mostInside = Math.max(mostInside, inside);
          order.push(`${name} in`);
          await new Promise<void>((resolve) => gates.push(resolve));
          await ex.run('select 1', []);
          inside--;
          order.push(`${name} out`);
        }),
      );
    const units = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map(unit);
    await until('the first unit under the lock', () => gates.length === 1);
    // The pool has 3 connections: two are the key's (the holder and the next, waiting for the lock in Postgres). A
    // third unit holding one would leave none for the read below, which would then not return.
    const backends = async () => {
      const waiting = sql<{ n: number }>`select count(*) as n from pg_stat_activity where datname = current_database() and application_name = ${pool} and wait_event = 'advisory'`;
      return Number((await waiting.execute(store.db)).rows[0]!.n);
    };
    await until('the next unit waiting for the lock in Postgres', async () => (await backends()) > 0);
    expect(await backends(), 'units waiting for the lock in Postgres').to.equal(1);
    const read = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    expect(read.rows).to.deep.equal([{ one: 1 }]);
    for (let i = 0; i < 6; i++) {
      await until(`unit ${i + 1} under the lock`, () => gates.length === i + 1);
      gates[i]!();
    }
    await Promise.all(units);
    expect(mostInside).to.equal(1);
    const ran = order.filter((_, i) => i % 2 === 0).map((e) => e.split(' ')[0]);
    expect(order).to.deep.equal(ran.flatMap((n) => [`${n} in`, `${n} out`]));
    expect(ran.slice(0, 2).sort()).to.deep.equal(['u1', 'u2']);
    expect(ran.slice(2)).to.deep.equal(['u3', 'u4', 'u5', 'u6']);
  });

  it('give the key back when a unit fails, so the next runs', async () => {
    const failing = store.write(({ atomically }) => atomically(key('account-2'), async () => Promise.reject(new Error('over the cap'))));
    const next = store.write(({ atomically }) => atomically(key('account-2'), async (ex) => (await ex.run('select 2 as two', [])) as unknown[]));
    expect(await failing.catch((e: Error) => e.message)).to.equal('over the cap');
    expect(await next).to.deep.equal([{ two: 2 }]);
  });
});
