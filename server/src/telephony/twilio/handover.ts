// A transfer on Twilio: the TwiML that hands a live call over, the call to the person of a warm transfer, and what
// the person's line says, read from the carrier inbox.
//
// Cold: the call's TwiML is replaced by a <Dial> to the number from the call's caller id (the media stream stops, so
// the agent is gone); should nobody take it, the Dial's action (POST /twilio/handover/:callId) has Twilio tell the
// callee so in the call's language and hang up.
// Warm: a second call to the person, whose TwiML reads them the agent's briefing and asks them to press 1
// (<Gather>, action /twilio/handover/:callId); its status callbacks go to /twilio/leg/:callId. Pressing 1 answers
// with a <Conference> named after the call, where the person waits in silence; the callee's call is then moved into
// it, and the two are together. Either leaving ends the conference, and the other's call with it.
// Either way the call's recording is stopped at the handover (the record is the agent's part of the call), and its
// TimeLimit, the service's bound on the agent's conversation, is lifted to Twilio's own default for the rest.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { speechMs } from '../../conversation/conversation.js';
import { lexiconFor } from '../../conversation/lexicon.js';
import type { Database } from '../../store/schema.js';
import { type Consultation, type ConsultOutcome, type ConsultRequest, TRANSFER_RING_MS } from '../live-line.js';
import { xml } from './call-params.js';
import { readTwilioEvents, type TwilioLineEvent } from './line-events.js';
import type { TwilioRest } from './twilio-rest.js';

/** Twilio's own bound on a call, which a handed-over call gets in place of the agent's maximum duration. */
export const HANDED_OVER_TIME_LIMIT_SEC = 14_400;
/** How long the person may take to press 1 once the prompt has been said. */
const KEY_WAIT_SEC = 8;
/** How often the person's line is read from the inbox while the agent waits for it. */
export const LEG_POLL_MS = 250;

const TWIML = '<?xml version="1.0" encoding="UTF-8"?>';

/** What a live call is to be handed over from: its Twilio call and the service's call. */
export interface HandoverCall {
  callId: string;
  callSid: string;
  /** The call's caller id: the person sees the same number the callee did. */
  callerId: string;
}

/** The service's handover addresses for a call, under the public base URL. */
export function handoverUrls(publicBaseUrl: string, callId: string) {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(callId);
  return { handover: `${base}/twilio/handover/${id}`, leg: `${base}/twilio/leg/${id}` };
}

/** The conference a warm transfer joins the two in: one per call. */
export const conferenceName = (callId: string) => `svc-${callId}`;

/** A cold transfer: the callee dialled through to `to` from the call's caller id; the Dial's end comes to the action. */
export function coldTransferTwiml(to: string, callerId: string, actionUrl: string): string {
  return `${TWIML}<Response><Dial callerId="${xml(callerId)}" timeout="${TRANSFER_RING_MS / 1000}" action="${xml(actionUrl)}" method="POST">${xml(to)}</Dial></Response>`;
}

/** The person's call of a warm transfer: the briefing and the prompt, read in the call's language; 1 takes the call. */
export function consultTwiml(request: ConsultRequest, actionUrl: string): string {
  const said = `${request.briefing} ${lexiconFor(request.language).agent.takeCallPrompt}`;
  return `${TWIML}<Response><Gather input="dtmf" numDigits="1" timeout="${KEY_WAIT_SEC}" action="${xml(actionUrl)}" method="POST"><Say language="${xml(request.language)}">${xml(said)}</Say></Gather><Hangup/></Response>`;
}

/** Into the call's conference: the first in waits in silence; either leaving ends it for both. */
export function conferenceTwiml(callId: string): string {
  return `${TWIML}<Response><Dial><Conference beep="false" startConferenceOnEnter="true" endConferenceOnExit="true" waitUrl="">${xml(conferenceName(callId))}</Conference></Dial></Response>`;
}

/** What Twilio is told when a cold transfer's Dial ends: nothing more once the two have talked; else a word and the end. */
export function dialEndedTwiml(dialCallStatus: string, language: string): string {
  if (dialCallStatus === 'completed' || dialCallStatus === 'answered') return `${TWIML}<Response><Hangup/></Response>`;
  return `${TWIML}<Response><Say language="${xml(language)}">${xml(lexiconFor(language).agent.nobodyTook)}</Say><Hangup/></Response>`;
}

