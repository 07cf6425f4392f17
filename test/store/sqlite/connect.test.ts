// Processes that open one new SQLite file at the same instant, as the services of a fresh install do: the switch
// to WAL mode takes the file's exclusive lock, and SQLite answers a contended switch with SQLITE_BUSY at once,
// without waiting (waiting could deadlock), so a process that loses the race must try the switch again rather
// than fail to start.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { runTsx } from '../../support/run-tsx.js';

const OPEN_IN_STEP = fileURLToPath(new URL('./support/open-in-step.ts', import.meta.url));
const PROCESSES = 4;
const ROUNDS = 40;

describe('opening a new SQLite file from several processes at once', function () {
  this.timeout(60_000);

  it(`${PROCESSES} processes, ${ROUNDS} fresh files each opened by all at one instant: every open succeeds, every file is in WAL mode`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-open-'));
    try {
      // The processes start (tsx, imports) well within the lead; each then opens file r at start + r * 50 ms.
      const start = Date.now() + 4000;
      const results = await Promise.all(Array.from({ length: PROCESSES }, () => runTsx(OPEN_IN_STEP, [dir, String(ROUNDS), String(start), '50'])));
      for (const r of results) expect(r.code, r.err).to.equal(0);
      expect(results.map((r) => JSON.parse(r.out))).to.deep.equal(Array.from({ length: PROCESSES }, () => []));
      for (let round = 0; round < ROUNDS; round++) {
        const db = new SQLite(join(dir, `${round}.db`), { readonly: true });
        expect(db.pragma('journal_mode', { simple: true }), `file ${round}`).to.equal('wal');
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
