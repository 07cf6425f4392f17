// Mocha's root hooks, loaded by .mocharc.json for every run. In a parallel run (npm test) they run around each file
// in its worker; in a serial one, around the whole run. After: the Postgres schemas kept for reuse are dropped, so no
// run leaves any behind, and, when scripts/test-suite.mjs asks (SVC_TEST_TIMES_LOG), the file's time is noted.
import { appendFileSync } from 'node:fs';
import { dropSpareSchemas } from './stores.js';

let began = 0;

export const mochaHooks = {
  beforeAll(): void {
    began = Date.now();
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    await dropSpareSchemas();
    const log = process.env.SVC_TEST_TIMES_LOG;
    const file = this.test?.parent?.suites[0]?.file;
    if (log && file) appendFileSync(log, `${JSON.stringify({ file, ms: Date.now() - began })}\n`);
  },
};
