// doctor: checks the configuration against the services it names, without placing a call (../doctor.ts).
import type { Command } from '../command.js';
import { runDoctor, type Check } from '../doctor.js';
import { integer } from '../arguments.js';

const MARK: Record<Check['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

function render(checks: Check[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${MARK[c.status]}  ${c.name}: ${c.detail}`);
    if (c.fix) lines.push(`      fix: ${c.fix}`);
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  lines.push('', failed === 0 ? 'Ready: nothing stands in the way of a first call.' : `${failed} check${failed === 1 ? '' : 's'} failed: fix ${failed === 1 ? 'it' : 'them'} before placing a call.`);
  return lines.join('\n');
}

export const doctorCommands: Command[] = [
  {
    name: 'doctor',
    summary: 'Check the configuration without placing a call: carrier credentials, caller ids, the public address, the model and voice keys; each with its fix.',
    synopsis: '[--timeout-ms <ms>]',
    options: { 'timeout-ms': { type: 'string' } },
    async run(ctx, values) {
      const timeoutMs = values['timeout-ms'] === undefined ? 10_000 : integer('--timeout-ms', String(values['timeout-ms']), 100, 60_000);
      const checks = await runDoctor(ctx.config, ctx.store, { timeoutMs, program: ctx.program });
      const failed = checks.some((c) => c.status === 'fail');
      ctx.emit({ ready: !failed, checks }, render(checks));
      return failed ? 1 : 0;
    },
  },
];
