// Runs documented commands as a reader at a terminal would: in one bash session (so an `export` holds for the
// lines after it), each command in the repository's folder with stdin closed; a command that starts the
// service runs in a process group of its own until it says it runs, and is then stopped. What a reader fills in
// by hand is filled in here: the service's port for 8080, the key for `svc_ak_…`, the call just placed for
// `<callId>`.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { killOnExit } from './kill-on-exit.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Fill {
  port: number;
  key: string;
  /** The callId of the last answer that held one. */
  callId?: string;
}

export function filledIn(command: string, fill: Fill): string {
  let text = command.replaceAll('localhost:8080', `localhost:${fill.port}`).replaceAll('svc_ak_…', fill.key);
  if (fill.callId) text = text.replaceAll('<callId>', fill.callId);
  return text;
}

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** The environment of a reader's shell: this process's, without the service settings a test run may carry. */
export function readerEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(SVC_|DATABASE_URL$|NODE_ENV$|PORT$|HOST$)/.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

export class DocShell {
  private readonly bash: ChildProcess;
  private out = '';
  private err = '';
  private count = 0;

  constructor(env: Record<string, string>) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    killOnExit(this.bash);
    this.bash.stdout!.on('data', (c: Buffer) => (this.out += c.toString()));
    this.bash.stderr!.on('data', (c: Buffer) => (this.err += c.toString()));
  }

  /** Runs one command to its end; `code` is null when it did not end within `timeoutMs` (the shell is then unusable). */
  async run(command: string, timeoutMs: number): Promise<Ran> {
    const done = `__docs_runner_done_${++this.count}__`;
    this.out = '';
    this.err = '';
    this.bash.stdin!.write(`{\n${command}\n} </dev/null; printf '\\n${done} %d\\n' $?; printf '\\n${done}\\n' >&2\n`);
    const end = Date.now() + timeoutMs;
    const ended = new RegExp(`\\n${done} (\\d+)\\n`);
    while (!(ended.test(this.out) && this.err.includes(`\n${done}\n`))) {
      if (Date.now() > end || this.bash.exitCode !== null) return { code: null, out: this.out, err: this.err };
      await new Promise((r) => setTimeout(r, 20));
    }
    return { code: Number(ended.exec(this.out)![1]), out: this.out.replace(ended, ''), err: this.err.replace(`\n${done}\n`, '') };
  }

  close(): void {
    this.bash.kill('SIGKILL');
  }
}

/** A command that runs the service, started: whether it came up, what it printed so far, and how to stop it. */
export interface RunningService {
  ready: boolean;
  output(): string;
  /** SIGTERM to its process group, then SIGKILL if it is still there 15 s later. */
  stop(): Promise<void>;
}

/** The log line each role writes once it runs: the HTTP server listening, or the workers running. */
const STARTED = /"msg":"(svc listening on|call engine and webhook dispatcher running)/;

/**
 * Starts a command that runs the service (in a process group of its own, with PORT set) and waits until it says
 * it runs; `ready` is false when it did not within `timeoutMs` or exited first.
 */
export async function startService(command: string, env: Record<string, string>, port: number, timeoutMs: number): Promise<RunningService> {
  const child = spawn('bash', ['-c', command], { cwd: ROOT, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  killOnExit(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const end = Date.now() + timeoutMs;
  while (!STARTED.test(output) && child.exitCode === null && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone already
    }
  };
  return {
    ready: STARTED.test(output) && child.exitCode === null,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signal('SIGTERM');
      const killer = setTimeout(() => signal('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
