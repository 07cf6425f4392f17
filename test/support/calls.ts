// Writes call rows directly, for tests of reads that must not depend on placement.
import { randomUUID } from 'node:crypto';
import type { CallRow } from '../../server/src/store/calls-repo.js';
import type { Store } from '../../server/src/store/store.js';
import type { TestTenant } from './server.js';

/** The columns added after migration 009, with the value a call has when it does not use them. */
const LATER_COLUMNS: Partial<CallRow> = {
  answered_by: null,
  failed_steps: 0,
  metadata_json: null,
  cancel_requested_at: null,
  turns_json: null,
  evidence_json: null,
  voicemail_message: null,
  voicemail_left: 0,
  scheduled_at: null,
  redial_json: null,
  previous_call_id: null,
  next_call_id: null,
  calling_window_json: null,
  opt_out: 0,
  batch_id: null,
  batch_index: null,
  recording_request_json: null,
  machine_detection: null,
  voicemail_detected_at: null,
  agent_host: null,
  agent_failure: null,
  latency_json: null,
  line_opened_at: null,
  line_closed_at: null,
  on_behalf_of: null,
  recording_notice: 1,
  send_digits: null,
  tools_json: null,
  tool_calls_json: null,
  transfer_json: null,
  transferred_to: null,
  transferred_at: null,
  hold_max_wait_sec: null,
  hold_timed_out_at: null,
  hold_ms: null,
  end_reason: null,
};

export async function insertTestCall(store: Store, tenant: TestTenant, overrides: Partial<CallRow> = {}): Promise<CallRow> {
  const row = testCallRow(tenant, overrides);
  // Columns added after migration 009 are written only when given, so a store rewound before them takes the row too.
  const columns: Partial<CallRow> = { ...row };
  for (const [column, unset] of Object.entries(LATER_COLUMNS)) if (columns[column as keyof CallRow] === unset) delete columns[column as keyof CallRow];
  await store.db
    .insertInto('calls')
    .values(columns as CallRow)
    .execute();
  return row;
}

/** A completed call's whole row, as insertTestCall writes it (benches write many at once). */
export function testCallRow(tenant: Pick<TestTenant, 'accountId' | 'keyId' | 'callerId'>, overrides: Partial<CallRow> = {}): CallRow {
  const now = overrides.created_at ?? Date.now();
  return {
    id: randomUUID(),
    account_id: tenant.accountId,
    api_key_id: tenant.keyId,
    status: 'completed',
    to_number: '+14155550123',
    objective: 'Ask whether the shop is open on Sunday',
    context: null,
    fields_json: JSON.stringify([{ name: 'open_sunday', type: 'boolean' }]),
    webhook_url: null,
    caller_id: tenant.callerId,
    voice: 'alloy',
    language: 'en-US',
    language_source: 'inferred',
    summary: 'The shop is open on Sunday.',
    transcript: 'Agent: Hello\nCallee: Hi',
    extracted_json: JSON.stringify({ open_sunday: true }),
    recording_path: null,
    started_at: now + 1000,
    ended_at: now + 61000,
    duration_sec: 60,
    billed_minutes: 1,
    error: null,
    created_at: now,
    updated_at: now,
    next_run_at: null,
    lease_owner: null,
    lease_expires_at: null,
    dial_attempted_at: null,
    carrier_ref: null,
    engine_state: null,
    answered_by: null,
    failed_steps: 0,
    metadata_json: null,
    cancel_requested_at: null,
    turns_json: null,
    evidence_json: null,
    voicemail_message: null,
    voicemail_left: 0,
    scheduled_at: null,
    redial_json: null,
    previous_call_id: null,
    next_call_id: null,
    calling_window_json: null,
    machine_detection: null,
    voicemail_detected_at: null,
    opt_out: 0,
    batch_id: null,
    batch_index: null,
    recording_request_json: null,
    agent_host: null,
    agent_failure: null,
    latency_json: null,
    line_opened_at: null,
    line_closed_at: null,
    on_behalf_of: null,
    recording_notice: 1,
    send_digits: null,
    tools_json: null,
    tool_calls_json: null,
    transfer_json: null,
    transferred_to: null,
    transferred_at: null,
    hold_max_wait_sec: null,
    hold_timed_out_at: null,
    hold_ms: null,
    end_reason: null,
    ...overrides,
  };
}
