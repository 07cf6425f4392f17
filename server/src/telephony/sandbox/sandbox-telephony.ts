// The sandbox wing: a simulated line and nothing else (it calls no route back and streams no audio).
import type { Config } from '../../config.js';
import type { Store } from '../../store/store.js';
import type { Telephony } from '../telephony.js';
import { SandboxCarrier } from './sandbox-carrier.js';

export function sandboxTelephony(config: Config, store: Store): Telephony {
  return { carrier: new SandboxCarrier(store.db, { timeScale: config.sandboxTimeScale, dialLatencyMs: config.sandboxDialLatencyMs }) };
}
