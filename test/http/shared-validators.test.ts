// The request validators of openapi.yaml are compiled once per process (operation-router.ts): the shipped document
// is parsed once and frozen, and every router built from it reuses what the first compiled. A document that is
// not frozen (a test's fixture) is compiled for each router, so a change to it between two builds is never missed.
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadDocument, shippedDocument, type OpenApiDocument } from '../../server/src/contract/openapi-document.js';
import { operationRouter, type Handler } from '../../server/src/http/operation-router.js';
import { startServer } from '../support/server.js';

const handlers = new Proxy({}, { get: () => (async () => {}) as Handler }) as Record<string, Handler>;
const build = (doc: OpenApiDocument, allowPrivateWebhooks = false) =>
  operationRouter({ doc, handlers, maxBodyBytes: 1024 * 1024, allowPrivateWebhooks, policyUrl: 'https://svc.example/docs/versioning', publicBaseUrl: 'https://svc.example' });

/** How many schemas Ajv compiles while `fn` runs. */
function compiles(fn: () => void): number {
  const original = Ajv2020.prototype.compile;
  let n = 0;
  Ajv2020.prototype.compile = function (this: Ajv2020, ...args: Parameters<typeof original>) {
    n++;
    return original.apply(this, args);
  } as typeof original;
  try {
    fn();
  } finally {
    Ajv2020.prototype.compile = original;
  }
  return n;
}

describe('the document the service reads', () => {
  it('is openapi.yaml exactly, from the JSON codegen writes of it (a fresh copy each load, the shipped one frozen)', () => {
    const yaml = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    const json = loadDocument();
    expect(json).to.deep.equal(yaml);
    expect(shippedDocument()).to.deep.equal(yaml);
    expect(loadDocument()).to.not.equal(json);
    expect(Object.isFrozen(json)).to.equal(false);
  });
});

describe('request validators', () => {
  it('are compiled once per process for the shipped document, which is one frozen object', () => {
    expect(shippedDocument()).to.equal(shippedDocument());
    expect(Object.isFrozen(shippedDocument().paths['/v1/agent/calls']!.post)).to.equal(true);
    build(shippedDocument());
    expect(compiles(() => build(shippedDocument()))).to.equal(0);
    // Each webhook setting has validators of its own (the webhook-url format depends on it).
    build(shippedDocument(), true);
    expect(compiles(() => build(shippedDocument(), true))).to.equal(0);
  });

  it('are compiled for each router when the document is not frozen, so a change between two builds holds', async () => {
    const doc = loadDocument();
    expect(compiles(() => build(doc))).to.be.above(0);
    expect(compiles(() => build(doc))).to.be.above(0);
    // The same object, changed after a first app was built from it: the next app checks by the change.
    const first = await startServer('sqlite', {}, { document: doc });
    await first.close();
    doc.components.schemas!.PlaceCallRequest.properties.objective.maxLength = 10;
    const srv = await startServer('sqlite', {}, { document: doc });
    try {
      const alice = await srv.tenant();
      const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
      expect([res.status, res.body.error]).to.deep.equal([400, 'invalid_objective']);
    } finally {
      await srv.close();
    }
  });
});
