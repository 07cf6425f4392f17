// The database as kysely sees it. Columns are snake_case; repositories map them to the wire's camelCase.
// Times are integer epoch milliseconds.
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  default_caller_id: string | null;
  plan_minutes: number;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, to tell keys apart in listings. */
  key_hint: string;
  name: string;
  default_caller_id: string | null;
  default_voice: string | null;
  rate_limit: number | null;
  /** The key's default calling window (JSON, the contract's CallingWindow); null for none. */
  calling_window_json: string | null;
  /** The key's default answering-machine detection: `off`, or null for on. */
  machine_detection: string | null;
  /** On whose behalf the key's calls are made, by default; null for none. */
  on_behalf_of: string | null;
  /** 0 when the key's calls say nothing of the recording by default; null or 1 for the notice. */
  recording_notice: number | null;
  webhook_secret: string;
  previous_webhook_secret: string | null;
  previous_secret_expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export interface NumbersTable {
  account_id: string;
  e164: string;
  created_at: number;
}

export interface CallsTable {
  id: string;
  account_id: string;
  api_key_id: string;
  status: string;
  to_number: string;
  objective: string;
  context: string | null;
  fields_json: string | null;
  webhook_url: string | null;
  caller_id: string;
  voice: string | null;
  language: string | null;
  language_source: string | null;
  summary: string | null;
  transcript: string | null;
  extracted_json: string | null;
  /** Where the call's recording is stored (a carrier's, fetched), relative to the data folder or absolute; null for none. */
  recording_path: string | null;
  /** What the call's recording is rendered from when first asked for (JSON, the Recorder's request); null for none. */
  recording_request_json: string | null;
  started_at: number | null;
  ended_at: number | null;
  duration_sec: number | null;
  /** Whole minutes billed, set when the call ends: durationSec rounded up. */
  billed_minutes: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  /** Engine: when the call is next due for the worker; null once terminal. */
  next_run_at: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** Engine: written before the carrier is asked to dial; with no carrier_ref after a crash, the call fails. */
  dial_attempted_at: number | null;
  carrier_ref: string | null;
  /** Engine: the adapter's own resumable state (JSON), e.g. the sandbox's scripted outcome. */
  engine_state: string | null;
  /** Who picked the line up: human, machine, fax or unknown; null when nobody did. */
  answered_by: string | null;
  /** Engine: the call's steps that failed in a row (0 after one that did not); past a bound the call ends. */
  failed_steps: Generated<number>;
  /** The client's metadata (JSON object of strings) as placed; null when placed without. */
  metadata_json: string | null;
  /** When the client asked this call (then dialing or in progress) to end; the engine takes it down. */
  cancel_requested_at: number | null;
  /** The timed turns (JSON array of the contract's Turn) once an answered call has ended; null before, or never answered. */
  turns_json: string | null;
  /** Where each requested field's value was said (JSON, the contract's evidence); null without fields or when not completed. */
  evidence_json: string | null;
  /** What to say after an answering machine's beep; null to hang up on a machine. */
  voicemail_message: string | null;
  /** 1 once the voicemail message was spoken. */
  voicemail_left: Generated<number>;
  /** `off` for a call placed with answering-machine detection turned off; null for on. */
  machine_detection: string | null;
  /** When the live agent reported hearing a voicemail greeting (wall-clock ms); null if it did not. */
  voicemail_detected_at: number | null;
  /** When a call placed with startAt is to be dialled; null for a call dialled at once. */
  scheduled_at: number | null;
  /** The redials this call may still lead to (JSON { onNoAnswer, onVoicemail, afterMinutes }); null for none. */
  redial_json: string | null;
  /** A redial's previous call, and the redial created when this call ended. */
  previous_call_id: string | null;
  next_call_id: string | null;
  /** The calling window the call is dialled in (JSON, AppliedWindow: the window and its zones); null for none. */
  calling_window_json: string | null;
  /** 1 when the callee asked in the call not to be called again (the number went on the do-not-call list). */
  opt_out: Generated<number>;
  /** The batch the call belongs to; null for a call placed on its own. */
  batch_id: string | null;
  /** The batch's row (batch_items.idx) the call was released for, or its redial; null for a call placed on its own. */
  batch_index: number | null;
  /** The internal URL of the api process holding the call's warmed realtime session; null when none was warmed. */
  agent_host: string | null;
  /** `agent_unavailable` once the live agent's model could not go on; the engine ends the call with it. */
  agent_failure: string | null;
  /** How quickly the live agent answered (JSON, the contract's CallLatency); null for a call no live agent spoke on. */
  latency_json: string | null;
  /** When a live agent's session joined the call's line (wall-clock ms); null when none did. */
  line_opened_at: number | null;
  /** When that session closed with every turn it heard written (wall-clock ms); null while it runs. */
  line_closed_at: number | null;
  /** On whose behalf the agent calls; null for "a customer". */
  on_behalf_of: string | null;
  /** 1 when the agent says the call is recorded; 0 when the placement or its key turned the notice off. */
  recording_notice: Generated<number>;
  /** The keys the carrier presses once the call is answered (the placement's sendDigits); null for none. */
  send_digits: string | null;
  /** The client tools the call was placed with (JSON, StoredTool[]: defaults resolved, urls kept); null for none. */
  tools_json: string | null;
  /** Each use the agent made of them (JSON, the contract's ToolCall[]), written as each is answered; null for none. */
  tool_calls_json: string | null;
  /** The transfer the call was placed with (JSON, CallTransfer: to, mode, when); null for none. */
  transfer_json: string | null;
  /** The number the agent handed the call over to, once it did; null otherwise. */
  transferred_to: string | null;
  /** When it did (wall-clock ms; the engine ends the call there); null otherwise. */
  transferred_at: number | null;
  /** The longest the agent waits on hold at a time, in seconds (the placement's hold.maxWaitSec); null for the default. */
  hold_max_wait_sec: number | null;
  /** When the live agent gave up waiting on hold and hung up (wall-clock ms); null if it did not. */
  hold_timed_out_at: number | null;
  /** Call-time ms spent on hold, written as an answered call ends; null until then, and for a call never answered. */
  hold_ms: number | null;
  /** Why a completed call's conversation ended (the analyst's EndReason); null for any other ending. */
  end_reason: string | null;
  // Migration 041 adds latency_p50_ms and latency_p95_ms, generated by the store from latency_json: never written,
  // and read only by getStats' SQL (store/calls/call-stats.ts), so not listed here, where an insert would offer them.
}

