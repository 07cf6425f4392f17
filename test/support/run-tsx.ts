// Runs `node --import tsx <script> <args…>` to its exit: its exit code and what it wrote to each stream.
import { spawn } from 'node:child_process';

export function runTsx(script: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout!.on('data', (c) => (out += c));
    p.stderr!.on('data', (c) => (err += c));
    p.once('exit', (code) => resolve({ code, out, err }));
  });
}
