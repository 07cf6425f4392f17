import { expect } from 'chai';
import { newApiKey, newWebhookSecret } from '../../../server/src/accounts/secrets.js';
import { acceptedRequestId } from '../../../server/src/http/observability/request-observer.js';
import { scrubSecrets } from '../../../server/src/http/observability/service-logger.js';
import { freshStore, type TestStore } from '../../support/stores.js';
import { observedApp, type ObservedApp } from './observed-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' };

describe('request logs and request ids', () => {
  let ts: TestStore;
  let app: ObservedApp;
  const leakedSecret = newWebhookSecret();
  beforeEach(async () => {
    ts = await freshStore('sqlite');
    app = await observedApp(ts.store, {
      handlers: {
        getCall: async () => {
          throw new Error(`boom while signing with ${leakedSecret}`);
        },
      },
    });
  });
  afterEach(async () => {
    await app.close();
    await ts.drop();
  });

  const records = () => app.lines.map((l) => JSON.parse(l) as Record<string, unknown>);

  it('answers with a new X-Request-Id and writes one request line carrying it', async () => {
    const res = await fetch(`${app.baseUrl}/healthz`);
    const id = res.headers.get('x-request-id')!;
    expect(id).to.match(UUID);
    const lines = records().filter((r) => r.msg === 'request');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ reqId: id, method: 'GET', path: '/healthz', operation: 'healthz', status: 200, name: 'svc', level: 30 });
  });

  it('keeps a sane incoming X-Request-Id and replaces one that is too long, odd or secret-looking', async () => {
    const kept = await fetch(`${app.baseUrl}/healthz`, { headers: { 'X-Request-Id': 'edge-7f3a.01:2' } });
    expect(kept.headers.get('x-request-id')).to.equal('edge-7f3a.01:2');
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', `id-${newApiKey()}`]) {
      const res = await fetch(`${app.baseUrl}/healthz`, { headers: { 'X-Request-Id': bad } });
      expect(res.headers.get('x-request-id'), bad).to.match(UUID);
    }
    expect(acceptedRequestId('')).to.equal(null);
    expect(acceptedRequestId('a'.repeat(128))).to.equal('a'.repeat(128));
  });

  it('tags the lines logged inside a request, such as an unexpected fault, with its request id', async () => {
    const res = await fetch(`${app.baseUrl}/v1/agent/calls/00000000-0000-4000-8000-000000000000`, { headers: { Authorization: `Bearer ${(await app.tenant()).key}` } });
    expect(res.status).to.equal(500);
    const id = res.headers.get('x-request-id')!;
    const fault = records().find((r) => r.msg === 'unexpected fault')!;
    expect(fault.reqId).to.equal(id);
    expect(records().find((r) => r.msg === 'request')).to.include({ reqId: id, operation: 'getCall', status: 500, level: 40 });
  });

  it('labels unknown routes "unmatched" and still gives them a request id', async () => {
    const res = await fetch(`${app.baseUrl}/nowhere/${'x'.repeat(20)}`);
    expect(res.status).to.equal(404);
    expect(records().find((r) => r.msg === 'request')).to.include({ reqId: res.headers.get('x-request-id'), operation: 'unmatched', status: 404 });
  });

  it('never writes a key or a webhook secret: a valid key, a bad key, a secret in a fault and in a query', async () => {
    const { key } = await app.tenant();
    const badKey = newApiKey();
    const placed = await fetch(`${app.baseUrl}/v1/agent/calls?token=${key}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'X-Request-Id': key },
      body: JSON.stringify(ok),
    });
    expect(placed.status).to.equal(202);
    const refused = await fetch(`${app.baseUrl}/v1/agent/calls`, { headers: { Authorization: `Bearer ${badKey}` } });
    expect(refused.status).to.equal(401);
    const fault = await fetch(`${app.baseUrl}/v1/agent/calls/00000000-0000-4000-8000-000000000000`, { headers: { Authorization: `Bearer ${key}` } });
    expect(fault.status).to.equal(500);
    app.logger.info({ headers: { authorization: `Bearer ${key}` }, webhookSecret: leakedSecret }, `created key ${key}`);

    const all = app.lines.join('');
    expect(
      records()
        .filter((r) => r.msg === 'request')
        .map((r) => r.status),
    ).to.deep.equal([202, 401, 500]);
    for (const secret of [key, key.slice(7), badKey, badKey.slice(7), leakedSecret, leakedSecret.slice(6)]) expect(all).to.not.include(secret);
    expect(all).to.include('whsec_[redacted]');
    expect(records().at(-1)).to.include({ msg: 'created key svc_ak_[redacted]', webhookSecret: '[redacted]' });
  });

  it('scrubs keys and secrets wherever they appear in a text', () => {
    expect(scrubSecrets('a svc_ak_AbC-_9 b "whsec_x1" svc_akX')).to.equal('a svc_ak_[redacted] b "whsec_[redacted]" svc_akX');
    expect(scrubSecrets('token_svc_ak_AbC9 id=whsec_Zz')).to.equal('token_svc_ak_[redacted] id=whsec_[redacted]');
  });
});
