// Mocha's dot reporter, and after its summary the name of every skipped test (a suite that needs Postgres or
// Chromium skips when they are missing, and a dot summary would hide which).
'use strict';
const Mocha = require('mocha');

const { EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

class DotWithSkips extends Mocha.reporters.Dot {
  constructor(runner, options) {
    super(runner, options);
    const skipped = [];
    runner.on(EVENT_TEST_PENDING, (test) => skipped.push(test.fullTitle()));
    runner.once(EVENT_RUN_END, () => {
      if (skipped.length === 0) return;
      process.stdout.write(`  skipped (${skipped.length}):\n${skipped.map((t) => `    - ${t}\n`).join('')}\n`);
    });
  }
}

module.exports = DotWithSkips;
