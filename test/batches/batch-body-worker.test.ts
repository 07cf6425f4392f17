// The batch thread's client: bodies are checked on the thread with the same answers as in the event loop, their
// bytes moved there, refusals come back as the ApiError they are, and a thread that ends fails only the checks it
// had, the next check starting a new one.
import { expect } from 'chai';
import type { ApiKeyRow } from '../../server/src/accounts/accounts-repo.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../server/src/placement/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from '../../server/src/numbers/irsf.js';
import { checkBatchBody, type BatchBodyInput } from '../../server/src/batches/batch-body.js';
import { BatchBodyWorker } from '../../server/src/batches/batch-body-worker.js';
import { ApiError, errorBody } from '../../server/src/errors/api-error.js';

const key = { id: 'key-1', account_id: 'acc-1', default_caller_id: null, default_voice: null, calling_window_json: null } as unknown as ApiKeyRow;
const settings = { allowPrivateWebhooks: false, catalogue: DEFAULT_AGENT_CATALOGUE, irsf: [...IrsfList.load(DEFAULT_IRSF_PATH).prefixes] };
const input = (body: unknown, over: Partial<BatchBodyInput> = {}): BatchBodyInput => ({
  bytes: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  key,
  now: Date.UTC(2026, 10, 22, 12),
  fingerprint: true,
  settings,
  ...over,
});
const objective = 'Ask whether the shop is open on Sunday.';

describe('the batch thread', () => {
  const worker = new BatchBodyWorker();
  after(() => worker.close());

  it('answers as the event loop would: the calls that pass, the errors of those that do not, and the fingerprint', async () => {
    const body = { defaults: { objective }, calls: [{ to: '+14155552000' }, { to: '+1415' }, { to: '+14155552001', voice: 'robot' }], maxConcurrency: 2 };
    const there = await worker.check(input(body));
    const here = await checkBatchBody(input(body));
    expect(there).to.deep.equal(here);
    const errors = JSON.parse(Buffer.from(there.errorsJson).toString('utf8')) as { index: number; error: string }[];
    expect([there.total, there.maxConcurrency, there.passed.map((c) => c.index), there.failed, errors.map((e) => [e.index, e.error])]).to.deep.equal([
      3,
      2,
      [0],
      2,
      [
        [1, 'invalid_number'],
        [2, 'invalid_voice'],
      ],
    ]);
    expect(there.fingerprint).to.match(/^[0-9a-f]{64}$/);
  });

  it('refuses a body with the ApiError the event loop would throw, message, fields and all', async () => {
    for (const body of ['{"calls": [', '{"calls": []}', '{"calls": [{"to": "+14155552000"}], "startAt": "soon"}', `{"calls": ${'['.repeat(40)}${']'.repeat(40)}}`]) {
      const there = await worker.check(input(body)).catch((e: unknown) => e);
      const here = await checkBatchBody(input(body)).catch((e: unknown) => e);
      expect(there).to.be.instanceOf(ApiError);
      expect([(there as ApiError).status, (there as ApiError).token, (there as ApiError).message]).to.deep.equal([(here as ApiError).status, (here as ApiError).token, (here as ApiError).message]);
      // Its body rendered on the thread, as the error path renders one.
      expect(JSON.parse(Buffer.from((there as ApiError).body!).toString('utf8'))).to.deep.equal(errorBody(here as ApiError));
    }
  });

  it('moves the bytes to the thread rather than copying them', async () => {
    const bytes = new Uint8Array(Buffer.from(JSON.stringify({ defaults: { objective }, calls: [{ to: '+14155552000' }] })));
    expect(bytes.byteLength).to.be.above(0);
    await worker.check(input('', { bytes }));
    expect(bytes.byteLength).to.equal(0);
  });
});

describe('a batch thread that fails', () => {
  const worker = new BatchBodyWorker(new URL('./fixtures/failing-batch-thread.mjs', import.meta.url));
  after(() => worker.close());
  const as = (id: string) => input('{}', { key: { ...key, id } as ApiKeyRow });

  it('rejects the checks it had when it ends, and the next check starts a new thread', async () => {
    const lost = await worker.check(as('exit')).catch((e: Error) => e);
    expect(String(lost)).to.equal('Error: the batch thread exited (code 3)');
    expect(await worker.check(as('fine'))).to.deep.equal({ total: 1, bytes: 2 });
  });

  it('rejects a check it answers with a fault as an error, not as a refusal', async () => {
    const fault = await worker.check(as('fault')).catch((e: Error) => e);
    expect(fault).to.not.be.instanceOf(ApiError);
    expect(String(fault)).to.equal('Error: the batch thread failed: Error: boom');
  });
});
