// The live sandbox's rig, shared by the files that hold whole calls through the cascaded agent on the sandbox's live
// line: a store (SQLite in a fresh folder, or a fresh Postgres schema) with one account and key, an api process and a
// worker process (server/src/main.ts) sharing only that store, and the calls placed through the api, each waited on
// until it has ended. Its `before` and `after` are registered in the calling describe.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../../server/src/accounts/accounts-repo.js';
import { briefOf, type LineBrief } from '../../../server/src/conversation/conversation.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { migrate, type Store } from '../../../server/src/store/store.js';
import { emptySchema, requirePostgres, type EmptySchema } from '../../scale/support/pg-schema.js';
import { startService, type ServiceProcess } from '../../scale/support/service-process.js';
import { until } from '../../support/until.js';

export interface LiveSandboxOptions<N extends string> {
  kind: 'sqlite' | 'postgres';
  /** SVC_SANDBOX_TIME_SCALE: how fast the line's call time runs against the wall's. */
  timeScale: string;
  /** Each call's placeCall body, with the name the tests read it back by. */
  bodies: Array<[N, Record<string, unknown>]>;
  /** How long all of them may take to end. */
  endedWithinMs: number;
}

export interface LiveSandbox<N extends string, R> {
  store: Store;
  key: string;
  /** The api process's address. */
  apiUrl: string;
  /** Each call's record once every call has ended, by name. */
  calls: Map<N, R>;
  /** A call's callee's and agent's lines as `talk` scripts them from its row, as the services read it. */
  lines(id: string, talk: (brief: LineBrief) => Array<{ speaker: string; text: string }>): Promise<{ callee: string[]; agent: string[] }>;
}

export function liveSandbox<N extends string, R extends { status: string }>(o: LiveSandboxOptions<N>): LiveSandbox<N, R> {
  let schema: EmptySchema | undefined;
  let dataDir: string | undefined;
  let processes: ServiceProcess[] = [];
  const rig = { calls: new Map<N, R>() } as LiveSandbox<N, R>;
  rig.lines = async (id, talk) => {
    const row = await rig.store.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const turns = talk(briefOf(row));
    return { callee: turns.filter((t) => t.speaker === 'callee').map((t) => t.text), agent: turns.filter((t) => t.speaker === 'agent').map((t) => t.text) };
  };

  before(async function () {
    if (o.kind === 'postgres') {
      await requirePostgres(this);
      schema = await emptySchema();
    }
    dataDir = mkdtempSync(join(tmpdir(), 'svc-live-sandbox-'));
    rig.store = schema ? openStore({ postgresUrl: schema.url, poolSize: 2 }) : openStore({ sqlitePath: join(dataDir, 'svc.db') });
    await migrate(rig.store);
    const now = Date.now();
    const accountId = await createAccount(rig.store.db, { name: 'acme', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
    await addNumber(rig.store.db, accountId, '+14155550100', now);
    rig.key = (await createKey(rig.store.db, { accountId, name: 'acme', rateLimit: 100 }, now)).key;
    const env: Record<string, string> = {
      SVC_AGENT: 'cascaded',
      SVC_SANDBOX_TIME_SCALE: o.timeScale,
      SVC_DATA_DIR: dataDir,
      SVC_ENGINE_POLL_MS: '50',
      ...(schema ? { DATABASE_URL: schema.url } : {}),
    };
    processes = await Promise.all([startService('api', env), startService('worker', env)]);
    rig.apiUrl = processes[0]!.url;
    const auth = { authorization: `Bearer ${rig.key}` };
    const placed = new Map<N, string>();
    for (const [name, body] of o.bodies) {
      const res = await fetch(`${rig.apiUrl}/v1/agent/calls`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).to.equal(202);
      placed.set(name, ((await res.json()) as { callId: string }).callId);
    }
    await until(
      'every call ended',
      async () => {
        for (const [name, id] of placed) {
          const res = await fetch(`${rig.apiUrl}/v1/agent/calls/${id}`, { headers: auth });
          rig.calls.set(name, (await res.json()) as R);
        }
        return [...rig.calls.values()].every((c) => c.status !== 'queued' && c.status !== 'dialing' && c.status !== 'in_progress');
      },
      o.endedWithinMs,
      250,
    );
  });
  after(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await rig.store?.close();
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return rig;
}
