// Child processes that must not outlive the process that started them (service processes of the tests and the
// benchmarks): a run that dies, however it dies, leaves none behind to load the runs after it.
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills `child` when this process exits, unless it has exited first. */
export function killOnExit(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  running.add(child);
  child.once('exit', () => running.delete(child));
}
