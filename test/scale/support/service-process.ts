// One real service process (server/src/main.ts) in a role, started on a free loopback port, ready once it logs so.
// Its output is kept, so a failing test can show why a process died.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../support/free-port.js';
import { killOnExit } from '../../support/kill-on-exit.js';
import { serviceArgs } from '../../support/service-entry.js';

const READY = { api: 'svc listening on', worker: 'call engine and webhook dispatcher running', both: 'call engine and webhook dispatcher running' } as const;

export interface ServiceProcess {
  role: 'api' | 'worker' | 'both';
  /** http://127.0.0.1:<port> for an api (or both) process. */
  url: string;
  proc: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown, no lease given up. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/**
 * `cpuProfileDir`: the process runs under V8's profiler and writes its .cpuprofile there when stopped (not killed).
 * `port`: the port to listen on (one the test chose beforehand, to name it in another process's settings).
 */
export async function startService(role: 'api' | 'worker' | 'both', env: Record<string, string>, options: { cpuProfileDir?: string; port?: number } = {}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const proc = spawn(process.execPath, [...profile, ...serviceArgs()], {
    env: { ...process.env, ...env, SVC_ROLE: role, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exited = proc.exitCode !== null;
  killOnExit(proc);
  proc.once('exit', () => (exited = true));
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (chunk) => {
      out = (out + chunk).slice(-50_000);
      if (out.includes(READY[role])) resolve();
    });
    proc.stderr!.on('data', (chunk) => (out = (out + chunk).slice(-50_000)));
    proc.once('exit', (code) => reject(new Error(`${role} process exited with ${code} before it was ready:\n${out.slice(-4000)}`)));
  });
  const end = (signal: NodeJS.Signals) =>
    exited
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          proc.once('exit', () => resolve());
          proc.kill(signal);
        });
  return { role, url: `http://127.0.0.1:${port}`, proc, output: () => out, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}
