// The usage counters' triggers of migration 006, split by counter and guarded by WHEN, so a row fires only the
// statements that change something, and the calls in flight counted by a plain update of the account's row,
// which every account gets when it is created. 006's triggers run both counters' statements on every insert, and
// on SQLite an upsert in a trigger is slow, several times the insert itself. Split, a queued call runs one update,
// an ended call one upsert of its month's minutes, and an update of a call runs a counter's statements only when
// that counter moves. What the counters count does not change.
import { PostgresAdapter, sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { countMinutes, differs, IN_FLIGHT_STATUSES, isBilled, isInFlight, list, moveInFlight } from './usage-sql.js';

interface Trigger {
  name: string;
  table?: 'calls' | 'accounts';
  event: 'insert' | 'update' | 'delete';
  /** Columns an update trigger listens to. */
  of?: string[];
  when?: RawBuilder<unknown>;
  statements: RawBuilder<unknown>[];
}

export const m007SplitUsageTriggers: Migration = {
  async up(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger calls_usage_${sql.raw(event)}${sql.raw(pg ? ' on calls' : '')}`.execute(db);
      if (pg) await sql`drop function calls_usage_${sql.raw(event)}()`.execute(db);
    }
    // Every account has its row: those without one yet (no call placed since 006) get it now, new ones when made.
    await sql`insert into account_usage (account_id, calls_in_flight)
      select id, (select count(*) from calls where calls.account_id = accounts.id and calls.status in (${list(IN_FLIGHT_STATUSES)})) from accounts
      where not exists (select 1 from account_usage where account_usage.account_id = accounts.id)`.execute(db);
    const movedInFlight = sql`(${isInFlight('old')}) ${sql.raw(pg ? 'is distinct from' : 'is not')} (${isInFlight('new')}) or ${sql.raw(differs(pg, 'account_id'))}`;
    const minutesColumns = ['status', 'ended_at', 'billed_minutes', 'account_id'];
    const movedMinutes = sql`(${isBilled('old')} or ${isBilled('new')}) and (${sql.raw(minutesColumns.map((c) => differs(pg, c)).join(' or '))})`;
    const triggers: Trigger[] = [
      {
        name: 'accounts_usage_row',
        table: 'accounts',
        event: 'insert',
        statements: [sql`insert into account_usage (account_id, calls_in_flight) values (new.id, 0) on conflict (account_id) do nothing`],
      },
      { name: 'calls_in_flight_insert', event: 'insert', when: isInFlight('new'), statements: [moveInFlight('new', '+')] },
      {
        name: 'calls_in_flight_update',
        event: 'update',
        of: ['status', 'account_id'],
        when: movedInFlight,
        statements: [moveInFlight('old', '-'), moveInFlight('new', '+')],
      },
      { name: 'calls_in_flight_delete', event: 'delete', when: isInFlight('old'), statements: [moveInFlight('old', '-')] },
      { name: 'calls_minutes_insert', event: 'insert', when: isBilled('new'), statements: [countMinutes(pg, 'new', '+')] },
      {
        name: 'calls_minutes_update',
        event: 'update',
        of: minutesColumns,
        when: movedMinutes,
        statements: [countMinutes(pg, 'old', '-'), countMinutes(pg, 'new', '+')],
      },
      { name: 'calls_minutes_delete', event: 'delete', when: isBilled('old'), statements: [countMinutes(pg, 'old', '-')] },
    ];
    for (const t of triggers) {
      const name = sql.raw(t.name);
      const body = sql.join(t.statements, sql.raw(';\n'));
      const when = t.when ? sql` when (${t.when})` : sql``;
      const on = sql`after ${sql.raw(t.event)}${sql.raw(t.of ? ` of ${t.of.join(', ')}` : '')} on ${sql.raw(t.table ?? 'calls')} for each row${when}`;
      if (pg) {
        await sql`create function ${name}() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`.execute(db);
        await sql`create trigger ${name} ${on} execute function ${name}()`.execute(db);
      } else {
        await sql`create trigger ${name} ${on} begin ${body}; end`.execute(db);
      }
    }
  },
};
