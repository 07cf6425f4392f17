// Mocha's root hooks, loaded by .mocharc.json for every run: after the run (and, in a parallel run, after each file
// in its worker) the Postgres schemas kept for reuse are dropped, so no run leaves any behind.
import { dropSpareSchemas } from './stores.js';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await dropSpareSchemas();
  },
};
