// Shared by the benchmarks: start a server process, load it with autocannon, and print a table whose
// baseline was measured in the same run. Rounds alternate between targets, and medians are reported, because
// the machines are noisy.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));

export interface Target {
  name: string;
  env: Record<string, string>;
}

export interface Running {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

export async function startTarget(t: Target): Promise<Running> {
  // BENCH_CPU_PROF=<dir> writes each target's CPU profile there as it exits, to see where its time goes.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const proc = spawn(process.execPath, [...profile, '--import', 'tsx', SERVE], { env: { ...process.env, ...t.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout! });
    rl.on('line', (line) => {
      const m = /^ready (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`${t.name} exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export interface Load {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Bodies sent in turn, one per request, instead of one `body` for all. */
  bodies?: string[];
  connections?: number;
  durationSec?: number;
}

export interface Sample {
  rps: number;
  p99: number;
  non2xx: number;
}

export async function load(url: string, l: Load): Promise<Sample> {
  const result = await autocannon({
    url: url + l.path,
    method: l.method ?? 'GET',
    headers: l.headers,
    body: l.body,
    ...(l.bodies ? { requests: [{ setupRequest: nextBody(l.bodies) }] } : {}),
    connections: l.connections ?? 50,
    duration: l.durationSec ?? 5,
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

function nextBody(bodies: string[]) {
  let i = 0;
  return (req: autocannon.Request) => ({ ...req, body: bodies[i++ % bodies.length] });
}

/** The p-th percentile (nearest rank) of xs. */
export function percentile(xs: readonly number[], p: number): number {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export interface Row {
  name: string;
  samples: Sample[];
  baseline?: string;
}

/**
 * Two ratios to the baseline: of the medians, and the median of each round's own ratio (the target's rps over the
 * baseline's rps measured in the same round, next to it). The machines' speed drifts over tens of seconds, so
 * a slow spell can fall on the target's rounds and the baseline's fast ones; the per-round ratio compares
 * measurements taken side by side and is the steadier of the two.
 */
export function printTable(title: string, rows: Row[]): void {
  const byName = new Map(rows.map((r) => [r.name, r]));
  console.log(`\n${title}`);
  console.log('| scenario | req/s (median) | p99 ms (median) | non-2xx | ratio of medians | median of per-round ratios | runs (req/s) |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    const rps = median(r.samples.map((s) => s.rps));
    const baseline = r.baseline ? byName.get(r.baseline)! : undefined;
    const ofMedians = baseline ? `${((rps / median(baseline.samples.map((s) => s.rps))) * 100).toFixed(0)}% of ${r.baseline}` : 'baseline';
    const perRound = baseline ? `${(median(r.samples.map((s, i) => s.rps / baseline.samples[i].rps)) * 100).toFixed(0)}%` : '';
    const runs = r.samples.map((s) => Math.round(s.rps)).join(', ');
    const non2xx = r.samples.reduce((a, s) => a + s.non2xx, 0);
    console.log(`| ${r.name} | ${Math.round(rps)} | ${median(r.samples.map((s) => s.p99)).toFixed(1)} | ${non2xx} | ${ofMedians} | ${perRound} | ${runs} |`);
  }
}
