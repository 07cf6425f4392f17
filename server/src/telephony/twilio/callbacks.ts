// Twilio's callbacks for the calls it carries, mounted only with SVC_CARRIER=twilio:
//   POST /twilio/status/:callId     call status (initiated, ringing, answered, completed, busy, …)
//   POST /twilio/amd/:callId        the answering-machine verdict (AnsweredBy)
//   POST /twilio/recording/:callId  the recording is ready: a job fetches it from Twilio (twilio-jobs.ts)
//   POST /twilio/leg/:callId        the status of a warm transfer's call to the person (its own CallSid)
//   POST /twilio/handover/:callId   answered with TwiML: the person's key (Digits; 1 joins the conference), or the
//                                   end of a cold transfer's Dial (DialCallStatus) (handover.ts)
// Each is form-encoded and signed with X-Twilio-Signature (HMAC-SHA1 of the public URL and the sorted
// parameters under the auth token); anything unsigned or forged is refused with 403 and changes nothing.
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';
import { findCall, findCarrierRef } from '../../store/calls/call-by-id.js';
import { recordLineEvent } from '../carrier-inbox.js';
import { amdLineEvent, callbackPayload, statusLineEvent, type TwilioParams } from './line-events.js';
import type { TwilioRest } from './twilio-rest.js';
import { enqueueRecordingFetch } from './twilio-jobs.js';
import { dialEndedTwiml, keyAnswerTwiml } from './handover.js';
import type { TelephonyDeps } from '../telephony.js';

const ROUTE = /^\/twilio\/(status|amd|recording|leg|handover)\/([A-Za-z0-9_-]{1,128})$/;
const CALL_SID = /^CA[0-9a-f]{32}$/i;

type Callback = 'status' | 'amd' | 'recording' | 'leg' | 'handover';

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
    if (callback === 'leg' || callback === 'handover') return handover(ctx, callback, params, call);
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

  /**
   * A transfer's callbacks. The person's line (`leg`, or `handover` with the key they pressed) is a call of its own,
   * never the call's: its events go to the inbox under its own CallSid, where the agent's side reads them. A cold
   * transfer's Dial ends on the call itself (`handover` with DialCallStatus).
   */
  async function handover(ctx: Context, callback: 'leg' | 'handover', params: TwilioParams, call: { id: string; carrier_ref: string | null }): Promise<void> {
    const sid = params.CallSid ?? '';
    if (!CALL_SID.test(sid)) return reply(ctx, 400, 'invalid_call_sid');
    const own = sid === call.carrier_ref;
    const now = clock.now();
    if (callback === 'leg') {
      if (own) return reply(ctx, 409, 'call_sid_mismatch');
      const event = statusLineEvent(params, now);
      if (event) await recordLineEvent(store.db, { callId: call.id, ref: sid, event, payload: callbackPayload('status', params) }, now);
      ctx.status = 204;
      return;
    }
    if (params.DialCallStatus !== undefined && own) {
      const row = await findCall(store.db, call.id);
      logger.info({ callId: call.id, dialCallStatus: params.DialCallStatus }, "a cold transfer's dial ended");
      return twiml(ctx, dialEndedTwiml(params.DialCallStatus, row?.language ?? 'en-US'));
    }
    if (params.Digits !== undefined && !own) {
      if (params.Digits === '1') await recordLineEvent(store.db, { callId: call.id, ref: sid, event: { kind: 'answered', at: now }, payload: callbackPayload('handover', params) }, now);
      return twiml(ctx, keyAnswerTwiml(params.Digits, call.id));
    }
    return reply(ctx, 409, 'call_sid_mismatch');
  }

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

function twiml(ctx: Context, body: string): void {
  ctx.status = 200;
  ctx.type = 'text/xml; charset=utf-8';
  ctx.body = body;
}

function reply(ctx: Context, status: number, error: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.set(headers);
  ctx.body = { error };
}
