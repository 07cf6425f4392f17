import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MOCHA = 'node_modules/mocha/bin/mocha.js';

describe('the test reporter', () => {
  // Run as `npx mocha <file>` runs one file: the whole suite is the npm test script's glob, not the mocha config's.
  it('runs only the file it is given, and names every skipped test after the summary', async () => {
    const { stdout } = await run(process.execPath, [MOCHA, 'test/support/fixtures/skips.fixture.ts'], { timeout: 60_000 });
    expect(stdout).to.include('1 passing').and.include('2 pending');
    expect(stdout.slice(stdout.indexOf('2 pending'))).to.include('  skipped (2):\n    - a suite with skips is skipped with this.skip()\n    - a suite with skips is written as skipped\n');
    expect(stdout.endsWith('\ntests: 1 passed, 0 failed, 2 skipped\n')).to.equal(true);
  });

  // npm test runs in mocha's parallel mode, where the reporter hears each file's events from its worker.
  it('reports a parallel run whole: the failure, the skipped tests and the counts, and exits non-zero', async () => {
    const failed = await run(process.execPath, [MOCHA, '--parallel', '--jobs', '2', 'test/support/fixtures/skips.fixture.ts', 'test/support/fixtures/fails.fixture.ts'], { timeout: 60_000 }).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).to.equal(1);
    const stdout = failed!.stdout;
    expect(stdout).to.include('2 passing').and.include('2 pending').and.include('1 failing');
    expect(stdout).to.include('1) a suite with a failure\n       fails:\n');
    expect(stdout).to.include('  skipped (2):\n    - a suite with skips is skipped with this.skip()\n    - a suite with skips is written as skipped\n');
    expect(stdout.endsWith('\ntests: 2 passed, 1 failed, 2 skipped\n')).to.equal(true);
  });
});
