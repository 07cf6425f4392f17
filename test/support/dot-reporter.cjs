// Mocha's dot reporter, and after its summary the name of every skipped test (a suite that needs Postgres or
// Chromium skips when they are missing, and a dot summary would hide which), then the counts on one plain line
// ('tests: N passed, N failed, N skipped'), the closing line CI reads. It uses only the runner's events, so it
// reports a parallel run (npm test) as it does a serial one.
'use strict';
const Mocha = require('mocha');

const { EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

class DotWithSkips extends Mocha.reporters.Dot {
  constructor(runner, options) {
    super(runner, options);
    const skipped = [];
    runner.on(EVENT_TEST_PENDING, (test) => skipped.push(test.fullTitle()));
    runner.once(EVENT_RUN_END, () => {
      if (skipped.length > 0) process.stdout.write(`  skipped (${skipped.length}):\n${skipped.map((t) => `    - ${t}\n`).join('')}\n`);
      const { passes, failures, pending } = this.stats;
      process.stdout.write(`tests: ${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

module.exports = DotWithSkips;
