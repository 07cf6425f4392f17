// The Python SDK's own suite (sdk-python/tests, pytest), which starts the service itself on a free loopback port.
// It runs with whichever python3 has pytest: SVC_PYTHON when set (CI sets Debian's), else python3 on PATH, else
// /usr/bin/python3. Without one it is skipped, unless SVC_TEST_PYTHON=required, which also requires that none of
// its tests is skipped.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { killOnExit } from '../support/kill-on-exit.js';

const required = process.env.SVC_TEST_PYTHON === 'required';

function pythonWithPytest(): string | undefined {
  const candidates = process.env.SVC_PYTHON ? [process.env.SVC_PYTHON] : ['python3', '/usr/bin/python3'];
  return candidates.find((python) => spawnSync(python, ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0);
}

describe('the Python SDK', function () {
  this.timeout(600_000);

  it('passes its pytest suite against the running service', async function () {
    const python = pythonWithPytest();
    if (!python) {
      if (required) throw new Error('SVC_TEST_PYTHON=required, but no python3 with pytest was found (Debian: apt-get install python3-pytest)');
      return this.skip();
    }
    // The suite starts the service with `node`: this one. No bytecode caches are written into the checkout.
    const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`, PYTHONDONTWRITEBYTECODE: '1' };
    const child = spawn(python, ['-m', 'pytest', 'sdk-python/tests', '-q', '-rfEs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    killOnExit(child);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code, output.slice(-12_000)).to.equal(0);
    const summary = output.trim().split('\n').pop() ?? '';
    expect(summary, output.slice(-4000)).to.match(/^\d+ passed/);
    if (required) expect(summary).not.to.match(/skipped/);
  });
});