/** A batch: a job whose step releases its calls as the batch's calls end (batches/batch-runner.ts). */
export interface BatchesTable {
  id: string;
  account_id: string;
  api_key_id: string;
  /** queued, running, paused, completed, canceled or stopped. */
  status: string;
  total: number;
  /** How many of its calls (batch_items, in index order) have been released as calls. */
  released: Generated<number>;
  max_concurrency: number;
  stop_reason: string | null;
  /** The stop condition (JSON, the contract's StopWhen); null for none. */
  stop_when_json: string | null;
  /** How many of its completed calls met the stop condition (counted as each completes). */
  matched: Generated<number>;
  webhook_url: string | null;
  metadata_json: string | null;
  /** When the batch starts (its startAt); null for at once. */
  scheduled_at: number | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  ended_at: number | null;
  next_run_at: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

/** A batch's call as checked at creation (JSON, PreparedCall), until it is released. */
export interface BatchItemsTable {
  batch_id: string;
  idx: number;
  call_json: string;
}

export interface DoNotCallTable {
  account_id: string;
  /** The number never to call, E.164. */
  e164: string;
  reason: string | null;
  /** How it came on the list: api, cli, or call (the callee asked in a call). */
  source: string;
  created_at: number;
  /** For source call, the call in which the callee asked; null otherwise. */
  call_id: string | null;
}

export interface RateWindowsTable {
  bucket: string;
  window_start: number;
  count: number;
}

export interface IdempotencyKeysTable {
  api_key_id: string;
  idem_key: string;
  request_hash: string;
  /** 'running' while the first request is in flight, then 'done'. */
  state: string;
  response_status: number | null;
  response_headers_json: string | null;
  response_body: string | null;
  created_at: number;
  expires_at: number;
}

export interface WebhookEventsTable {
  /** `<callId>:<event name>:<epoch ms>`, the payload's eventId. */
  event_id: string;
  call_id: string;
  api_key_id: string;
  event: string;
  url: string;
  /** The payload exactly as sent; every attempt sends these bytes. */
  body: string;
  /** pending, delivered, failed (retries exhausted), gone (410), refused (SSRF guard); none for a call with no webhookUrl (logged, never sent). */
  state: string;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
  /** When redeliverEvent asked for one more attempt; cleared when it is made. */
  redelivery_requested_at: number | null;
  /** When a redelivery was last asked for; kept, so the next is refused for a while (migration 027). */
  last_redelivery_requested_at: number | null;
}

export interface WebhookAttemptsTable {
  event_id: string;
  attempt: number;
  at: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  /** 1 for an attempt redeliverEvent asked for. */
  redelivery: Generated<number>;
}

/** An event's attempts no longer kept (those between its first and its last few), counted by outcome (migration 027). */
export interface WebhookAttemptsOmittedTable {
  event_id: string;
  /** success (a 2xx), http_error (another status) or error (no response). */
  outcome: string;
  attempts: number;
}

export interface SandboxDialsTable {
  call_id: string;
  carrier_ref: string;
  to_number: string;
  at: number;
  /** When the line was hung up; null while it is up (or was never hung up by the service). */
  hung_up_at: number | null;
}

/** What a carrier's callbacks reported, for the engine to read in order (the carrier's inbox). */
export interface CarrierEventsTable {
  id: string;
  call_id: string;
  carrier_ref: string;
  /** answered, ended, dropped, hung_up (the Carrier port's LineEvent kinds). */
  kind: string;
  /** For ended: no_answer, voicemail, declined, failed. */
  outcome: string | null;
  /** For a failed outcome: the call's error token. */
  error: string | null;
  /** Wall-clock ms when it happened on the line. */
  at: number;
  /** The callback as received, for audit (never credentials). */
  payload_json: string | null;
  created_at: number;
}

/** A live conversation's turns as the media bridge heard them; times in ms from the answer. */
export interface CallTurnsTable {
  call_id: string;
  seq: number;
  speaker: string;
  text: string;
  start_ms: number;
  end_ms: number;
  /** When the turn was heard (wall-clock ms); the streams show it from then. Null for turns written before migration 023. */
  heard_at: number | null;
}

/** Each use of a client tool, for the live streams (migration 039). */
export interface CallToolCallsTable {
  call_id: string;
  /** The use's place in the call's toolCalls. */
  seq: number;
  /** When the streams show it (wall-clock ms): when it was answered, or when a scripted conversation reaches it. */
  at: number;
  /** The use as the record lists it (the contract's ToolCall). */
  tool_call_json: string;
}

/** Each status a call reached after queued, when (migration 023). */
export interface CallStatusChangesTable {
  call_id: string;
  api_key_id: string;
  status: string;
  at: number;
}

/** Calls in flight per account, kept by triggers on calls (migration 006). */
export interface AccountUsageTable {
  account_id: string;
  calls_in_flight: number;
}

/** Minutes billed by ended calls per account and billing period (its first ms, UTC), kept by triggers on calls. */
export interface AccountMinutesTable {
  account_id: string;
  period_start: number;
  minutes: number;
}

/** Timed work with no row of its own elsewhere: a hang-up to retry, a recording to fetch (jobs/job-runner.ts). */
export interface JobsTable {
  /** The job's key: the same work asked for twice is one job. */
  id: string;
  kind: string;
  call_id: string | null;
  payload_json: string;
  /** pending, done or failed. */
  state: string;
  /** When it is next due while pending. */
  run_at: number | null;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** A live stream open in some process (store/stream-leases.ts). */
export interface StreamLeasesTable {
  id: string;
  api_key_id: string;
  /** The stream counts against its key's cap until then, unless its process renews it. */
  expires_at: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  numbers: NumbersTable;
  calls: CallsTable;
  rate_windows: RateWindowsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_attempts_omitted: WebhookAttemptsOmittedTable;
  sandbox_dials: SandboxDialsTable;
  carrier_events: CarrierEventsTable;
  call_turns: CallTurnsTable;
  call_tool_calls: CallToolCallsTable;
  call_status_changes: CallStatusChangesTable;
  account_usage: AccountUsageTable;
  account_minutes: AccountMinutesTable;
  jobs: JobsTable;
  do_not_call: DoNotCallTable;
  batches: BatchesTable;
  batch_items: BatchItemsTable;
  stream_leases: StreamLeasesTable;
}

export type { Generated };
