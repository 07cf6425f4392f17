// The event log and live streams. call_status_changes holds each status a call reached after queued
// (one row per status, written in the transaction that reached it), so a stream read from the store sees every
// change, however quickly they follow each other. call_turns.heard_at is when a turn was heard (wall-clock ms):
// a live agent's turn when it ends, a scripted sandbox turn at the time the conversation reaches its end, so the
// streams show a turn only from then. webhook_events.redelivery_requested_at marks a delivery asked for by
// redeliverEvent: one attempt, whatever the event's state before; webhook_attempts.redelivery marks that attempt.
import type { Kysely, Migration } from 'kysely';

export const m023EventLog: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('call_status_changes')
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('call_status_changes_pk', ['call_id', 'status'])
      .execute();
    await db.schema.createIndex('call_status_changes_by_key').on('call_status_changes').columns(['api_key_id', 'at']).execute();
    await db.schema.alterTable('call_turns').addColumn('heard_at', 'bigint').execute();
    await db.schema.createIndex('call_turns_by_heard').on('call_turns').columns(['heard_at']).execute();
    await db.schema.alterTable('webhook_events').addColumn('redelivery_requested_at', 'bigint').execute();
    await db.schema
      .alterTable('webhook_attempts')
      .addColumn('redelivery', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
