import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe('the test reporter', () => {
  // Run as `npx mocha <file>` runs one file: the whole suite is the npm test script's glob, not the mocha config's.
  it('runs only the file it is given, and names every skipped test after the summary', async () => {
    const { stdout } = await run(process.execPath, ['node_modules/mocha/bin/mocha.js', 'test/support/fixtures/skips.fixture.ts'], { timeout: 60_000 });
    expect(stdout).to.include('1 passing').and.include('2 pending');
    expect(stdout.slice(stdout.indexOf('2 pending'))).to.include('  skipped (2):\n    - a suite with skips is skipped with this.skip()\n    - a suite with skips is written as skipped\n');
  });
});
