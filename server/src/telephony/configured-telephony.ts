// SVC_CARRIER: the sandbox's simulated line, or Twilio's.
import { sandboxTelephony } from './sandbox/sandbox-telephony.js';
import type { Telephony, TelephonyDeps } from './telephony.js';
import { twilioTelephony } from './twilio/twilio-telephony.js';

export function configuredTelephony(deps: TelephonyDeps): Telephony {
  return deps.config.carrier === 'twilio' ? twilioTelephony(deps) : sandboxTelephony(deps);
}
