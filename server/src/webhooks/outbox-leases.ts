// The dispatcher's reads and writes on the outbox. An event is claimed with a lease (owner + expiry); a worker
// that dies mid-delivery simply lets its lease run out and any worker takes the event over, so none is lost.
// Postgres workers skip each other's rows (FOR UPDATE SKIP LOCKED); SQLite has a single writer anyway.
import type { Store } from '../store/store.js';
import type { WebhookEventsTable } from '../store/schema.js';

export type ClaimedEvent = Pick<WebhookEventsTable, 'event_id' | 'api_key_id' | 'url' | 'body' | 'attempts'>;

export async function claimDueEvents(store: Store, owner: string, now: number, leaseMs: number, limit: number): Promise<ClaimedEvent[]> {
  let due = store.db
    .selectFrom('webhook_events')
    .select('event_id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  if (store.dialect === 'postgres') due = due.forUpdate().skipLocked();
  return store.db
    .updateTable('webhook_events')
    .set({ lease_owner: owner, lease_expires_at: now + leaseMs })
    .where('event_id', 'in', due)
    .returning(['event_id', 'api_key_id', 'url', 'body', 'attempts'])
    .execute();
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

/**
 * Records one attempt and the event's new state, and releases the lease. Returns false (recording nothing) when
 * this worker no longer holds the lease: another worker took the event over and its attempt counts instead.
 */
export async function recordAttempt(store: Store, event: ClaimedEvent, owner: string, a: AttemptRecord): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const attempt = event.attempts + 1;
    const updated = await trx
      .updateTable('webhook_events')
      .set({
        attempts: attempt,
        state: a.state,
        next_attempt_at: a.nextAttemptAt,
        lease_owner: null,
        lease_expires_at: null,
        last_status: a.statusCode,
        last_error: a.error,
        delivered_at: a.deliveredAt,
      })
      .where('event_id', '=', event.event_id)
      .where('lease_owner', '=', owner)
      .where('attempts', '=', event.attempts)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('webhook_attempts')
      .values({ event_id: event.event_id, attempt, at: a.at, status_code: a.statusCode, latency_ms: Math.round(a.latencyMs), error: a.error })
      .execute();
    return true;
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
