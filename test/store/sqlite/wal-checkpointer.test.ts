// The service's SQLite log is checkpointed by a worker thread (wal-checkpointer.ts), not inside the COMMIT that
// fills it: what it copies reaches the database file, the writer keeps a backstop, and it ends with the store.
import { expect } from 'chai';
import SQLite from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrate } from '../../../server/src/store/store.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { BACKSTOP_PAGES, WalCheckpointer, type CheckpointResult } from '../../../server/src/store/sqlite/wal-checkpointer.js';

describe('the WAL checkpointer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function writer(path: string): SQLite.Database {
    const db = new SQLite(path);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0'); // only the worker checkpoints here
    db.exec('create table t (n integer primary key, s text)');
    return db;
  }

  it('copies every committed frame into the database file from its worker thread', async () => {
    const path = join(dir, 'a.db');
    const db = writer(path);
    const insert = db.prepare('insert into t (s) values (?)');
    db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run('x'.repeat(200));
    })();
    const results: CheckpointResult[] = [];
    const checkpointer = new WalCheckpointer(path, { intervalMs: 60_000, onResult: (r) => results.push(r) });
    try {
      // The first request may arrive before the worker is listening; ask until a checkpoint reports.
      for (let i = 0; i < 200 && results.length === 0; i++) {
        checkpointer.checkpointNow();
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(results.length).to.be.greaterThan(0);
      const [first] = results;
      expect(first.busy).to.equal(0);
      expect(first.log).to.be.greaterThan(20);
      expect(first.checkpointed).to.equal(first.log);
      // The database file alone, without its log, now holds the rows.
      const copy = join(dir, 'copy.db');
      copyFileSync(path, copy);
      const alone = new SQLite(copy, { readonly: true });
      expect(alone.prepare('select count(*) as n from t').get()).to.deep.equal({ n: 500 });
      alone.close();
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('checkpoints on its interval without being asked', async () => {
    const path = join(dir, 'b.db');
    const db = writer(path);
    db.prepare('insert into t (s) values (?)').run('y');
    const results: CheckpointResult[] = [];
    const checkpointer = new WalCheckpointer(path, { intervalMs: 20, onResult: (r) => results.push(r) });
    try {
      for (let i = 0; i < 200 && !results.some((r) => r.log > 0 && r.checkpointed === r.log); i++) await new Promise((r) => setTimeout(r, 25));
      expect(results.some((r) => r.log > 0 && r.checkpointed === r.log)).to.equal(true);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('reports a worker that cannot open the database once, and close still resolves', async () => {
    const errors: string[] = [];
    const checkpointer = new WalCheckpointer(join(dir, 'missing', 'x.db'), { intervalMs: 10, onError: (m) => errors.push(m) });
    for (let i = 0; i < 200 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(errors).to.have.length(1);
    expect(errors[0]).to.match(/unable to open database file|directory does not exist/);
    await checkpointer.close();
    await checkpointer.close();
  });

  it('does not keep alive a process that has nothing else to do', async () => {
    const path = join(dir, 'c.db');
    writer(path).close();
    const module = new URL('../../../server/src/store/sqlite/wal-checkpointer.ts', import.meta.url).href;
    const script = `import { WalCheckpointer } from ${JSON.stringify(module)}; new WalCheckpointer(${JSON.stringify(path)}, { intervalMs: 10 }); console.log('started');`;
    const started = Date.now();
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
    expect({ code, out }).to.deep.equal({ code: 0, out: 'started\n' });
    expect(Date.now() - started).to.be.lessThan(15_000);
  });

  it('is what a store opened for the service uses: the writer auto-checkpoints only as a backstop, and close ends the worker', async () => {
    const path = join(dir, 'svc.db');
    const store = openStore({ sqlitePath: path, checkpointInBackground: true });
    await migrate(store);
    const [row] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db)).rows;
    expect(row.wal_autocheckpoint).to.equal(BACKSTOP_PAGES);
    await store.close();

    const plain = openStore({ sqlitePath: join(dir, 'plain.db') });
    const [plainRow] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(plain.db)).rows;
    expect(plainRow.wal_autocheckpoint).to.equal(1000);
    await plain.close();
  });
});
