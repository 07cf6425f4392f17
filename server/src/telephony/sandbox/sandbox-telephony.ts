// The sandbox wing: a simulated line and nothing else (it calls no route back, streams no audio, leaves no job).
import type { Telephony, TelephonyDeps } from '../telephony.js';
import { SandboxCarrier } from './sandbox-carrier.js';

export function sandboxTelephony({ config, store }: TelephonyDeps): Telephony {
  return { carrier: new SandboxCarrier(store.db, { timeScale: config.sandboxTimeScale, dialLatencyMs: config.sandboxDialLatencyMs }) };
}
