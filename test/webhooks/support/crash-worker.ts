// A webhook worker process for the crash test: the real dispatcher over a SQLite file, with short leases so a
// killed worker's claims run out quickly. Usage: node --import tsx crash-worker.ts <sqlite path>
import { systemClock } from '../../../server/src/clock.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { createWebhookDispatcher } from '../../../server/src/webhooks/dispatcher.js';

const store = openStore({ sqlitePath: process.argv[2] });
const dispatcher = createWebhookDispatcher({
  store,
  clock: systemClock,
  config: { webhookRetrySchedule: [0, 0, 0, 0, 0], webhookTimeoutMs: 2000, webhookAllowPrivate: true },
  leaseMs: 2500,
  concurrency: 4,
  idleMs: 20,
});
dispatcher.start();
process.stdout.write('started\n');
process.on(
  'SIGTERM',
  () =>
    void dispatcher
      .stop()
      .then(() => store.close())
      .then(() => process.exit(0)),
);
