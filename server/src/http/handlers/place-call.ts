// placeCall. With an Idempotency-Key the request first claims the key; a replay returns the stored response
// byte for byte and counts against nothing. Every other request counts against the key's window, then is
// validated, resolved and guarded, and the call row is written in the same transaction as the minute-cap check
// and the idempotency record, so a 202 always has its queued call and a rejection creates nothing.
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { preparePlacement, type PreparedCall } from '../../calls/prepare-placement.js';
import type { PlaceCallRequest, PlaceCallResponse } from '../../generated/types.gen.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyRecord,
  releaseIdempotencyKey,
} from '../../store/idempotency-repo.js';
import { consumeWindow } from '../../store/rate-windows.js';
import { accountUsage, billingPeriod } from '../../store/usage-repo.js';
import { findAccount } from '../../accounts/accounts-repo.js';
import type { AgentState } from '../agent-gate.js';
import type { AppDeps } from '../app-deps.js';
import { ApiError } from '../api-error.js';
import { normalizeIdempotencyKey, requestFingerprint } from '../idempotency-key.js';
import { rateLimited, setRateLimitHeaders } from '../rate-limit-headers.js';
import type { ValidatedRequest } from '../request-validator.js';

export function placeCallHandler(deps: AppDeps) {
  const { store, clock, config } = deps;

  async function replay(ctx: Context, apiKeyId: string, idemKey: string, fingerprint: string): Promise<void> {
    const record = await findIdempotencyRecord(store.db, apiKeyId, idemKey);
    if (record && record.request_hash !== fingerprint) {
      throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body; use a new key for a new request.');
    }
    if (!record || record.state !== 'done') {
      throw new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry shortly.', { 'Retry-After': '1' });
    }
    ctx.status = record.response_status!;
    ctx.set(JSON.parse(record.response_headers_json ?? '{}') as Record<string, string>);
    ctx.set('Idempotent-Replayed', 'true');
    ctx.type = 'application/json';
    ctx.body = record.response_body;
  }

  async function insertQueued(apiKeyId: string, accountId: string, call: PreparedCall, idemKey: string | null) {
    const now = clock.now();
    const id = randomUUID();
    const response: PlaceCallResponse = {
      callId: id,
      status: 'queued',
      language: call.language,
      languageSource: call.languageSource,
      voice: call.voice,
    };
    const stored = { status: 202, headers: { Location: `/agent/calls/${id}` }, body: JSON.stringify(response) };
    await store.db.transaction().execute(async (trx) => {
      if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${accountId}))`.execute(trx);
      const account = await findAccount(trx, accountId);
      const usage = await accountUsage(trx, accountId, now);
      if (!account || usage.usedMinutes + usage.reservedMinutes >= account.plan_minutes) {
        const retryAfter = Math.max(1, Math.ceil((billingPeriod(now).end - now) / 1000));
        throw new ApiError(429, 'over_minute_cap', `The account's ${account?.plan_minutes ?? 0} outbound minutes for this billing period are used up (${usage.usedMinutes} used, ${usage.reservedMinutes} reserved by calls in flight).`, { 'Retry-After': String(retryAfter) });
      }
      await trx
        .insertInto('calls')
        .values({
          id,
          account_id: accountId,
          api_key_id: apiKeyId,
          status: 'queued',
          to_number: call.to,
          objective: call.objective,
          context: call.context,
          fields_json: call.fields ? JSON.stringify(call.fields) : null,
          webhook_url: call.webhookUrl,
          caller_id: call.callerId,
          voice: call.voice,
          language: call.language,
          language_source: call.languageSource,
          summary: null,
          transcript: null,
          extracted_json: null,
          recording_path: null,
          started_at: null,
          ended_at: null,
          duration_sec: null,
          billed_minutes: null,
          error: null,
          created_at: now,
          updated_at: now,
          next_run_at: now,
          lease_owner: null,
          lease_expires_at: null,
          dial_attempted_at: null,
          carrier_ref: null,
          engine_state: null,
        })
        .execute();
      if (idemKey) await completeIdempotencyKey(trx, apiKeyId, idemKey, stored);
    });
    return stored;
  }

  return async function placeCall(ctx: Context, req: ValidatedRequest): Promise<void> {
    const { key, window } = ctx.state.agent as AgentState;
    const idemKey = normalizeIdempotencyKey(req.headers['idempotency-key']);
    const fingerprint = idemKey ? requestFingerprint(req.body) : '';
    if (idemKey && !(await claimIdempotencyKey(store.db, key.id, idemKey, fingerprint, clock.now(), config.idempotencyTtlSec * 1000))) {
      return replay(ctx, key.id, idemKey, fingerprint);
    }
    try {
      const w = await consumeWindow(store.db, window.bucket, window.limit, window.windowSec, clock.now());
      setRateLimitHeaders(ctx, w);
      if (w.count > w.limit) throw rateLimited(w, 'calls');
      req.checkBody();
      const call = await preparePlacement({ db: store.db, catalogue: deps.catalogue, irsf: deps.irsf }, key, req.body as PlaceCallRequest);
      const stored = await insertQueued(key.id, key.account_id, call, idemKey);
      deps.onCallQueued?.();
      ctx.status = stored.status;
      ctx.set(stored.headers);
      ctx.type = 'application/json';
      ctx.body = stored.body;
    } catch (err) {
      if (idemKey) await settleFailedKey(key.id, idemKey, err);
      throw err;
    }
  };

  /** Validation and guardrail rejections are stored and replayed; 429 and 5xx are forgotten so a retry can succeed. */
  async function settleFailedKey(apiKeyId: string, idemKey: string, err: unknown): Promise<void> {
    try {
      if (err instanceof ApiError && err.status === 400) {
        const body = JSON.stringify({ error: err.token, message: err.message });
        await completeIdempotencyKey(store.db, apiKeyId, idemKey, { status: 400, headers: {}, body });
      } else {
        await releaseIdempotencyKey(store.db, apiKeyId, idemKey);
      }
    } catch (storeErr) {
      deps.logger.warn({ err: storeErr }, 'could not settle idempotency key');
    }
  }
}
