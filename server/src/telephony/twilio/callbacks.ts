// Twilio's callbacks for the calls it carries, mounted only with SVC_CARRIER=twilio:
//   POST /twilio/status/:callId     call status (initiated, ringing, answered, completed, busy, …)
//   POST /twilio/amd/:callId        the answering-machine verdict (AnsweredBy)
//   POST /twilio/recording/:callId  the recording is ready: a job fetches it from Twilio (twilio-jobs.ts)
// Each is form-encoded and signed with X-Twilio-Signature (HMAC-SHA1 of the public URL and the sorted
// parameters under the auth token); anything unsigned or forged is refused with 403 and changes nothing.
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';
import { findCarrierRef } from '../../store/calls/call-by-id.js';
import { recordLineEvent } from '../carrier-inbox.js';
import { amdLineEvent, callbackPayload, statusLineEvent, type TwilioParams } from './line-events.js';
import type { TwilioRest } from './twilio-rest.js';
import { enqueueRecordingFetch } from './twilio-jobs.js';
import type { TelephonyDeps } from '../telephony.js';

const ROUTE = /^\/twilio\/(status|amd|recording)\/([A-Za-z0-9_-]{1,128})$/;

type Callback = 'status' | 'amd' | 'recording';

/** `onStatus` hears every accepted status callback's CallStatus (the live agent warms a ringing call's session). */
export function twilioCallbacks(deps: TelephonyDeps, rest: TwilioRest, onStatus?: (callId: string, status: string) => void) {
  const { config, store, clock, logger } = deps;
  const authToken = config.twilioAuthToken!;
  return async function twilioCallback(ctx: Context, next: Next): Promise<void> {
    const m = ROUTE.exec(ctx.path);
    if (!m) return next();
    const callback = m[1] as Callback;
    const callId = m[2];
    ctx.state.operation = `twilio_${callback}`;
    if (ctx.method !== 'POST') return reply(ctx, 405, 'method_not_allowed', { Allow: 'POST' });
    if (!ctx.is('application/x-www-form-urlencoded')) return reply(ctx, 415, 'unsupported_media_type');
    let params: TwilioParams;
    try {
      const text = await getRawBody(ctx.req, { limit: config.maxBodyBytes, length: ctx.request.length, encoding: 'utf-8' });
      params = Object.fromEntries(new URLSearchParams(text));
    } catch {
      return reply(ctx, 400, 'invalid_body');
    }
    // Twilio signs the URL it was given, which is the public one, not the address this request reached.
    const signature = ctx.get('x-twilio-signature');
    if (!signature || !validateRequest(authToken, signature, config.publicBaseUrl + ctx.originalUrl, params)) {
      logger.warn({ reqId: ctx.state.reqId, callback, callId }, 'Twilio callback refused: missing or invalid X-Twilio-Signature');
      return reply(ctx, 403, 'invalid_signature');
    }
    const call = await findCarrierRef(store.db, callId);
    if (!call) return reply(ctx, 404, 'not_found');
    const sid = params.CallSid;
    // The callback must be about the line this call dialled (the ref may not be stored yet when it comes early).
    if (!sid || (call.carrier_ref !== null && call.carrier_ref !== sid)) return reply(ctx, 409, 'call_sid_mismatch');
    const now = clock.now();
    if (callback === 'recording') {
      await storeRecording(ctx, params, callId);
      return;
    }
    const event = callback === 'status' ? statusLineEvent(params, now) : amdLineEvent(params, now);
    if (event) {
      await recordLineEvent(store.db, { callId, ref: sid, event, payload: callbackPayload(callback, params) }, now);
      store.wake('calls');
    }
    if (callback === 'status' && params.CallStatus) onStatus?.(callId, params.CallStatus);
    ctx.status = 204;
  };

  async function storeRecording(ctx: Context, params: TwilioParams, callId: string): Promise<void> {
    if (params.RecordingStatus !== 'completed' || !params.RecordingUrl || !/^RE[0-9a-f]{32}$/i.test(params.RecordingSid ?? '')) {
      ctx.status = 204; // absent or failed: there is nothing to fetch
      return;
    }
    // Only Twilio's own API gets the account's credentials, whatever URL a callback names.
    if (!rest.isApiUrl(params.RecordingUrl)) return reply(ctx, 400, 'recording_url_not_twilio');
    await enqueueRecordingFetch(deps, { callId, sid: params.CallSid, recordingUrl: params.RecordingUrl, recordingSid: params.RecordingSid });
    ctx.status = 204;
  }
}

function reply(ctx: Context, status: number, error: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.set(headers);
  ctx.body = { error };
}
