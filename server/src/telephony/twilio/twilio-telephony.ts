// The Twilio wing (SVC_CARRIER=twilio): the carrier over Twilio's REST API, the signed callbacks it reports on
// (/twilio/...), the jobs that keep a hang-up or a recording's download going (twilio-jobs.ts), and, with a live
// agent (SVC_AGENT=realtime or cascaded), the media bridge on the API's own port, whose stream tokens are signed with
// the Twilio auth token (the carrier puts them in the TwiML) and whose hang-ups and transfers are the carrier's own.
// The agent that joins the streams is the one the composition root built (TelephonyDeps.agent).
import { joinsLines } from '../live-line.js';
import type { Telephony, TelephonyDeps } from '../telephony.js';
import { twilioCallbacks } from './callbacks.js';
import { attachMediaBridge } from './media-bridge.js';
import { TwilioCarrier } from './twilio-carrier.js';
import { hangUpDurably, TIME_LIMIT_GRACE_SEC, twilioJobHandlers, type TwilioJobDeps } from './twilio-jobs.js';
import { configuredTwilioRest } from './twilio-rest.js';

/** Twilio's statuses for a call that is over. */
const ENDED_STATUSES = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

export function twilioTelephony(deps: TelephonyDeps): Telephony {
  const { config, store, logger } = deps;
  const rest = configuredTwilioRest(config);
  const secret = config.twilioAuthToken!;
  const jobDeps: TwilioJobDeps = { ...deps, rest };
  const carrier = new TwilioCarrier(store.db, {
    rest,
    publicBaseUrl: config.publicBaseUrl,
    mediaSecret: secret,
    timeLimitSec: config.maxCallDurationSec + TIME_LIMIT_GRACE_SEC,
    hangUp: (sid) => hangUpDurably(jobDeps, null, sid),
  });
  // With a live agent, a ringing call's session is warmed (and let go when the call ends) by the process Twilio's
  // status callback reaches.
  const lineAgent = config.agent !== 'scripted' && deps.agent && joinsLines(deps.agent) ? deps.agent : null;
  const onStatus = (callId: string, status: string) => {
    if (!lineAgent) return;
    if (status === 'initiated' || status === 'ringing') {
      void lineAgent.prepare?.(callId).catch((err: Error) => logger.warn({ callId, err: err.message }, "could not warm the call's session"));
    } else if (ENDED_STATUSES.has(status)) lineAgent.release?.(callId);
  };
  return {
    carrier,
    routes: twilioCallbacks(deps, rest, onStatus),
    jobs: twilioJobHandlers(jobDeps),
    attach: (server) => {
      if (config.agent === 'scripted') return null;
      const { agent } = deps;
      if (!agent || !joinsLines(agent)) throw new Error('the media bridge needs the live agent the composition root built (TelephonyDeps.agent)');
      const media = logger.child({ part: 'media' });
      return attachMediaBridge(server, {
        db: store.db,
        agent,
        streamSecret: secret,
        hangUp: ({ callId, callSid }) => hangUpDurably(jobDeps, callId, callSid),
        transfer: (call, to) => carrier.transfer(call, to, media),
        consult: (call, request) => carrier.consult(call, request, media),
        logger: media,
        internalUrl: config.internalUrl,
      });
    },
  };
}
