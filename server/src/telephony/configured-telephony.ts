// SVC_CARRIER: the sandbox's simulated line, or Twilio's.
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import { sandboxTelephony } from './sandbox/sandbox-telephony.js';
import type { Telephony } from './telephony.js';
import { twilioTelephony } from './twilio/twilio-telephony.js';

export function configuredTelephony(config: Config, store: Store): Telephony {
  return config.carrier === 'twilio' ? twilioTelephony(config, store) : sandboxTelephony(config, store);
}
