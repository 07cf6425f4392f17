// The SQL of the usage counters' triggers (migrations 006 and 007): what a row of `calls` adds to the counters,
// or takes back from them. The status lists are the ones those migrations were written for, frozen here: a status
// added later is counted by a migration of its own, never by editing these.
import { sql, type RawBuilder } from 'kysely';

export const IN_FLIGHT_STATUSES = ['queued', 'dialing', 'in_progress'] as const;
export const TERMINAL_STATUSES = ['completed', 'no_answer', 'voicemail', 'declined', 'failed'] as const;

export type Row = 'new' | 'old';

const quoted = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');
export const list = (xs: readonly string[]) => sql.raw(quoted(xs));

/** 1 when the row is a call in flight, else 0. */
export const inFlight = (row: Row) => sql.raw(`(case when ${row}.status in (${quoted(IN_FLIGHT_STATUSES)}) then 1 else 0 end)`);
/** True when the row is a call in flight. */
export const isInFlight = (row: Row) => sql.raw(`${row}.status in (${quoted(IN_FLIGHT_STATUSES)})`);
/** True when the row is an ended call with billed minutes. */
export const isBilled = (row: Row) => sql.raw(`${row}.status in (${quoted(TERMINAL_STATUSES)}) and ${row}.ended_at is not null and ${row}.billed_minutes is not null`);

/** The first millisecond (UTC) of the month of an epoch-millisecond column. */
export const periodOf = (pg: boolean, column: string) =>
  pg
    ? sql.raw(`(extract(epoch from date_trunc('month', to_timestamp(${column} / 1000.0) at time zone 'UTC')) * 1000)::bigint`)
    : sql.raw(`(cast(strftime('%s', ${column} / 1000, 'unixepoch', 'start of month') as integer) * 1000)`);

/** Adds (or with '-' takes back) the row's call in flight to its account's count. */
export const countInFlight = (row: Row, sign: '+' | '-'): RawBuilder<unknown> =>
  sql`insert into account_usage (account_id, calls_in_flight) values (${sql.raw(row)}.account_id, ${sql.raw(sign)}${inFlight(row)})
        on conflict (account_id) do update set calls_in_flight = account_usage.calls_in_flight + excluded.calls_in_flight`;

/**
 * Adds (or takes back) the row's call in flight, by updating its account's row, which every account has from
 * migration 007 on (an upsert in a trigger costs SQLite several times an update).
 */
export const moveInFlight = (row: Row, sign: '+' | '-'): RawBuilder<unknown> =>
  sql`update account_usage set calls_in_flight = calls_in_flight ${sql.raw(sign)} ${inFlight(row)} where account_id = ${sql.raw(row)}.account_id`;

/** Adds (or takes back) the row's billed minutes to its account's month, when it has any. */
export const countMinutes = (pg: boolean, row: Row, sign: '+' | '-'): RawBuilder<unknown> =>
  sql`insert into account_minutes (account_id, period_start, minutes)
        select ${sql.raw(row)}.account_id, ${periodOf(pg, `${row}.ended_at`)}, ${sql.raw(sign)}${sql.raw(row)}.billed_minutes where ${isBilled(row)}
        on conflict (account_id, period_start) do update set minutes = account_minutes.minutes + excluded.minutes`;

/** `a is distinct from b` in the dialect's spelling. */
export const differs = (pg: boolean, column: string) => `old.${column} ${pg ? 'is distinct from' : 'is not'} new.${column}`;
