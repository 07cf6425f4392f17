// The media bridge as configured (SVC_AGENT=realtime on SVC_CARRIER=twilio): the realtime agent on the model
// endpoint, stream tokens checked against the Twilio auth token (the carrier signs them with it), and hang-ups
// through Twilio's REST API.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { RealtimeAgent } from '../../engine/agent/realtime-agent.js';
import { configuredTwilioRest } from '../../engine/carrier/twilio-rest.js';
import type { Store } from '../../store/store.js';
import { attachMediaBridge, type MediaBridge } from './media-bridge.js';

/** Attaches the bridge when the realtime agent is configured; null otherwise. */
export function attachConfiguredMediaBridge(server: Server, config: Config, store: Store, logger: Logger): MediaBridge | null {
  if (config.agent !== 'realtime' || config.carrier !== 'twilio') return null;
  const rest = configuredTwilioRest(config);
  return attachMediaBridge(server, {
    db: store.db,
    agent: new RealtimeAgent(store.db, { url: config.realtimeUrl, model: config.realtimeModel, apiKey: config.realtimeApiKey! }),
    streamSecret: config.twilioAuthToken!,
    hangUp: ({ callSid }) => rest.endCall(callSid),
    logger: logger.child({ part: 'media' }),
  });
}
