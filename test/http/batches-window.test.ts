// What a batch costs its sender, on both stores: once its body has been read, a batch request counts once against
// the key's calls window whether it is created or refused (invalid JSON, a bad call, a bad field, a reused
// Idempotency-Key); a replay of its stored answer spends nothing, and neither does a refusal made before the body
// is read. While the window is full, a batch is 429 before its body is read, and the connection is closed so the
// rest of it never is. A placeCall refused still spends nothing, as the SPEC says.
import { expect } from 'chai';
import { connect } from 'node:net';
import { batchBodyWorker } from '../../server/src/batches/batch-body-worker.js';
import type { ApiResponse } from '../support/contract.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const objective = 'Ask whether the shop is open on Sunday.';
const good = { defaults: { objective }, calls: [{ to: '+14155552000' }, { to: '+14155552001' }] };
const remaining = (res: ApiResponse) => res.headers.get('ratelimit-remaining');

forEachStore("a batch's cost to its sender", (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 5 });
  });
  afterEach(() => srv.close());

  const create = (opts: Parameters<TestTenant['api']['post']>[1], tenant = alice) => tenant.api.post('/v1/agent/batches', opts);
  const json = (text: string, headers: Record<string, string> = {}) => ({ rawBody: text, headers: { 'content-type': 'application/json', ...headers } });

  it('counts each batch refused after its body was read once against the calls window, like one created', async () => {
    const answers = [
      await create(json('{"calls": [')),
      await create({ body: { defaults: { objective }, calls: [{ to: '+1415' }] } }),
      await create({ body: { calls: [] } }),
      await create({ body: good }),
      await create({ body: { ...good, surprise: 1 } }),
    ];
    expect(answers.map((r) => [r.status, r.body.error ?? null, remaining(r)])).to.deep.equal([
      [400, 'invalid_json', '4'],
      [400, 'invalid_batch', '3'],
      [400, 'invalid_calls', '2'],
      [202, null, '1'],
      [400, 'unknown_field', '0'],
    ]);
    const next = await create({ body: good });
    expect([next.status, next.body.error, remaining(next), next.headers.get('connection')]).to.deep.equal([429, 'rate_limited', '0', 'close']);
    expect(await srv.deps.store.db.selectFrom('batches').selectAll().execute()).to.have.length(1);
  });

  it('spends nothing on a replay of its stored answer, and once on a reused Idempotency-Key', async () => {
    const first = await create({ body: good, headers: { 'idempotency-key': 'b-1' } });
    const replay = await create({ body: good, headers: { 'idempotency-key': 'b-1' } });
    const reused = await create({ body: { ...good, maxConcurrency: 1 }, headers: { 'idempotency-key': 'b-1' } });
    expect([first, replay, reused].map((r) => [r.status, remaining(r)])).to.deep.equal([
      [202, '4'],
      [202, '4'],
      [422, '3'],
    ]);
  });

  it('spends nothing on a refusal made before the body is read: another media type, too large, no body, a bad Idempotency-Key', async () => {
    const answers = [
      await create({ rawBody: JSON.stringify(good), headers: { 'content-type': 'text/plain' } }),
      await create(json(`{"calls":[],"pad":"${'x'.repeat(16 * 1024 * 1024)}"}`)),
      await create({}),
      await create({ body: good, headers: { 'idempotency-key': 'k'.repeat(256) } }),
    ];
    expect(answers.map((r) => [r.status, r.body.error, remaining(r)])).to.deep.equal([
      [415, 'unsupported_media_type', '5'],
      [413, 'payload_too_large', '5'],
      [400, 'invalid_body', '5'],
      [400, 'invalid_idempotency_key', '5'],
    ]);
  });

  it('still spends nothing on a refused placeCall', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { objective, to: '+1415' } });
    expect([res.status, res.body.error, remaining(res)]).to.deep.equal([400, 'invalid_number', '5']);
  });

  it('answers a batch sent while the window is full with 429 before reading its body, and closes the connection', async () => {
    const bob = await srv.tenant({ rateLimit: 1 });
    expect((await create({ body: good }, bob)).status).to.equal(202);
    const checked = batchBodyWorker.checked;
    // Headers announcing 15 MiB and a few bytes of it: the answer comes without the rest, and the server hangs up.
    const { hostname, port } = new URL(srv.baseUrl);
    const socket = connect(Number(port), hostname);
    const text = await new Promise<string>((resolve, reject) => {
      let got = '';
      socket.setEncoding('utf8');
      socket.on('data', (d) => (got += d));
      socket.on('error', reject);
      socket.on('close', () => resolve(got));
      socket.write(`POST /v1/agent/batches HTTP/1.1\r\nHost: svc\r\nAuthorization: Bearer ${bob.key}\r\nContent-Type: application/json\r\nContent-Length: ${15 * 1024 * 1024}\r\n\r\n{"calls":[`);
    });
    const head = text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();
    expect(head.split('\r\n')[0]).to.equal('http/1.1 429 too many requests');
    expect(head).to.include('\r\nconnection: close');
    expect(head).to.include('\r\nratelimit-remaining: 0');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error).to.equal('rate_limited');
    expect(batchBodyWorker.checked).to.equal(checked);
  });

  it('answers a client still sending 15 MiB while the window is full with the 429', async () => {
    const bob = await srv.tenant({ rateLimit: 1 });
    expect((await create({ body: good }, bob)).status).to.equal(202);
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ to: `+1415555${String(2000 + (i % 8000)).padStart(4, '0')}`, context: 'c'.repeat(1550) }));
    const big = JSON.stringify({ defaults: { objective }, calls });
    expect(big.length).to.be.within(15 * 1024 * 1024, 16 * 1024 * 1024);
    const res = await create(json(big), bob);
    expect([res.status, res.body.error]).to.deep.equal([429, 'rate_limited']);
  });
});
