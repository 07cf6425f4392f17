// The client tools' registry and their requests through the webhook SSRF guard, without a call: a call without
// tools keeps svc's registry; a call's tools come after svc's, offered as placed; a url whose host resolves to a
// private address is refused without a connection (the model is told, the use recorded), and one that resolves to
// a public address is connected to that address and no other, whatever a second lookup would say.
import { expect } from 'chai';
import type https from 'node:https';
import { pino } from 'pino';
import { ClientTools } from '../../server/src/voice-agent/client-tools.js';
import { CALL_TOOLS, type ToolContext } from '../../server/src/voice-agent/tools.js';
import type { ToolCall } from '../../server/src/generated/types.gen.js';
import type { LineBrief } from '../../server/src/conversation/conversation.js';
import type { RequestFn } from '../../server/src/webhooks/webhook-sender.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';

const PARAMETERS = { type: 'object', properties: { sku: { type: 'string' } } };

forEachStore('client tools', (kind) => {
  let ts: TestStore;
  let keyId: string;
  beforeEach(async () => {
    ts = await freshStore(kind);
    const now = Date.now();
    const accountId = await createAccount(ts.store.db, { name: 'acme', planMinutes: 100, defaultCallerId: '+14155550100' }, now);
    await addNumber(ts.store.db, accountId, '+14155550100', now);
    keyId = (await createKey(ts.store.db, { accountId, name: 'k', rateLimit: 10 }, now)).row.id;
  });
  afterEach(() => ts.drop());

  const brief = (url: string): LineBrief => ({
    callId: '0199a3b0-5a1c-7d2e-9f00-1a2b3c4d5e6f',
    objective: 'Ask about the kettle.',
    context: null,
    fields: [],
    language: 'en-US',
    voice: 'alloy',
    clientTools: { tools: [{ name: 'check_stock', description: 'Checks stock.', parameters: PARAMETERS, url, timeoutMs: 1000 }], apiKeyId: keyId, metadata: null },
  });
  const context = (recorded: ToolCall[]): ToolContext => ({
    callId: 'c',
    line: {} as ToolContext['line'],
    logger: pino({ level: 'silent' }),
    endCall() {},
    recordOptOut: async () => undefined,
    recordToolCall: async (call) => void recorded.push(call),
  });

  it("keeps svc's registry for a call without tools, and offers a call's tools after svc's own", () => {
    const tools = new ClientTools(ts.store.db, { allowPrivate: false });
    const { clientTools: _, ...without } = brief('https://tools.example.com/stock');
    expect(tools.registry(without, CALL_TOOLS)).to.equal(CALL_TOOLS);
    const registry = tools.registry(brief('https://tools.example.com/stock'), CALL_TOOLS);
    expect(registry.offered.map((t) => t.name)).to.deep.equal(['end_call', 'record_opt_out', 'voicemail_detected', 'press_keys', 'wait_on_hold', 'keep_listening', 'check_stock']);
    expect(registry.offered[6]).to.deep.equal({ type: 'function', name: 'check_stock', description: 'Checks stock.', parameters: PARAMETERS });
    expect(registry.find('check_stock')?.remote).to.equal(true);
    expect(CALL_TOOLS.find('end_call')?.remote).to.equal(undefined);
  });

  it('refuses a host that resolves to a private address without connecting, tells the model, and records the use', async () => {
    const asked: string[] = [];
    const request: RequestFn = () => {
      throw new Error('no connection may be made');
    };
    const tools = new ClientTools(ts.store.db, {
      allowPrivate: false,
      request,
      resolver: async (host) => {
        asked.push(host);
        return [{ address: '10.0.0.7', family: 4 }];
      },
    });
    const recorded: ToolCall[] = [];
    const tool = tools.registry(brief('https://tools.example.com/stock'), CALL_TOOLS).find('check_stock')!;
    const output = await tool.run({ sku: 'k' }, context(recorded));
    expect(output).to.deep.equal({ error: "the tool's URL is refused: only https to a public address is allowed" });
    expect(asked).to.deep.equal(['tools.example.com']);
    expect(recorded.map((c) => [c.name, c.status, c.error])).to.deep.equal([['check_stock', 'failed', "the tool's URL is refused: only https to a public address is allowed"]]);
  });

  it('connects to the address the guard checked, with the name as the TLS server name, and signs the request', async () => {
    const seen: https.RequestOptions[] = [];
    const request: RequestFn = (options) => {
      seen.push(options);
      throw new Error('stop here');
    };
    let lookups = 0;
    const tools = new ClientTools(ts.store.db, {
      allowPrivate: false,
      request,
      // A rebinding name: public to the check, private to any later lookup.
      resolver: async () => (lookups++ === 0 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
    });
    const tool = tools.registry(brief('https://tools.example.com/stock?token=t1'), CALL_TOOLS).find('check_stock')!;
    // The request function throws before any socket: the tool fails, and the model is told so.
    const output = await tool.run({ sku: 'k' }, context([]));
    expect(output).to.deep.equal({ error: 'the tool could not be asked' });
    expect(seen).to.have.length(1);
    const [o] = seen;
    expect(o).to.include({ host: 'tools.example.com', servername: 'tools.example.com', path: '/stock?token=t1', method: 'POST', port: 443 });
    expect((o!.headers as Record<string, string>)['X-SVC-Signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
    const pinned = await new Promise<string>((resolve) => (o!.lookup as (h: string, opts: object, cb: (e: null, a: string) => void) => void)('tools.example.com', {}, (_e, a) => resolve(a)));
    expect(pinned).to.equal('93.184.215.14');
    expect(lookups).to.equal(1);
  });
});
