// A batch of sandbox calls beside the same calls placed one by one, on each store, each scenario a fresh
// service process (role both) at SVC_SANDBOX_TIME_SCALE=0.001: the time to create them (the batch's one request;
// the placements at 50 connections), the time until the last of them is terminal, and the process's peak RSS.
// Medians of the rounds; the single placements are the baseline measured in the same run.
//   npx tsx bench/batch-throughput.ts [rounds=3] [calls=10000] [maxConcurrency=100] [until=terminal|created]
// `created` stops each service once its calls are created (the figure a client waits for), skipping the minutes
// until the last is terminal.
import { median } from './support/harness.js';
import { placementBodies } from './support/seed.js';
import { api, peakRssMb, seed, startService, type Seeded } from './support/service.js';

const rounds = Number(process.argv[2] ?? 3);
const calls = Number(process.argv[3] ?? 10_000);
const maxConcurrency = Number(process.argv[4] ?? 100);
const createdOnly = process.argv[5] === 'created';
const TERMINAL = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];

async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60 * 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Figures {
  createSec: number;
  lastTerminalSec: number;
  peakRssMb: number;
}

/** The calls placed one by one at 50 connections; done when every call is terminal. */
async function singles(seeded: Seeded, bodies: string[]): Promise<Figures> {
  const svc = await startService({ SVC_SANDBOX_TIME_SCALE: '0.001', ...seeded.env });
  const reader = seeded.reader();
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = JSON.parse(bodies[next++]);
      const res = await api(svc.url, seeded.apiKey, '/v1/agent/calls', body);
      if (res.status !== 202) throw new Error(`placement answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  const createSec = (performance.now() - t0) / 1000;
  if (!createdOnly) {
    await until(async () => {
      const row = await reader.db
        .selectFrom('calls')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', 'in', TERMINAL)
        .executeTakeFirst();
      return Number(row?.n ?? 0) >= bodies.length;
    });
  }
  const lastTerminalSec = createdOnly ? Number.NaN : (performance.now() - t0) / 1000;
  const peak = peakRssMb(svc.proc.pid!);
  await reader.close();
  await svc.stop();
  return { createSec, lastTerminalSec, peakRssMb: peak };
}

/** The same calls as one batch; done when the batch has completed. */
async function batch(seeded: Seeded, bodies: string[]): Promise<Figures> {
  const { apiKey } = seeded;
  const svc = await startService({ SVC_SANDBOX_TIME_SCALE: '0.001', ...seeded.env });
  const t0 = performance.now();
  const res = await api(svc.url, apiKey, '/v1/agent/batches', { calls: bodies.map((b) => JSON.parse(b)), maxConcurrency });
  if (res.status !== 202) throw new Error(`createBatch answered ${res.status}: ${JSON.stringify(res.json)}`);
  const createSec = (performance.now() - t0) / 1000;
  if (!createdOnly) await until(async () => (await api(svc.url, apiKey, `/v1/agent/batches/${res.json.batchId}`)).json.status === 'completed');
  const lastTerminalSec = createdOnly ? Number.NaN : (performance.now() - t0) / 1000;
  const peak = peakRssMb(svc.proc.pid!);
  await svc.stop();
  return { createSec, lastTerminalSec, peakRssMb: peak };
}

const bodies = placementBodies(calls);
const rows: string[] = [];
for (const kind of ['sqlite', 'postgres'] as const) {
  const single: Figures[] = [];
  const batched: Figures[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [run, into] of [
      [singles, single],
      [batch, batched],
    ] as const) {
      const s = await seed(kind);
      try {
        into.push(await run(s, bodies));
      } finally {
        await s.drop();
      }
    }
  }
  const m = (xs: Figures[], k: keyof Figures) => median(xs.map((x) => x[k]));
  const fmt = (x: number, digits = 1) => (Number.isNaN(x) ? '—' : x.toFixed(digits));
  // What the ratio and the runs compare: the time to create, or the time until the last call is terminal.
  const by: keyof Figures = createdOnly ? 'createSec' : 'lastTerminalSec';
  const runs = (xs: Figures[]) => xs.map((x) => fmt(x[by], 2)).join(', ');
  rows.push(`| ${kind} | ${calls} single placements | ${fmt(m(single, 'createSec'), 2)} | ${fmt(m(single, 'lastTerminalSec'))} | ${fmt(m(single, 'peakRssMb'))} | baseline | ${runs(single)} |`);
  rows.push(
    `| ${kind} | one batch of ${calls}, maxConcurrency ${maxConcurrency} | ${fmt(m(batched, 'createSec'), 2)} | ${fmt(m(batched, 'lastTerminalSec'))} | ${fmt(m(batched, 'peakRssMb'))} | ` +
      `${Math.round((m(batched, by) / m(single, by)) * 100)}% of the singles' time ${createdOnly ? 'to create' : 'to last terminal'} | ${runs(batched)} |`,
  );
}
console.log(`\n${calls} sandbox calls at SVC_SANDBOX_TIME_SCALE=0.001, ${rounds} rounds each, Node ${process.version} (medians)\n`);
console.log(`| store | scenario | create s | to last terminal s | peak RSS MB | ratio | runs (${createdOnly ? 'create' : 'to last terminal'} s) |`);
console.log('|---|---|---:|---:|---:|---|---|');
for (const row of rows) console.log(row);
