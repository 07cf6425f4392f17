// What a generic contract tool reads in openapi.yaml: examples that are valid and, sent as they are, place a call;
// links it can follow from a placement to the call and its recording; custom formats it can read in words and
// as patterns.
import { expect } from 'chai';
import { loadDocument, resolveRef, type OpenApiDocument } from '../../server/src/contract/openapi-document.js';
import { ajvFor, pointer } from '../../server/src/contract/schema-ajv.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const doc = loadDocument() as OpenApiDocument & Record<string, any>;
const ajv = ajvFor(doc, { allowPrivateWebhooks: false });
const place = doc.paths['/v1/agent/calls'].post as any;
const requestExamples = Object.entries<{ value: Record<string, unknown> }>(place.requestBody.content['application/json'].examples);

describe('openapi.yaml for generic tools', () => {
  it('has request examples for placeCall, each valid against PlaceCallRequest (its formats included)', () => {
    expect(requestExamples.map(([name]) => name)).to.deep.equal(['minimal', 'withFields']);
    const validate = ajv.compile({ $ref: pointer('components', 'schemas', 'PlaceCallRequest') });
    for (const [name, { value }] of requestExamples) expect(validate(value), `${name}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
  });

  it('has a valid example for each success body: PlaceCallResponse, CallRecord and CallList', () => {
    const bodies: [string, string, string][] = [
      ['/v1/agent/calls', 'post', '202'],
      ['/v1/agent/calls/{id}', 'get', '200'],
      ['/v1/agent/calls', 'get', '200'],
    ];
    for (const [path, method, status] of bodies) {
      const media = (doc.paths[path] as any)[method].responses[status].content['application/json'];
      expect(media.example, `${method} ${path} ${status}`).to.be.an('object');
      const validate = ajv.compile({ $ref: pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema') });
      expect(validate(media.example), `${method} ${path}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    }
  });

  it('links a placement to getCall and getCallRecording by the callId in its body', () => {
    const links = place.responses['202'].links;
    expect(Object.keys(links)).to.deep.equal(['GetCall', 'GetCallRecording']);
    const operations = Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId));
    for (const link of Object.values<any>(links)) {
      expect(operations).to.include(link.operationId);
      expect(link.parameters).to.deep.equal({ id: '$response.body#/callId' });
    }
  });

  it('describes its own formats, e164 and webhook-url, in words and with the pattern every such property carries', () => {
    const words = String(doc.info.description).replace(/\s+/g, ' ');
    expect(words).to.include('`e164`: `+` then 7 to 15 digits').and.include('`webhook-url`: an absolute `https` URL');
    const props = resolveRef<any>(doc, doc.components.schemas!.PlaceCallRequest).properties;
    for (const [name, prop] of Object.entries<any>(props)) {
      if (prop.format === 'e164' || prop.format === 'webhook-url') {
        expect(prop.pattern, name).to.be.a('string');
        expect(words, name).to.include(prop.pattern);
      }
    }
  });

  it('says which API responses have no rate-limit headers, and declares them on the 500', () => {
    expect(doc.components.responses!.StoreError.description).to.include('without the RateLimit-* headers');
    expect(Object.keys((doc.components.responses as any).InternalError.headers)).to.deep.equal(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']);
  });
});

forEachStore('the contract examples against the service', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant();
  });
  afterEach(() => srv.close());

  for (const [name, { value }] of requestExamples) {
    it(`places a call with the ${name} example as it is, and its links lead to the call`, async () => {
      const res = await alice.api.post('/v1/agent/calls', { body: value });
      expect(res.status).to.equal(202);
      const id = res.body.callId; // $response.body#/callId
      const call = await alice.api.get(`/v1/agent/calls/${id}`);
      expect(call.status).to.equal(200);
      expect(call.body).to.include({ id, status: 'queued', to: value.to });
      expect((await alice.api.get(`/v1/agent/calls/${id}/recording`)).status).to.equal(404); // not yet: it has not rung
    });
  }
});
