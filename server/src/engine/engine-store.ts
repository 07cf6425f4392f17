// The engine's reads and writes. A worker claims due calls by writing its lease on them (Postgres skips rows
// another worker is claiming; SQLite has a single writer), and every later write is fenced by that lease: when
// it has expired and another worker took the call over, the write changes nothing and the step is abandoned.
// A status change, its fields and its webhook event are committed in one transaction (the outbox).
import { sql, type Kysely, type Updateable } from 'kysely';
import type { CallEventName } from '../generated/types.gen.js';
import type { CallRow } from '../store/calls-repo.js';
import type { CallsTable, Database } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { enqueueEvent } from '../webhooks/outbox.js';

export class LeaseLost extends Error {
  constructor(callId: string) {
    super(`lease on call ${callId} was lost to another worker`);
    this.name = 'LeaseLost';
  }
}

export interface Commit {
  /** Columns to set. */
  set: Updateable<CallsTable>;
  /** When the call is next due; null once terminal. */
  nextRunAt: number | null;
  /** Keep the lease (a step continues after this write) or give it up. */
  keepLease?: boolean;
  /** The webhook event the change emits, enqueued in the same transaction. */
  event?: CallEventName | null;
}

export class EngineStore {
  readonly db: Kysely<Database>;

  constructor(
    private readonly store: Store,
    readonly owner: string,
  ) {
    this.db = store.db;
  }

  /**
   * Leases up to `limit` due calls whose lease is free or expired, oldest due first. `stepping`: calls this worker
   * is still stepping, never claimed again even when their lease ran out (the fence tells workers apart, not
   * claims, so a second step here would pass it too).
   */
  async claimDue(now: number, leaseMs: number, limit: number, stepping: readonly string[] = []): Promise<CallRow[]> {
    return this.store.claimDue<CallRow>({ table: 'calls', key: 'id', due: 'next_run_at', owner: this.owner, now, leaseMs, limit, excluding: stepping });
  }

  /** Writes a step's outcome if this worker still holds the call's lease; throws LeaseLost otherwise. */
  async commit(callId: string, now: number, c: Commit): Promise<CallRow> {
    return this.db.transaction().execute(async (trx) => {
      const lease = c.keepLease ? {} : { lease_owner: null, lease_expires_at: null };
      const row = await trx
        .updateTable('calls')
        .set({ ...c.set, ...lease, next_run_at: c.nextRunAt, updated_at: now })
        .where('id', '=', callId)
        .where('lease_owner', '=', this.owner)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new LeaseLost(callId);
      if (c.event) await enqueueEvent(trx, row, c.event, now);
      return row;
    });
  }

  /** Gives up a lease without changing the call (a step that failed unexpectedly is retried after `retryAt`). */
  async release(callId: string, retryAt: number): Promise<void> {
    await this.db
      .updateTable('calls')
      .set({ lease_owner: null, lease_expires_at: null, next_run_at: retryAt })
      .where('id', '=', callId)
      .where('lease_owner', '=', this.owner)
      .execute();
  }

  /** Gives up every lease this worker holds (on shutdown); the calls are due at once for whoever comes next. */
  async releaseAll(): Promise<number> {
    const r = await this.db.updateTable('calls').set({ lease_owner: null, lease_expires_at: null }).where('lease_owner', '=', this.owner).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** The earliest time any call but `stepping` can be claimed (due, lease free or expired), or null when none will be. */
  async nextDueAt(stepping: readonly string[] = []): Promise<number | null> {
    let q = this.db
      .selectFrom('calls')
      .select(sql<number | null>`min(case when lease_expires_at > next_run_at then lease_expires_at else next_run_at end)`.as('at'))
      .where('next_run_at', 'is not', null);
    if (stepping.length > 0) q = q.where('id', 'not in', stepping);
    const row = await q.executeTakeFirst();
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }
}