/** The answer to the person's key: 1 joins them to the call's conference; anything else ends their call. */
export function keyAnswerTwiml(digits: string, callId: string): string {
  return digits === '1' ? conferenceTwiml(callId) : `${TWIML}<Response><Hangup/></Response>`;
}

/**
 * How the person's call went, from its inbox events: the key (a `handover` event) is taking it; a status that ends
 * it first is not (busy and a call put down without the key: declined; no-answer; failed or canceled); null while
 * nothing decides yet.
 */
export function consultOutcome(events: readonly TwilioLineEvent[]): ConsultOutcome | null {
  for (const { source, event } of events) {
    if (source === 'handover') return 'accepted';
    if (event.kind === 'hung_up') return 'declined';
    if (event.kind === 'ended') return event.outcome === 'declined' ? 'declined' : event.outcome === 'no_answer' ? 'no_answer' : 'failed';
  }
  return null;
}

export interface ConsultDeps {
  db: Kysely<Database>;
  rest: TwilioRest;
  publicBaseUrl: string;
  logger: Logger;
  /** Joins the callee to the conference and leaves (the carrier's move of the call). */
  join(): Promise<void>;
  pollMs?: number;
}

/**
 * Calls the person of a warm transfer and follows their line in the inbox. The outcome comes as soon as it is
 * decided; should nothing decide it by the time the phone has rung out, the briefing been read and the key waited
 * for (and as long again), nobody took it. The person's line is hung up when the transfer does not go ahead.
 */
export function consultOnTwilio(call: HandoverCall, request: ConsultRequest, deps: ConsultDeps): Consultation {
  const urls = handoverUrls(deps.publicBaseUrl, call.callId);
  let legSid: string | null = null;
  let settle!: (outcome: ConsultOutcome) => void;
  let decided: ConsultOutcome | null = null;
  let timer: NodeJS.Timeout | null = null;
  let released = false;
  const outcome = new Promise<ConsultOutcome>((resolve) => {
    settle = (o) => {
      if (decided) return;
      decided = o;
      if (timer) clearTimeout(timer);
      resolve(o);
    };
  });
  const boundMs = 2 * (TRANSFER_RING_MS + speechMs(request.briefing) + KEY_WAIT_SEC * 1000);
  const deadline = Date.now() + boundMs;
  const read = async (sid: string) => consultOutcome(await readTwilioEvents(deps.db, sid, 0).catch(() => []));
  const watch = async (sid: string) => {
    timer = null;
    if (decided) return;
    const o = await read(sid);
    if (o) return settle(o);
    if (Date.now() >= deadline) {
      deps.logger.warn({ callId: call.callId }, "the transfer's person said nothing in time; taking it that nobody answered");
      void hangUpLeg();
      return settle('no_answer');
    }
    timer = setTimeout(() => void watch(sid), deps.pollMs ?? LEG_POLL_MS);
  };
  const hangUpLeg = async () => {
    if (!legSid) return;
    // A call already over answers a 4xx: there is nothing left to end.
    await deps.rest.endCall(legSid).catch((err: Error) => deps.logger.warn({ callId: call.callId, err: err.message }, "could not hang up the transfer's person"));
  };
  deps.rest
    .createCall({
      To: request.to,
      From: call.callerId,
      Twiml: consultTwiml(request, urls.handover),
      Timeout: String(TRANSFER_RING_MS / 1000),
      StatusCallback: urls.leg,
      StatusCallbackMethod: 'POST',
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    })
    .then(
      (created) => {
        legSid = created.sid;
        if (released) return void hangUpLeg();
        void watch(created.sid);
      },
      (err: Error) => {
        deps.logger.error({ callId: call.callId, err: err.message }, "could not call the transfer's person");
        settle('failed');
      },
    );
  return {
    outcome,
    async stillThere() {
      if (released || decided !== 'accepted' || !legSid) return false;
      const events = await readTwilioEvents(deps.db, legSid, 0);
      return !events.some((e) => e.source === 'status' && (e.event.kind === 'hung_up' || e.event.kind === 'ended'));
    },
    join: () => deps.join(),
    async release() {
      if (released) return;
      released = true;
      settle('declined');
      if (timer) clearTimeout(timer);
      await hangUpLeg();
    },
  };
}
