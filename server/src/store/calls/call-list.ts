// listCalls with its filters and cursor: the key's calls, newest first (created_at, then id, both descending),
// matching every filter given, a page at a time. The query is built per request (its filters vary) and run on the
// store's read path; the key's recent-calls index (and, filtered by status, the key's status index) keeps it a walk
// of the key's own calls. The search `q` is a case-insensitive substring of the number, the objective or one of the
// metadata values (each value on its own, never the keys or the JSON around them); lower() folds ASCII letters on
// SQLite and every letter on Postgres.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import type { CallSummaryRow } from '../calls-repo.js';

export const LIST_COLUMNS = [
  'id',
  'status',
  'to_number',
  'objective',
  'summary',
  'started_at',
  'ended_at',
  'duration_sec',
  'error',
  'metadata_json',
  'batch_id',
  'created_at',
  'answered_by',
  'caller_id',
] as const;

/** Where a page ends: the last call it held. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

export interface CallListFilter {
  batchId: string | null;
  statuses: string[] | null;
  /** `none` for calls nobody answered. */
  answeredBy: string | null;
  createdFrom: number | null;
  createdTo: number | null;
  q: string | null;
  after: ListPosition | null;
}

/** `\`, `%` and `_` written as themselves in a LIKE pattern whose escape character is `\`. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function matches(store: Store, q: string) {
  const pattern = `%${likeLiteral(q.toLowerCase())}%`;
  const values =
    store.kind === 'postgres'
      ? sql<SqlBool>`exists (select 1 from json_each_text(calls.metadata_json::json) as m where lower(m.value) like ${pattern} escape '\\')`
      : sql<SqlBool>`exists (select 1 from json_each(calls.metadata_json) as m where lower(m.value) like ${pattern} escape '\\')`;
  // A value holding the text holds it in the stored JSON too, unless the text has what JSON escapes (a quote, a
  // backslash, a control character): then the JSON's own text is searched first, and parsed only where it matches.
  const inMetadata = escapedInJson(q) ? values : sql<SqlBool>`(lower(calls.metadata_json) like ${pattern} escape '\\' and ${values})`;
  return (eb: ExpressionBuilder<Database, 'calls'>): Expression<SqlBool> =>
    eb.or([sql<SqlBool>`lower(calls.to_number) like ${pattern} escape '\\'`, sql<SqlBool>`lower(calls.objective) like ${pattern} escape '\\'`, inMetadata]);
}

/** One page of the key's calls matching the filter, with one call more than `limit` when there are more. */
export async function listCallsPage(store: Store, apiKeyId: string, limit: number, f: CallListFilter): Promise<CallSummaryRow[]> {
  let query = store.db.selectFrom('calls').select(LIST_COLUMNS).where('api_key_id', '=', apiKeyId);
  if (f.batchId !== null) query = query.where('batch_id', '=', f.batchId.toLowerCase());
  if (f.statuses !== null) query = query.where('status', 'in', f.statuses);
  if (f.answeredBy === 'none') query = query.where('answered_by', 'is', null);
  else if (f.answeredBy !== null) query = query.where('answered_by', '=', f.answeredBy);
  if (f.createdFrom !== null) query = query.where('created_at', '>=', f.createdFrom);
  if (f.createdTo !== null) query = query.where('created_at', '<', f.createdTo);
  const after = f.after;
  if (after !== null) {
    query = query.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]));
  }
  if (f.q !== null) query = query.where(matches(store, f.q));
  const compiled = query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .compile();
  return store.read<CallSummaryRow>(compiled.sql, compiled.parameters);
}

/** The cursor of a position: opaque to clients (base64url of the creation time and id). */
export const cursorOf = (p: ListPosition): string => Buffer.from(`${p.createdAt}:${p.id}`).toString('base64url');

/** The position a cursor names, or null for text that is not a cursor this service gave. */
export function positionOf(cursor: string): ListPosition | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const m = /^(\d{1,15}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { createdAt: Number(m[1]), id: m[2]! } : null;
}

/** Whether JSON writes `text` other than as it is: it holds a quote, a backslash or a control character. */
function escapedInJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return true;
  }
  return false;
}
