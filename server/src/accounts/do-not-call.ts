// The account's do-not-call list: the one place its rows are read and written. Every key of the account shares
// it; another account's list is never read. Placement and the engine ask isListed before a number is called.
import type { Kysely } from 'kysely';
import type { DoNotCallEntry } from '../generated/types.gen.js';
import type { NewRow } from '../jobs/job-queue.js';
import type { Database } from '../store/schema.js';
import { deleteEntry, getEntry, hasEntry, insertEntryIfAbsent, listEntries } from '../store/do-not-call/do-not-call.js';

export type DoNotCallSource = DoNotCallEntry['source'];

interface Row {
  e164: string;
  reason: string | null;
  source: string;
  created_at: number | string;
  call_id: string | null;
}

export function toEntry(row: Row): DoNotCallEntry {
  return { number: row.e164, reason: row.reason, source: row.source as DoNotCallSource, addedAt: new Date(Number(row.created_at)).toISOString(), callId: row.call_id };
}

/** The reason of an entry the callee asked for in a call. */
export const CALLEE_REQUEST = 'callee_request';

/**
 * The entry a callee's opt-out makes, as a row the engine inserts with the call's ending; a number already listed
 * keeps its entry as it was.
 */
export function optOutEntry(call: { account_id: string; to_number: string; id: string }, now: number): NewRow {
  return {
    into: 'do_not_call',
    values: { account_id: call.account_id, e164: call.to_number, reason: CALLEE_REQUEST, source: 'call', call_id: call.id, created_at: now },
    keepExisting: ['account_id', 'e164'],
  };
}

/** Adds the number unless listed already (then its entry is kept as it was); returns the entry and whether it is new. */
export async function addToDoNotCall(
  db: Kysely<Database>,
  entry: { accountId: string; e164: string; reason: string | null; source: DoNotCallSource },
  now: number,
): Promise<{ entry: DoNotCallEntry; added: boolean }> {
  const inserted = await insertEntryIfAbsent(db, entry, now);
  if (inserted) return { entry: toEntry(inserted), added: true };
  const row = await getEntry(db, entry.accountId, entry.e164);
  return { entry: toEntry(row), added: false };
}

/** A page of the list in E.164 order, after `after` when given; nextAfter is null on the last page. */
export async function listDoNotCall(db: Kysely<Database>, accountId: string, limit: number, after: string | null): Promise<{ entries: DoNotCallEntry[]; nextAfter: string | null }> {
  const rows = await listEntries(db, accountId, limit + 1, after);
  const page = rows.slice(0, limit);
  return { entries: page.map(toEntry), nextAfter: rows.length > limit ? page[page.length - 1].e164 : null };
}

export async function removeFromDoNotCall(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  return deleteEntry(db, accountId, e164);
}

export async function isListed(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  return hasEntry(db, accountId, e164);
}
