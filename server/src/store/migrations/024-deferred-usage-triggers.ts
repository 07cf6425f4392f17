// On Postgres, the usage counters' triggers on calls (migration 007) fire at commit instead of at each write.
// Every call of an account moves one row of account_usage (and, as it ends, one of account_minutes); a trigger
// that fires at the write holds that row's lock from there to the end of the transaction. A worker's group commit
// (many calls' steps, their events, status changes and turns) would then hold it for the whole group, and
// placements for the account would wait on it while holding the account's placement lock, each holding a pooled
// connection.
// Fired at commit, a trigger holds the row only while its transaction commits. What the counters count does not
// change: no transaction reads a counter after moving it, and a placement, which reads them under the account's
// lock, still sees every call committed before it. SQLite runs one write at a time, so it has nothing to defer.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

const TRIGGERS = ['calls_in_flight_insert', 'calls_in_flight_update', 'calls_in_flight_delete', 'calls_minutes_insert', 'calls_minutes_update', 'calls_minutes_delete'];

export const m024DeferredUsageTriggers: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    // Each trigger is made again from its own definition, as Postgres prints it, as a constraint trigger deferred
    // to commit (only a constraint trigger can be).
    const { rows } = await sql<{ name: string; def: string }>`select tgname as name, pg_get_triggerdef(oid) as def from pg_trigger
      where tgrelid = 'calls'::regclass and tgname in (${sql.join(TRIGGERS)})`.execute(db);
    if (rows.length !== TRIGGERS.length) throw new Error(`expected the ${TRIGGERS.length} usage triggers of calls, found ${rows.map((r) => r.name).join(', ')}`);
    for (const { name, def } of rows) {
      const deferred = def.replace(/^CREATE TRIGGER /, 'CREATE CONSTRAINT TRIGGER ').replace(/ FOR EACH ROW /, ' DEFERRABLE INITIALLY DEFERRED FOR EACH ROW ');
      if (deferred === def || !deferred.includes('DEFERRABLE')) throw new Error(`unexpected definition of trigger ${name}: ${def}`);
      await sql`drop trigger ${sql.id(name)} on calls`.execute(db);
      await sql.raw(deferred).execute(db);
    }
  },
};
