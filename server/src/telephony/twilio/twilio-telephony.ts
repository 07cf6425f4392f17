// The Twilio wing (SVC_CARRIER=twilio): the carrier over Twilio's REST API, the signed callbacks it reports on
// (/twilio/...), and, with the realtime agent (SVC_AGENT=realtime), the media bridge on the API's own port, whose
// stream tokens are signed with the Twilio auth token (the carrier puts them in the TwiML) and whose hang-ups go
// through the REST API.
import type { Config } from '../../config.js';
import type { Store } from '../../store/store.js';
import { configuredRealtimeAgent } from '../../voice-agent/realtime-agent.js';
import type { Telephony } from '../telephony.js';
import { twilioCallbacks } from './callbacks.js';
import { attachMediaBridge } from './media-bridge.js';
import { TwilioCarrier } from './twilio-carrier.js';
import { configuredTwilioRest } from './twilio-rest.js';

export function twilioTelephony(config: Config, store: Store): Telephony {
  const rest = configuredTwilioRest(config);
  const secret = config.twilioAuthToken!;
  return {
    carrier: new TwilioCarrier(store.db, { rest, publicBaseUrl: config.publicBaseUrl, mediaSecret: secret }),
    routes: (deps) => twilioCallbacks(deps, rest),
    attach: (server, { logger }) =>
      config.agent !== 'realtime'
        ? null
        : attachMediaBridge(server, {
            db: store.db,
            agent: configuredRealtimeAgent(config, store.db),
            streamSecret: secret,
            hangUp: ({ callSid }) => rest.endCall(callSid),
            logger: logger.child({ part: 'media' }),
          }),
  };
}
