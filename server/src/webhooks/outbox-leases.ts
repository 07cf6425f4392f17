// The dispatcher's reads and writes on the outbox. An event is claimed with a lease (owner + expiry); a worker
// that dies mid-delivery simply lets its lease run out and any worker takes the event over, so none is lost.
// Postgres workers skip each other's rows (FOR UPDATE SKIP LOCKED); SQLite has a single writer anyway.
import { sql } from 'kysely';
import type { Store } from '../store/store.js';
import type { WebhookEventsTable } from '../store/schema.js';

export type ClaimedEvent = Pick<WebhookEventsTable, 'event_id' | 'api_key_id' | 'url' | 'body' | 'attempts'>;

export async function claimDueEvents(store: Store, owner: string, now: number, leaseMs: number, limit: number): Promise<ClaimedEvent[]> {
  return store.claimDue<ClaimedEvent>({
    table: 'webhook_events',
    key: 'event_id',
    due: 'next_attempt_at',
    only: { column: 'state', value: 'pending' },
    owner,
    now,
    leaseMs,
    limit,
    excluding: [],
  });
}

export interface AttemptRecord {
  at: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The event's state after this attempt: pending (retry at nextAttemptAt), delivered, failed, gone, refused. */
  state: 'pending' | 'delivered' | 'failed' | 'gone' | 'refused';
  nextAttemptAt: number;
  deliveredAt: number | null;
}

export interface AttemptToRecord {
  event: ClaimedEvent;
  attempt: AttemptRecord;
}

/**
 * Records attempts and their events' new states, and releases the leases, in one transaction (the dispatcher
 * groups the attempts that finish while a write is under way). An attempt whose lease this worker no longer
 * holds is not recorded (false): another worker took the event over and its attempt counts instead.
 */
export async function recordAttempts(store: Store, owner: string, items: AttemptToRecord[]): Promise<boolean[]> {
  // One set-based UPDATE for the whole group (a VALUES list joined to the events), valid on SQLite and Postgres;
  // the casts give Postgres the parameter types.
  const values = sql.join(
    items.map(
      ({ event, attempt: a }) =>
        sql`(cast(${event.event_id} as text), cast(${event.attempts} as integer), cast(${a.state} as text), cast(${a.nextAttemptAt} as bigint), cast(${a.statusCode} as integer), cast(${a.error} as text), cast(${a.deliveredAt} as bigint))`,
    ),
  );
  return store.db.transaction().execute(async (trx) => {
    const updated = await sql<{ event_id: string }>`
      with v(event_id, attempts, state, next_attempt_at, last_status, last_error, delivered_at) as (values ${values})
      update webhook_events
      set attempts = v.attempts + 1, state = v.state, next_attempt_at = v.next_attempt_at, lease_owner = null,
          lease_expires_at = null, last_status = v.last_status, last_error = v.last_error, delivered_at = v.delivered_at
      from v
      where webhook_events.event_id = v.event_id and webhook_events.lease_owner = ${owner} and webhook_events.attempts = v.attempts
      returning webhook_events.event_id`.execute(trx);
    const mine = new Set(updated.rows.map((r) => r.event_id));
    const held = items.map(({ event }) => mine.has(event.event_id));
    const rows = items
      .filter((_x, i) => held[i])
      .map(({ event, attempt: a }) => ({
        event_id: event.event_id,
        attempt: event.attempts + 1,
        at: a.at,
        status_code: a.statusCode,
        latency_ms: Math.round(a.latencyMs),
        error: a.error,
      }));
    if (rows.length > 0) await trx.insertInto('webhook_attempts').values(rows).execute();
    return held;
  });
}

export async function loadSigningKeys(store: Store, keyIds: string[]) {
  if (keyIds.length === 0) return [];
  return store.db
    .selectFrom('api_keys')
    .select(['id', 'webhook_secret', 'previous_webhook_secret', 'previous_secret_expires_at'])
    .where('id', 'in', keyIds)
    .execute();
}
