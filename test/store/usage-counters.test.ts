// The minute cap reads counters that triggers on `calls` keep: calls in flight per account, and minutes billed
// per account and month. Whatever writes the rows, the counters equal a count of the rows themselves.
import { expect } from 'chai';
import { sql } from 'kysely';
import { migrate } from '../../server/src/store/store.js';
import { accountUsage } from '../../server/src/accounts/minute-billing.js';
import { recountUsage } from '../support/usage-recount.js';
import { insertTestCall } from '../support/calls.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { freshStore, forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const NOV = Date.UTC(2026, 10, 15, 12);
const OCT = Date.UTC(2026, 9, 31, 23, 59, 30);

forEachStore('minute usage counters', (kind) => {
  describe('as rows are written directly', () => {
    let srv: TestServer;
    let alice: TestTenant;
    let bob: TestTenant;
    beforeEach(async () => {
      srv = await startServer(kind);
      alice = await srv.tenant();
      bob = await srv.tenant();
    });
    afterEach(() => srv.close());

    const both = async (t: TestTenant, at: number) => {
      const [counted, recounted] = await Promise.all([accountUsage(srv.deps.store.db, t.accountId, at), recountUsage(srv.deps.store.db, t.accountId, at)]);
      expect(counted).to.deep.equal(recounted);
      return counted;
    };

    it('counts calls in flight and the minutes of ended calls by the UTC month they ended in, per account', async () => {
      const db = srv.deps.store.db;
      const open = { ended_at: null, billed_minutes: null, started_at: null, duration_sec: null };
      const queued = await insertTestCall(srv.deps.store, alice, { status: 'queued', ...open });
      const talking = await insertTestCall(srv.deps.store, alice, { status: 'in_progress', ...open });
      await insertTestCall(srv.deps.store, alice, { status: 'completed', ended_at: NOV, billed_minutes: 3 });
      await insertTestCall(srv.deps.store, alice, { status: 'completed', ended_at: OCT, billed_minutes: 5 });
      await insertTestCall(srv.deps.store, bob, { status: 'completed', ended_at: NOV, billed_minutes: 7 });
      expect(await both(alice, NOV)).to.deep.equal({ usedMinutes: 3, reservedMinutes: 2 });
      expect(await both(alice, OCT)).to.deep.equal({ usedMinutes: 5, reservedMinutes: 2 });
      expect(await both(bob, NOV)).to.deep.equal({ usedMinutes: 7, reservedMinutes: 0 });

      await db.updateTable('calls').set({ status: 'dialing', lease_owner: 'w1' }).where('id', '=', queued.id).execute();
      await db.updateTable('calls').set({ lease_owner: 'w2', updated_at: NOV }).where('id', '=', talking.id).execute();
      expect(await both(alice, NOV)).to.deep.equal({ usedMinutes: 3, reservedMinutes: 2 });

      await db
        .updateTable('calls')
        .set({ status: 'completed', ended_at: NOV + 1000, billed_minutes: 2 })
        .where('id', '=', talking.id)
        .execute();
      await db
        .updateTable('calls')
        .set({ status: 'no_answer', ended_at: NOV + 2000, billed_minutes: 0 })
        .where('id', '=', queued.id)
        .execute();
      expect(await both(alice, NOV)).to.deep.equal({ usedMinutes: 5, reservedMinutes: 0 });

      await db.deleteFrom('calls').where('id', '=', talking.id).execute();
      expect(await both(alice, NOV)).to.deep.equal({ usedMinutes: 3, reservedMinutes: 0 });
    });

    it('moves the counts of a call that moves to another account', async () => {
      const db = srv.deps.store.db;
      const open = { ended_at: null, billed_minutes: null, started_at: null, duration_sec: null };
      const talking = await insertTestCall(srv.deps.store, alice, { status: 'in_progress', ...open });
      const ended = await insertTestCall(srv.deps.store, alice, { status: 'completed', ended_at: NOV, billed_minutes: 3 });
      await db.updateTable('calls').set({ account_id: bob.accountId }).where('id', 'in', [talking.id, ended.id]).execute();
      expect(await both(alice, NOV)).to.deep.equal({ usedMinutes: 0, reservedMinutes: 0 });
      expect(await both(bob, NOV)).to.deep.equal({ usedMinutes: 3, reservedMinutes: 1 });
      // A call that counts for nothing moves without changing anything; one ending and moving at once, both.
      const failed = await insertTestCall(srv.deps.store, alice, { status: 'failed', ...open });
      await db.updateTable('calls').set({ account_id: bob.accountId }).where('id', '=', failed.id).execute();
      await db.updateTable('calls').set({ account_id: alice.accountId, status: 'completed', ended_at: NOV, billed_minutes: 4 }).where('id', '=', talking.id).execute();
      expect(await both(alice, NOV)).to.deep.equal({ usedMinutes: 4, reservedMinutes: 0 });
      expect(await both(bob, NOV)).to.deep.equal({ usedMinutes: 3, reservedMinutes: 0 });
    });

    if (kind === 'postgres') {
      it("are moved as a transaction commits, so the account's counter rows are locked only while it commits", async () => {
        const db = srv.deps.store.db;
        const talking = await insertTestCall(srv.deps.store, alice, { status: 'in_progress', ended_at: null, billed_minutes: null, started_at: null, duration_sec: null });
        await insertTestCall(srv.deps.store, alice, { status: 'completed', ended_at: NOV, billed_minutes: 3 });
        const lockedElsewhere = async () => {
          // Another session asks for the rows without waiting: 55P03 when a transaction holds them.
          try {
            await db.transaction().execute(async (c) => {
              await sql`select 1 from account_usage where account_id = ${alice.accountId} for update nowait`.execute(c);
              await sql`select 1 from account_minutes where account_id = ${alice.accountId} for update nowait`.execute(c);
            });
            return 'free';
          } catch (err) {
            return (err as { code?: string }).code;
          }
        };
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('calls').set({ status: 'completed', ended_at: NOV, billed_minutes: 2 }).where('id', '=', talking.id).execute();
          await insertTestCall({ ...srv.deps.store, db: trx }, alice, { status: 'queued', ended_at: null, billed_minutes: null });
          expect(await lockedElsewhere()).to.equal('free');
          expect(await accountUsage(db, alice.accountId, NOV)).to.deep.equal({ usedMinutes: 3, reservedMinutes: 1 });
        });
        expect(await both(alice, NOV)).to.deep.equal({ usedMinutes: 5, reservedMinutes: 1 });
      });
    }

    it('reports nothing used for an account that never placed a call', async () => {
      expect(await both(await srv.tenant(), NOV)).to.deep.equal({ usedMinutes: 0, reservedMinutes: 0 });
    });
  });

  describe('as the engine drives sandbox calls', () => {
    let srv: EngineServer;
    beforeEach(async () => {
      srv = await startEngineServer(kind);
    });
    afterEach(() => srv.close());

    it('equal the recount at every step of every outcome, and end with nothing in flight', async () => {
      const alice = await srv.tenant({ rateLimit: 1000 });
      const ids: string[] = [];
      for (const to of ['+14155550123', '+12125550111', '+12125550112', '+12125550113', '+12125550114', '+12125550115']) {
        const res = await alice.api.post('/v1/agent/calls', { body: { to, objective: 'Ask whether the shop is open on Sunday and until what time.' } });
        expect(res.status).to.equal(202);
        ids.push(res.body.callId as string);
      }
      const check = async () => {
        const now = srv.clock.now();
        expect(await accountUsage(srv.deps.store.db, alice.accountId, now)).to.deep.equal(await recountUsage(srv.deps.store.db, alice.accountId, now));
      };
      expect((await accountUsage(srv.deps.store.db, alice.accountId, srv.clock.now())).reservedMinutes).to.equal(6);
      for (const id of ids) await srv.drive(id, 60, check);
      const rows = await srv.deps.store.db.selectFrom('calls').select(['billed_minutes']).where('account_id', '=', alice.accountId).execute();
      const billed = rows.reduce((a, r) => a + (r.billed_minutes ?? 0), 0);
      expect(billed).to.be.above(0);
      expect(await accountUsage(srv.deps.store.db, alice.accountId, srv.clock.now())).to.deep.equal({ usedMinutes: billed, reservedMinutes: 0 });
    });
  });

  it('are filled from the calls already stored when the migration adds them', async () => {
    const ts = await freshStore(kind);
    try {
      const db = ts.store.db;
      // Migration 041's indexes and generated columns go first: they depend on columns dropped below.
      for (const index of ['calls_by_account_recent', 'webhook_events_failed']) await db.schema.dropIndex(index).execute();
      for (const column of ['latency_p50_ms', 'latency_p95_ms']) await db.schema.alterTable('calls').dropColumn(column).execute();
      await db.schema.dropTable('account_minutes').execute();
      await db.schema.dropTable('account_usage').execute();
      // Back to before migration 006 (007 only replaced its triggers): all run again, on calls already stored.
      for (const counter of ['in_flight', 'minutes']) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql.raw(`drop trigger calls_${counter}_${event}${kind === 'postgres' ? ' on calls' : ''}`).execute(db);
          if (kind === 'postgres') await sql.raw(`drop function calls_${counter}_${event}()`).execute(db);
        }
      }
      await sql.raw(`drop trigger accounts_usage_row${kind === 'postgres' ? ' on accounts' : ''}`).execute(db);
      if (kind === 'postgres') await sql.raw('drop function accounts_usage_row()').execute(db);
      // And before 008, which only changed two indexes.
      await db.schema.dropIndex('calls_by_lease').execute();
      await db.schema.createIndex('calls_by_lease').on('calls').columns(['lease_owner']).execute();
      await db.schema.createIndex('calls_by_account_status').on('calls').columns(['account_id', 'status', 'ended_at']).execute();
      // And before 009, which only added an index.
      await db.schema.dropIndex('idempotency_keys_by_expiry').execute();
      // And before 010 to 014, which added the jobs table, who answered a call, its failed steps, its metadata,
      // cancellation, the timed turns, the evidence, the voicemail drop, the scheduled start, the do-not-call list and redials.
      await db.schema.dropTable('jobs').execute();
      await db.schema.alterTable('calls').dropColumn('answered_by').execute();
      await db.schema.alterTable('calls').dropColumn('failed_steps').execute();
      await db.schema.alterTable('calls').dropColumn('metadata_json').execute();
      await db.schema.alterTable('calls').dropColumn('cancel_requested_at').execute();
      await db.schema.alterTable('sandbox_dials').dropColumn('hung_up_at').execute();
      await db.schema.alterTable('calls').dropColumn('turns_json').execute();
      await db.schema.alterTable('calls').dropColumn('evidence_json').execute();
      await db.schema.alterTable('calls').dropColumn('voicemail_message').execute();
      await db.schema.alterTable('calls').dropColumn('voicemail_left').execute();
      await db.schema.alterTable('calls').dropColumn('scheduled_at').execute();
      await db.schema.dropTable('do_not_call').execute();
      await db.schema.dropIndex('calls_by_batch_row').execute();
      await db.schema.alterTable('calls').dropColumn('batch_index').execute();
      await db.schema.dropIndex('calls_by_batch').execute();
      await db.schema.dropTable('batch_items').execute();
      await db.schema.dropTable('batches').execute();
      for (const column of ['redial_json', 'previous_call_id', 'next_call_id', 'calling_window_json', 'opt_out', 'batch_id']) await db.schema.alterTable('calls').dropColumn(column).execute();
      await db.schema.alterTable('api_keys').dropColumn('calling_window_json').execute();
      await db.schema.dropTable('call_status_changes').execute();
      await db.schema.dropIndex('call_turns_by_heard').execute();
      await db.schema.alterTable('call_turns').dropColumn('heard_at').execute();
      await db.schema.alterTable('webhook_events').dropColumn('redelivery_requested_at').execute();
      await db.schema.alterTable('webhook_attempts').dropColumn('redelivery').execute();
      await db.schema.alterTable('calls').dropColumn('recording_request_json').execute();
      await db.schema.dropTable('webhook_attempts_omitted').execute();
      await db.schema.alterTable('webhook_events').dropColumn('last_redelivery_requested_at').execute();
      await db.schema.dropTable('stream_leases').execute();
      await db.schema.alterTable('calls').dropColumn('agent_host').execute();
      await db.schema.alterTable('calls').dropColumn('agent_failure').execute();
      await db.schema.alterTable('calls').dropColumn('machine_detection').execute();
      await db.schema.alterTable('calls').dropColumn('voicemail_detected_at').execute();
      await db.schema.alterTable('calls').dropColumn('latency_json').execute();
      for (const column of ['line_opened_at', 'line_closed_at']) await db.schema.alterTable('calls').dropColumn(column).execute();
      await db.schema.alterTable('api_keys').dropColumn('machine_detection').execute();
      for (const column of ['on_behalf_of', 'recording_notice']) {
        await db.schema.alterTable('calls').dropColumn(column).execute();
        await db.schema.alterTable('api_keys').dropColumn(column).execute();
      }
      await db.schema.alterTable('calls').dropColumn('send_digits').execute();
      for (const column of ['tools_json', 'tool_calls_json']) await db.schema.alterTable('calls').dropColumn(column).execute();
      for (const column of ['hold_max_wait_sec', 'hold_timed_out_at', 'hold_ms', 'end_reason']) await db.schema.alterTable('calls').dropColumn(column).execute();
      for (const column of ['transfer_json', 'transferred_to', 'transferred_at']) await db.schema.alterTable('calls').dropColumn(column).execute();
      await db.schema.dropTable('call_tool_calls').execute();
      if (kind === 'postgres') {
        await db.schema.dropIndex('calls_claimable_at').execute();
        await db.schema.dropIndex('webhook_events_pending').execute();
        await db.schema.createIndex('webhook_events_due').on('webhook_events').columns(['state', 'next_attempt_at']).execute();
      }
      const later = [
        '006_usage_counters',
        '007_split_usage_triggers',
        '008_lean_call_indexes',
        '009_idempotency_expiry_index',
        '010_jobs_and_answered_by',
        '011_failed_steps',
        '012_call_metadata',
        '013_cancel',
        '014_call_turns',
        '015_call_evidence',
        '016_voicemail_drop',
        '017_scheduled_start',
        '018_do_not_call',
        '019_redials',
        '020_calling_windows',
        '021_opt_out',
        '022_batches',
        '023_event_log',
        '024_deferred_usage_triggers',
        '025_recording_requests',
        '026_queue_indexes_on_postgres',
        '027_bounded_redelivery',
        '028_stream_leases',
        '029_machine_detection',
        '030_agent_session',
        '031_call_latency',
        '032_caller_disclosure',
        '033_live_line',
        '034_send_digits',
        '035_client_tools',
        '037_transfers',
        '038_batch_rows',
        '039_call_tool_calls',
        '040_hold',
        '041_call_stats',
      ];
      await sql`delete from kysely_migration where name in (${sql.join(later)})`.execute(db);
      await db.insertInto('accounts').values({ id: 'acc', name: 'acc', plan_minutes: 100, default_caller_id: null, created_at: 1 }).execute();
      await db
        .insertInto('api_keys')
        .values({
          id: 'key',
          account_id: 'acc',
          key_hash: 'h',
          key_hint: 'svc_ak_x…',
          name: 'k',
          default_caller_id: null,
          default_voice: null,
          rate_limit: null,
          webhook_secret: 'whsec_x',
          previous_webhook_secret: null,
          previous_secret_expires_at: null,
          revoked_at: null,
          created_at: 1,
        })
        .execute();
      const tenant = { accountId: 'acc', keyId: 'key', callerId: '+14155550100' } as TestTenant;
      await insertTestCall(ts.store, tenant, { status: 'queued', ended_at: null, billed_minutes: null });
      await insertTestCall(ts.store, tenant, { status: 'completed', ended_at: NOV, billed_minutes: 4 });
      await insertTestCall(ts.store, tenant, { status: 'voicemail', ended_at: OCT, billed_minutes: 1 });
      await migrate(ts.store, '006_usage_counters');
      // An account made between 006 and 007 has no counter row until 007 gives it one.
      await db.insertInto('accounts').values({ id: 'late', name: 'late', plan_minutes: 100, default_caller_id: null, created_at: 1 }).execute();
      await migrate(ts.store);
      expect(await accountUsage(db, 'acc', NOV)).to.deep.equal({ usedMinutes: 4, reservedMinutes: 1 });
      expect(await accountUsage(db, 'acc', OCT)).to.deep.equal({ usedMinutes: 1, reservedMinutes: 1 });
      // And the triggers the migrations left keep counting, for that account too.
      await insertTestCall(ts.store, tenant, { status: 'completed', ended_at: NOV, billed_minutes: 2 });
      await insertTestCall(ts.store, tenant, { status: 'dialing', ended_at: null, billed_minutes: null });
      await insertTestCall(ts.store, { ...tenant, accountId: 'late' }, { status: 'queued', ended_at: null, billed_minutes: null });
      expect(await accountUsage(db, 'acc', NOV)).to.deep.equal({ usedMinutes: 6, reservedMinutes: 2 });
      expect(await accountUsage(db, 'late', NOV)).to.deep.equal({ usedMinutes: 0, reservedMinutes: 1 });
    } finally {
      await ts.drop();
    }
  });
});
