// Errors Koa meets after the middleware has returned (a broken response stream) are one log line, and a client
// that hung up is none: nothing is printed raw to stderr.
import { expect } from 'chai';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { freshStore, type TestStore } from '../../support/stores.js';
import { observedApp, type ObservedApp } from './observed-app.js';

function failingStream(code: string): Readable {
  return new Readable({
    read() {
      this.destroy(Object.assign(new Error(`stream failed (${code})`), { code }));
    },
  });
}

describe('errors after the middleware', () => {
  let ts: TestStore;
  let app: ObservedApp;
  let code = 'EIO';
  beforeEach(async () => {
    ts = await freshStore('sqlite');
    app = await observedApp(ts.store, {
      handlers: {
        getCall: async (ctx) => {
          ctx.type = 'application/json';
          ctx.body = failingStream(code);
        },
      },
    });
  });
  afterEach(async () => {
    await app.close();
    await ts.drop();
  });

  const errors = () => app.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.msg === 'response failed');

  async function getCall(): Promise<void> {
    const { key } = await app.tenant();
    await fetch(`${app.baseUrl}/v1/agent/calls/0198f0a0-0000-7000-8000-000000000000`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'req-stream-1' } })
      .then((r) => r.text())
      .catch(() => undefined);
    for (let i = 0; i < 50 && !app.lines.some((l) => l.includes('"msg":"request"')); i++) await new Promise((r) => setTimeout(r, 10));
  }

  it('logs a broken response stream once, at error level, with the request id', async () => {
    code = 'EIO';
    await getCall();
    const logged = errors();
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include({ level: 50, reqId: 'req-stream-1' }); // pino's error level
    expect((logged[0].err as { code: string }).code).to.equal('EIO');
  });

  it('logs nothing when the stream broke because the client went away', async () => {
    code = 'ERR_STREAM_PREMATURE_CLOSE';
    await getCall();
    expect(errors()).to.deep.equal([]);
  });
});

describe('a client that hangs up mid-body', () => {
  let ts: TestStore;
  let app: ObservedApp;
  beforeEach(async () => {
    ts = await freshStore('sqlite');
    app = await observedApp(ts.store);
  });
  afterEach(async () => {
    await app.close();
    await ts.drop();
  });

  /** Sends the headers and the start of a body promising 100 bytes, then closes (end) or resets (destroy). */
  async function hangUp(how: 'end' | 'destroy'): Promise<void> {
    const { key } = await app.tenant();
    const { hostname, port } = new URL(app.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /v1/agent/calls HTTP/1.1\r\nHost: svc\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"to":`);
    await new Promise((r) => setTimeout(r, 100));
    socket[how]();
    for (let i = 0; i < 100 && !app.lines.some((l) => l.includes('"msg":"request"')); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
  }

  for (const how of ['end', 'destroy'] as const) {
    it(`is not logged at warn or error level when it closes the connection (${how})`, async () => {
      await hangUp(how);
      const records = app.lines.map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(records.map((r) => r.msg)).to.include('request');
      expect(records.filter((r) => r.level >= 40)).to.deep.equal([]);
    });
  }
});
