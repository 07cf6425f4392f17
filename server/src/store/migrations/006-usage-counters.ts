// Minute usage kept as counters, so the minute cap costs two key lookups however many calls an account has made:
// the calls each account has in flight, and the minutes its ended calls billed per billing period (a calendar
// month in UTC, keyed by its first millisecond). Triggers on `calls` keep them, so every writer (the API, the
// engine, the CLI, a test inserting rows) keeps them exact in the same transaction as the row it writes.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import { countInFlight, countMinutes, differs, IN_FLIGHT_STATUSES, list, periodOf, TERMINAL_STATUSES } from './usage-sql.js';

export const m006UsageCounters: Migration = {
  async up(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('account_usage')
      .addColumn('account_id', 'text', (c) => c.primaryKey())
      .addColumn('calls_in_flight', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('account_minutes')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('period_start', 'bigint', (c) => c.notNull())
      .addColumn('minutes', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('account_minutes_pk', ['account_id', 'period_start'])
      .execute();

    await sql`insert into account_usage (account_id, calls_in_flight)
      select id, (select count(*) from calls where calls.account_id = accounts.id and calls.status in (${list(IN_FLIGHT_STATUSES)})) from accounts`.execute(db);
    await sql`insert into account_minutes (account_id, period_start, minutes)
      select account_id, ${periodOf(pg, 'ended_at')}, sum(billed_minutes) from calls
      where status in (${list(TERMINAL_STATUSES)}) and ended_at is not null and billed_minutes is not null
      group by 1, 2`.execute(db);

    // Each change of a row adds its new contribution and takes back its old one.
    const add = (row: 'new' | 'old', sign: '+' | '-') => [countInFlight(row, sign), countMinutes(pg, row, sign)];
    const bodies = {
      insert: add('new', '+'),
      update: [...add('old', '-'), ...add('new', '+')],
      delete: add('old', '-'),
    };
    // An update fires only when a counted column changes (the engine rewrites leases far more often).
    const counted = ['status', 'ended_at', 'billed_minutes', 'account_id'];
    const changed = sql.raw(counted.map((c) => differs(pg, c)).join(' or '));
    for (const [event, statements] of Object.entries(bodies)) {
      const body = sql.join(statements, sql.raw(';\n'));
      const on = event === 'update' ? sql`update of ${sql.raw(counted.join(', '))} on calls for each row when (${changed})` : sql`${sql.raw(event)} on calls for each row`;
      if (pg) {
        await sql`create function calls_usage_${sql.raw(event)}() returns trigger language plpgsql as $$
          begin ${body}; return null; end $$`.execute(db);
        await sql`create trigger calls_usage_${sql.raw(event)} after ${on} execute function calls_usage_${sql.raw(event)}()`.execute(db);
      } else {
        await sql`create trigger calls_usage_${sql.raw(event)} after ${on} begin ${body}; end`.execute(db);
      }
    }
  },
};
