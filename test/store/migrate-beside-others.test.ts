// Migrating a Postgres schema while other schemas of the same database are created and dropped (another
// deployment on the server, another test run): kysely's migrator, left to itself, introspects every schema of the
// database and fails with "schema … does not exist" or "relation … does not exist" when one goes away under its
// catalog query, so the migrator is made to look at its own schema only.
import { expect } from 'chai';
import pg from 'pg';
import { migrate } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { emptySchema, requirePostgres } from '../scale/support/pg-schema.js';
import { PG_URL } from '../support/stores.js';

const TABLES = Array.from({ length: 30 }, (_, i) => `create table S.t${i} (id int primary key, v text)`).join(';');

describe('migrating beside other schemas [postgres]', function () {
  this.timeout(120_000);
  before(async function () {
    await requirePostgres(this);
  });

  it('migrates each of eight fresh schemas (and each again ten times) while two connections create and drop schemas of 30 tables', async () => {
    const churners = await Promise.all(
      [0, 1].map(async () => {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        return c;
      }),
    );
    let stop = false;
    let churned = 0;
    const churn = churners.map(async (c, k) => {
      for (let n = 0; !stop; n++) {
        const s = `churn_${process.pid}_${k}_${n}`;
        await c.query(`create schema ${s};${TABLES.replaceAll('S.', `${s}.`)}`);
        await c.query(`drop schema ${s} cascade`);
        churned++;
      }
    });
    const failures: string[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const schema = await emptySchema();
        const store = openStore({ postgresUrl: schema.url, poolSize: 2 });
        try {
          await migrate(store);
          // Every service process runs the migrator as it starts, on a schema already migrated too.
          for (let again = 0; again < 10; again++) await migrate(store);
          const calls = await store.db
            .selectFrom('calls')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow();
          expect(Number(calls.n)).to.equal(0);
        } catch (e) {
          failures.push((e as Error).message);
        } finally {
          await store.close();
          await schema.drop();
        }
      }
    } finally {
      stop = true;
      await Promise.all(churn);
      await Promise.all(churners.map((c) => c.end()));
    }
    expect(churned, 'schemas created and dropped meanwhile').to.be.greaterThan(8);
    expect(failures).to.deep.equal([]);
  });
});
