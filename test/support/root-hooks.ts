// Mocha's root hooks, loaded by .mocharc.json for every run. In a parallel run (npm test) they run around each file
// in its worker; in a serial one, around the whole run. After: in a serial run, the Postgres schemas kept for reuse
// are dropped (a parallel run's worker keeps them for its next file, and the run's global teardown, in its main
// process, drops them all), so no run leaves any behind; and, when scripts/test-suite.mjs asks (SVC_TEST_TIMES_LOG),
// the file's time is noted; with
// SVC_TEST_CPU_LOG, also the CPU seconds its worker spent on it, its own and its children's that ended in it (the
// service processes, compilers and browsers it started), read from /proc: the suite on two cores is bound by CPU, so
// that is what a file costs the run.
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { dropRunSchemas, dropSpareSchemas, vacuumCatalogue } from './stores.js';

let began = 0;
let cpuBefore: number[] | null = null;

/** This process's CPU seconds and its waited-for children's (Linux only; null elsewhere). */
function cpuNow(): number[] | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime and cstime, in clock ticks of 1/100 s.
    return [11, 12, 13, 14].map((i) => Number(fields[i]) / 100);
  } catch {
    return null;
  }
}

export const mochaHooks = {
  beforeAll(): void {
    began = Date.now();
    cpuBefore = process.env.SVC_TEST_CPU_LOG ? cpuNow() : null;
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    if (process.env.MOCHA_WORKER_ID === undefined) await dropSpareSchemas();
    const log = process.env.SVC_TEST_TIMES_LOG;
    const file = this.test?.parent?.suites[0]?.file;
    if (log && file) appendFileSync(log, `${JSON.stringify({ file, ms: Date.now() - began })}\n`);
    const cpuLog = process.env.SVC_TEST_CPU_LOG;
    const cpuAfter = cpuBefore && cpuNow();
    if (cpuLog && file && cpuBefore && cpuAfter) {
      const spent = cpuAfter.map((v, i) => v - cpuBefore![i]!);
      appendFileSync(cpuLog, `${JSON.stringify({ file, ms: Date.now() - began, ownCpuS: spent[0]! + spent[1]!, childrenCpuS: spent[2]! + spent[3]! })}\n`);
    }
  },
};

/**
 * The run's name, in every schema it makes (stores.ts): set before the workers start, so they inherit it, and new for
 * every run, a mocha a test starts among them included, whose teardown drops its own schemas and no others. And the
 * catalogue vacuumed of the dead rows earlier runs left (stores.ts).
 */
export async function mochaGlobalSetup(): Promise<void> {
  process.env.SVC_TEST_RUN = randomBytes(4).toString('hex');
  await vacuumCatalogue();
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (process.env.SVC_TEST_RUN) await dropRunSchemas(process.env.SVC_TEST_RUN);
}
