// Ordered migrations, run by kysely's Migrator in one transaction (Postgres: under its lock; SQLite: IMMEDIATE), so
// several processes may start at once.
// Column types are chosen to mean the same on SQLite and Postgres; times are epoch-millisecond bigints.
import type { Migration, MigrationProvider } from 'kysely';
import { m001Initial } from './001-initial.js';
import { m002Engine } from './002-engine.js';
import { m003WebhookOutbox } from './003-webhook-outbox.js';
import { m004SandboxDials } from './004-sandbox-dials.js';
import { m005LiveCalls } from './005-live-calls.js';
import { m006UsageCounters } from './006-usage-counters.js';
import { m007SplitUsageTriggers } from './007-split-usage-triggers.js';
import { m008LeanCallIndexes } from './008-lean-call-indexes.js';
import { m009IdempotencyExpiryIndex } from './009-idempotency-expiry-index.js';
import { m010JobsAndAnsweredBy } from './010-jobs-and-answered-by.js';
import { m011FailedSteps } from './011-failed-steps.js';
import { m012CallMetadata } from './012-call-metadata.js';
import { m013Cancel } from './013-cancel.js';
import { m014CallTurns } from './014-call-turns.js';
import { m015CallEvidence } from './015-call-evidence.js';
import { m016VoicemailDrop } from './016-voicemail-drop.js';
import { m017ScheduledStart } from './017-scheduled-start.js';
import { m018DoNotCall } from './018-do-not-call.js';
import { m019Redials } from './019-redials.js';
import { m020CallingWindows } from './020-calling-windows.js';
import { m021OptOut } from './021-opt-out.js';
import { m022Batches } from './022-batches.js';
import { m023EventLog } from './023-event-log.js';
import { m024DeferredUsageTriggers } from './024-deferred-usage-triggers.js';
import { m025RecordingRequests } from './025-recording-requests.js';
import { m026QueueIndexesOnPostgres } from './026-queue-indexes-on-postgres.js';
import { m027BoundedRedelivery } from './027-bounded-redelivery.js';
import { m028StreamLeases } from './028-stream-leases.js';
import { m029MachineDetection } from './029-machine-detection.js';
import { m030AgentSession } from './030-agent-session.js';
import { m031CallLatency } from './031-call-latency.js';
import { m032CallerDisclosure } from './032-caller-disclosure.js';
import { m033LiveLine } from './033-live-line.js';
import { m034SendDigits } from './034-send-digits.js';
import { m035ClientTools } from './035-client-tools.js';
import { m037Transfers } from './037-transfers.js';
import { m038BatchRows } from './038-batch-rows.js';
import { m039CallToolCalls } from './039-call-tool-calls.js';
import { m040Hold } from './040-hold.js';
import { m041CallStats } from './041-call-stats.js';

export const migrations: Record<string, Migration> = {
  '001_initial': m001Initial,
  '002_engine': m002Engine,
  '003_webhook_outbox': m003WebhookOutbox,
  '004_sandbox_dials': m004SandboxDials,
  '005_live_calls': m005LiveCalls,
  '006_usage_counters': m006UsageCounters,
  '007_split_usage_triggers': m007SplitUsageTriggers,
  '008_lean_call_indexes': m008LeanCallIndexes,
  '009_idempotency_expiry_index': m009IdempotencyExpiryIndex,
  '010_jobs_and_answered_by': m010JobsAndAnsweredBy,
  '011_failed_steps': m011FailedSteps,
  '012_call_metadata': m012CallMetadata,
  '013_cancel': m013Cancel,
  '014_call_turns': m014CallTurns,
  '015_call_evidence': m015CallEvidence,
  '016_voicemail_drop': m016VoicemailDrop,
  '017_scheduled_start': m017ScheduledStart,
  '018_do_not_call': m018DoNotCall,
  '019_redials': m019Redials,
  '020_calling_windows': m020CallingWindows,
  '021_opt_out': m021OptOut,
  '022_batches': m022Batches,
  '023_event_log': m023EventLog,
  '024_deferred_usage_triggers': m024DeferredUsageTriggers,
  '025_recording_requests': m025RecordingRequests,
  '026_queue_indexes_on_postgres': m026QueueIndexesOnPostgres,
  '027_bounded_redelivery': m027BoundedRedelivery,
  '028_stream_leases': m028StreamLeases,
  '029_machine_detection': m029MachineDetection,
  '030_agent_session': m030AgentSession,
  '031_call_latency': m031CallLatency,
  '032_caller_disclosure': m032CallerDisclosure,
  '033_live_line': m033LiveLine,
  '034_send_digits': m034SendDigits,
  '035_client_tools': m035ClientTools,
  '037_transfers': m037Transfers,
  '038_batch_rows': m038BatchRows,
  '039_call_tool_calls': m039CallToolCalls,
  '040_hold': m040Hold,
  '041_call_stats': m041CallStats,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
