import type { Logger } from 'pino';
import type { AgentCatalogue } from '../placement/agent-catalogue.js';
import type { IrsfList } from '../numbers/irsf.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import type { Telephony } from '../telephony/telephony.js';
import type { StreamHub } from '../streams/stream-hub.js';
import type { CallRecordings } from '../recording/call-recordings.js';

/** What the HTTP handlers are given: the ports they may use, nothing global. */
export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  catalogue: AgentCatalogue;
  irsf: IrsfList;
  /** The telephone line's wing, whose callback routes the app mounts; the configured one by default. */
  telephony?: Telephony;
  /** The reader of the live streams open in this process, which ends them at shutdown; the app makes its own when not given. */
  streams?: StreamHub;
  /** Calls' recordings as files, rendered when first asked for; by default with the process's recorder thread. */
  recordings?: CallRecordings;
}
