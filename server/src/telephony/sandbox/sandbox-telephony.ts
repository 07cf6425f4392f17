// The sandbox wing: a simulated line. With a live agent (SVC_AGENT=cascaded) its lines carry audio to the agent
// (sandbox-lines.ts); otherwise it calls no route back, streams no audio and leaves no job.
import { joinsLines } from '../live-line.js';
import type { Telephony, TelephonyDeps } from '../telephony.js';
import { SandboxCarrier } from './sandbox-carrier.js';
import { SandboxLines } from './sandbox-lines.js';

export function sandboxTelephony({ config, store, agent, calleeVoice, logger }: TelephonyDeps): Telephony {
  const live = config.agent === 'cascaded' && agent && joinsLines(agent) && calleeVoice;
  const lines = live ? new SandboxLines(store.db, agent, calleeVoice, { timeScale: config.sandboxTimeScale, recordings: config, logger: logger.child({ part: 'sandbox-line' }) }) : undefined;
  const carrier = new SandboxCarrier(store.db, { timeScale: config.sandboxTimeScale, dialLatencyMs: config.sandboxDialLatencyMs, lines });
  return { carrier };
}
