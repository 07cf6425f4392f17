// `npm run demo`: a sandbox call placed through the SDK with a few extraction fields, each status change printed
// as it happens, then the transcript, the summary and the extracted values.
// With SVC_API_KEY (and SVC_BASE_URL, default http://localhost:8080) it uses that running service; without, it
// starts its own on a temporary data folder with the sandbox at one tenth of real time, so it works on its own.
// The recording is downloaded through the SDK and saved beside the other temporary files, since an embedded
// service, and its recording URL, are gone when the demo ends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { SvcApiError, SvcClient, isTerminal, type CallRecord } from '../sdk/src/index.js';
import { seedDevAccount } from '../server/src/accounts/dev-seed.js';
import { batchCallHooks } from '../server/src/batches/batch-hooks.js';
import { DEFAULT_AGENT_CATALOGUE } from '../server/src/placement/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from '../server/src/numbers/irsf.js';
import { systemClock } from '../server/src/clock.js';
import { loadConfig } from '../server/src/config.js';
import { createEngine } from '../server/src/engine/default-engine.js';
import { createApp } from '../server/src/compose.js';
import { storeFor } from '../server/src/store/open-store.js';
import { migrate } from '../server/src/store/store.js';

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

/** A whole service in this process: SQLite in a temporary folder, the sandbox carrier, the dev account. */
async function embeddedService(): Promise<{ apiKey: string; baseUrl: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
  // Listen first: the recording URLs are built from the address the service ends up on.
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_PUBLIC_BASE_URL: baseUrl, SVC_SANDBOX_TIME_SCALE: process.env.SVC_SANDBOX_TIME_SCALE ?? '0.1' });
  const store = storeFor(config);
  await migrate(store);
  const logger = pino({ level: 'silent' });
  const engine = createEngine(config, store, systemClock, logger, batchCallHooks(store, logger));
  const app = createApp({ config, store, clock: systemClock, logger, catalogue: DEFAULT_AGENT_CATALOGUE, irsf: IrsfList.load(DEFAULT_IRSF_PATH) });
  server.on('request', app.callback());
  const seed = await seedDevAccount(store, config, systemClock.now());
  engine.start();
  return {
    apiKey: seed.apiKey!,
    baseUrl,
    async close() {
      server.closeAllConnections();
      server.close();
      await engine.stop();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const external = process.env.SVC_API_KEY || null;
const service = external ? null : await embeddedService();
const svc = new SvcClient({ apiKey: external ?? service!.apiKey, baseUrl: external ? process.env.SVC_BASE_URL || undefined : service!.baseUrl });
console.log(
  external ? `Using the service at ${process.env.SVC_BASE_URL || 'http://localhost:8080'}.` : 'Started an embedded sandbox service (SQLite in a temporary folder, calls at 1/10 of real time).',
);

try {
  const placed = await svc.placeCall({
    to: '+14155550123',
    objective: 'Ask whether the bakery is open on Sunday, until what time, and how many loaves of rye are left.',
    fields: [
      { name: 'open_sunday', type: 'boolean', description: 'whether the bakery is open on Sunday' },
      { name: 'closing_time', description: 'the closing time on Sunday' },
      { name: 'rye_loaves', type: 'number', description: 'how many loaves of rye bread are left' },
    ],
  });
  console.log(`\n${bold('placed')} ${placed.callId}  language ${placed.language} (${placed.languageSource}), voice ${placed.voice}`);
  const started = Date.now();
  let call: CallRecord;
  let last = '';
  for (;;) {
    call = await svc.getCall(placed.callId);
    if (call.status !== last) {
      console.log(`  +${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${call.status}`);
      last = call.status;
    }
    if (isTerminal(call.status)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  console.log(`\n${bold('transcript')} (${call.durationSec} s of call time)\n${(call.transcript ?? '(none)').replace(/^/gm, '  ')}`);
  console.log(`\n${bold('summary')}\n  ${call.summary ?? call.error}`);
  console.log(`\n${bold('extracted')}`);
  for (const [name, value] of Object.entries(call.extracted ?? {})) console.log(`  ${name.padEnd(14)} ${JSON.stringify(value)}`);
  if (call.recordingUrl) {
    const wav = Buffer.from(await (await svc.getCallRecording(call.id)).audio.arrayBuffer());
    const saved = join(tmpdir(), `svc-demo-${call.id}.wav`);
    writeFileSync(saved, wav);
    console.log(`\n${bold('recording')}  saved to ${saved} (${Math.round(wav.length / 1024)} KiB)${external ? `; also at ${call.recordingUrl}` : ''}`);
  } else console.log(`\n${bold('recording')}  (none)`);
} catch (e) {
  if (e instanceof SvcApiError) console.error(`${e.status} ${e.token}: ${e.message}`);
  else console.error(e);
  process.exitCode = 1;
} finally {
  await service?.close();
}
