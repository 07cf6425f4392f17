// Start-up time, CPU and idle memory: the service through tsx on the source (the baseline: what `npm start` ran
// before it ran the transpiled source), as `npm start` runs it (scripts/start.mjs: the source transpiled once and
// cached, here already made), as `npx svc serve` runs it (bin/svc.js, the same), and built (`npm run build`, then
// node dist/…), in the same run. Each round starts each on a fresh SQLite folder (role both: API, engine and
// dispatcher), measures the time from spawn to the first 200 from /readyz and the CPU its process tree spent by
// then, then the resident memory of the tree after it has idled for a few seconds.
//   npx tsx bench/startup.ts [rounds=5] [idleSec=5]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port.js';

const rounds = Number(process.argv[2] ?? 5);
const idleSec = Number(process.argv[3] ?? 5);

if (!existsSync('dist/server/src/main.js') || process.env.BENCH_REBUILD !== '0') {
  const built = spawnSync('npm', ['run', 'build'], { stdio: 'ignore' });
  if (built.status !== 0) throw new Error('npm run build failed');
}

// The transpiled source made before the rounds, as the first `npm start` after a change makes it.
spawnSync(process.execPath, ['-e', "import('./scripts/transpiled.mjs').then((m) => m.transpiled())"], { stdio: 'inherit' });

const ways = [
  { name: 'tsx server/src/main.ts (npm start before)', command: 'node_modules/.bin/tsx', args: ['server/src/main.ts'] },
  { name: 'npm start (node scripts/start.mjs)', command: process.execPath, args: ['scripts/start.mjs'] },
  { name: 'npx svc serve (node bin/svc.js serve)', command: process.execPath, args: ['bin/svc.js', 'serve'] },
  { name: 'built: node dist/server/src/main.js', command: process.execPath, args: ['dist/server/src/main.js'] },
];

/** Resident memory of a process and all its descendants, in MiB (Linux /proc). */
function treeRssMiB(pid: number): number {
  let kib = 0;
  const visit = (p: number) => {
    const status = readFileSync(`/proc/${p}/status`, 'utf8');
    kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const task of readFileSyncSafe(`/proc/${p}/task/${p}/children`).split(/\s+/).filter(Boolean)) visit(Number(task));
  };
  visit(pid);
  return kib / 1024;
}
const readFileSyncSafe = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** CPU ms (user and system) of a process and all its descendants alive now (Linux /proc). */
function treeCpuMs(pid: number): number {
  const fields = readFileSyncSafe(`/proc/${pid}/stat`).split(') ')[1]?.split(' ') ?? [];
  let ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  for (const task of readFileSyncSafe(`/proc/${pid}/task/${pid}/children`).split(/\s+/).filter(Boolean)) ticks += treeCpuMs(Number(task)) / 10;
  return ticks * 10;
}

async function measure(way: (typeof ways)[number]): Promise<{ readyMs: number; cpuMs: number; rssMiB: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-startup-'));
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(way.command, way.args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, NODE_ENV: '', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true, // its own process group, so the kill below reaches tsx's child as well
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${way.name} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const readyMs = performance.now() - started;
    const cpuMs = treeCpuMs(child.pid!);
    await new Promise((r) => setTimeout(r, idleSec * 1000));
    return { readyMs, cpuMs, rssMiB: treeRssMiB(child.pid!) };
  } finally {
    const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const samples = ways.map(() => ({ ready: [] as number[], cpu: [] as number[], rss: [] as number[] }));
for (let r = 0; r < rounds; r++) {
  for (const [i, way] of ways.entries()) {
    const m = await measure(way);
    samples[i].ready.push(m.readyMs);
    samples[i].cpu.push(m.cpuMs);
    samples[i].rss.push(m.rssMiB);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const base = { ready: median(samples[0].ready), cpu: median(samples[0].cpu), rss: median(samples[0].rss) };
console.log(`\nStart-up to /readyz, its CPU, and idle RSS (process tree, after ${idleSec} s idle), ${rounds} rounds, Node ${process.version}\n`);
console.log('| start | to /readyz, ms (median) | CPU to /readyz, ms (median) | idle RSS, MiB (median) | vs baseline (time, CPU, memory) | runs: ms | runs: CPU ms |');
console.log('|---|---:|---:|---:|---|---|---|');
for (const [i, way] of ways.entries()) {
  const ready = median(samples[i].ready);
  const cpu = median(samples[i].cpu);
  const rss = median(samples[i].rss);
  const pct = (x: number, b: number) => `${((x / b) * 100).toFixed(0)}%`;
  const vs = i === 0 ? 'baseline' : `${pct(ready, base.ready)}, ${pct(cpu, base.cpu)}, ${pct(rss, base.rss)}`;
  const runs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`| ${way.name} | ${ready.toFixed(0)} | ${cpu.toFixed(0)} | ${rss.toFixed(0)} | ${vs} | ${runs(samples[i].ready)} | ${runs(samples[i].cpu)} |`);
}
