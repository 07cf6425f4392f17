// A closed store refuses queries, whether or not it ran one before it was closed: readiness reports a closed store
// as unreachable, and a query that still reached the database after close would open a pool nobody ends.
import { expect } from 'chai';
import { sql } from 'kysely';
import { openStore } from '../../server/src/store/open-store.js';
import type { Store } from '../../server/src/store/store.js';
import { forEachStore, PG_URL } from '../support/stores.js';

forEachStore('a closed store', (kind) => {
  const open = (): Store => (kind === 'sqlite' ? openStore({ sqlitePath: ':memory:' }) : openStore({ postgresUrl: PG_URL, poolSize: 1 }));

  for (const queried of [false, true]) {
    it(`refuses queries after close when it had ${queried ? '' : 'not '}run one before`, async () => {
      const store = open();
      if (queried) expect((await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows).to.deep.equal([{ one: 1 }]);
      await store.close();
      let refused: unknown;
      await sql`select 1`.execute(store.db).catch((err: unknown) => {
        refused = err;
      });
      expect(refused).to.be.instanceOf(Error);
    });
  }
});
