// A stream served by an api process while a worker process runs the call: the two share nothing but the store.
// A sandbox call placed on the api process is followed there with the SDK's streamCall from placement to its end,
// while the key's stream (streamEvents) is open beside it; the events match the record the worker wrote, the use of
// the call's client tool (the sandbox's 555-0131 asks the worker's agent a question it looks up) among them. Then
// the api process, with the key's stream still open, stops on SIGTERM at once: shutdown ends the open streams.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcClient, type LiveEvent } from '../../sdk/src/index.js';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { FakeToolServer } from '../support/fake-tool-server.js';
import { emptySchema, requirePostgres, type EmptySchema } from './support/pg-schema.js';
import { startService, type ServiceProcess } from './support/service-process.js';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`a stream served by an api process while a worker process runs the call [${kind}]`, function () {
    this.timeout(120_000);
    let schema: EmptySchema | undefined;
    let dataDir: string;
    let store: Store;
    let processes: ServiceProcess[] = [];

    before(async function () {
      if (kind === 'postgres') {
        await requirePostgres(this);
        schema = await emptySchema();
      }
      dataDir = mkdtempSync(join(tmpdir(), 'svc-stream-'));
      store = schema ? openStore({ postgresUrl: schema.url, poolSize: 2 }) : openStore({ sqlitePath: join(dataDir, 'svc.db') });
      await migrate(store);
    });
    after(async () => {
      await Promise.all(processes.map((p) => p.kill()));
      await store?.close();
      await schema?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('streams the call from placement to its end, as the worker wrote it, and ends its open streams at shutdown', async () => {
      const env: Record<string, string> = {
        NODE_ENV: 'production',
        SVC_DATA_DIR: dataDir,
        ...(schema ? { DATABASE_URL: schema.url } : {}),
        SVC_SANDBOX_TIME_SCALE: '0.05',
        SVC_ENGINE_POLL_MS: '50',
        SVC_STREAM_POLL_MS: '50',
        // The test's tool server is on loopback.
        SVC_WEBHOOK_ALLOW_PRIVATE: '1',
      };
      const tools = await FakeToolServer.start();
      tools.defaultReply = { body: { answer: 'It arrives on Thursday' } };
      const now = Date.now();
      const accountId = await createAccount(store.db, { name: 'stream', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
      await addNumber(store.db, accountId, '+14155550100', now);
      const { key, row: keyRow } = await createKey(store.db, { accountId, name: 'stream', rateLimit: 100 }, now);
      processes = [await startService('api', env), await startService('worker', env)];
      const [api, worker] = processes;
      const sdk = new SvcClient({ apiKey: key, baseUrl: api.url });

      const all: LiveEvent[] = [];
      const keyStream = new AbortController();
      const following = (async () => {
        try {
          for await (const e of sdk.streamEvents({ signal: keyStream.signal })) all.push(e);
        } catch (err) {
          if (!keyStream.signal.aborted) throw err;
        }
      })();
      const parameters = { type: 'object' as const, properties: { question: { type: 'string' } } };
      const { callId } = await sdk.placeCall({
        to: '+14155550131',
        objective: 'Ask whether the shop is open on Sunday.',
        tools: [{ name: 'order_status', description: 'Looks up an order.', parameters, url: `${tools.url}/orders` }],
      });
      const got: LiveEvent[] = [];
      for await (const e of sdk.streamCall(callId)) got.push(e);

      const record = await sdk.getCall(callId);
      expect(record.status).to.equal('completed');
      const statuses = got.filter((e) => e.event === 'status').map((e) => e.data as any);
      const turns = got.filter((e) => e.event === 'turn').map((e) => e.data as any);
      expect(statuses.map((s) => s.status)).to.deep.equal(['queued', 'dialing', 'in_progress', 'completed']);
      expect(got.at(-1)!.event).to.equal('status');
      expect(turns.map((t) => ({ speaker: t.speaker, text: t.text, startSec: t.startSec, endSec: t.endSec }))).to.deep.equal(record.turns);
      expect(statuses[3]).to.include({ durationSec: record.durationSec, timestamp: record.endedAt });
      // The use the worker made of the tool, as the record lists it.
      expect(tools.hits).to.have.length(1);
      expect(record.toolCalls).to.have.length(1);
      const uses = got.filter((e) => e.event === 'tool_call').map((e) => e.data as any);
      expect(uses.map(({ id, callId, batchId, index, timestamp, ...use }) => use)).to.deep.equal(record.toolCalls);
      // The call was run by the worker: the api process runs no engine.
      const owner = await store.db.selectFrom('sandbox_dials').select('call_id').where('call_id', '=', callId).execute();
      expect(owner).to.have.length(1);
      expect(api.output()).to.not.include('call engine and webhook dispatcher running');
      expect(worker.output()).to.include('call engine and webhook dispatcher running');
      expect(keyRow.id).to.be.a('string');

      // The key's stream saw the same events (its ids are the call stream's data ids).
      const deadline = Date.now() + 5000;
      while (all.length < got.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(all.map((e) => e.data.id)).to.deep.equal(got.map((e) => e.data.id));

      // SIGTERM with the key's stream open: the api process ends it and exits well within its grace period.
      const t0 = Date.now();
      await api.stop();
      expect(Date.now() - t0).to.be.below(5000);
      expect(api.proc.exitCode).to.equal(0);
      keyStream.abort();
      await following;
      await tools.close();
    });
  });
}
