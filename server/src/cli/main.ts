// Entry point of the svc command (bin/svc.js runs it, transpiled, scripts/transpiled.mjs).
import { systemClock } from '../clock.js';
import { cliProgram } from '../cli-program.js';
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  now: systemClock.now,
  program: cliProgram(),
  async serve(role) {
    process.env.SVC_ROLE = role;
    await import('../main.js');
  },
  async mcp() {
    const { runStdioServer } = await import('../../../sdk/src/mcp/stdio-server.js');
    return runStdioServer(process.env, (text) => process.stderr.write(text));
  },
});
// `serve` and `mcp` keep running on their own handles; every other command ends here.
process.exitCode = code;
