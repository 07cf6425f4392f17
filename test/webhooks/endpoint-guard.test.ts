import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import type { ResolvedAddress, Resolver } from '../../server/src/webhooks/endpoint-guard.js';
import { DEFAULT_RETRY_SCHEDULE_SEC } from '../../server/src/settings/retry-schedule.js';
import type { RequestFn } from '../../server/src/webhooks/webhook-sender.js';
import { TestClock } from '../support/server.js';
import { freshStore, type TestStore } from '../support/stores.js';
import { seedFixture, type Fixture } from './support/outbox-fixture.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const PUBLIC = '93.184.216.34';
const BLOCKED = [
  '127.0.0.1',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '::1',
  'fc00::1',
  'fe80::1',
  '::ffff:127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '2002:a9fe:a9fe::',
];

const v = (address: string): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 });

describe('webhook SSRF guard at send time', () => {
  let ts: TestStore;
  let clock: TestClock;
  let fx: Fixture;
  let rx: Receiver;
  let dispatcher: WebhookDispatcher;
  /** Every connection the dispatcher asked for, with the address its lookup pins. */
  let connects: { host: string; pinned: string }[];
  let rebindCalls: number;

  /** Names in the table resolve to their address; rebind.example.com answers public first, loopback after. */
  const resolver: Resolver = async (host) => {
    const m = /^n(\d+)\.example\.com$/.exec(host);
    if (m) return [v(BLOCKED[Number(m[1])])];
    if (host === 'mixed.example.com') return [v(PUBLIC), v('127.0.0.1')];
    if (host === 'rebind.example.com') return [v(rebindCalls++ === 0 ? PUBLIC : '127.0.0.1')];
    if (host === 'public.example.com') return [v(PUBLIC)];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  // Records the connection and fails it without touching the network.
  const request: RequestFn = (options, onResponse) => {
    let pinned = '';
    (options.lookup as (h: string, o: object, cb: (e: null, a: string) => void) => void)(String(options.host), {}, (_e, a) => (pinned = a));
    connects.push({ host: String(options.host), pinned });
    return http.request({ ...options, protocol: 'http:', agent: false, lookup: (_h, _o, cb) => cb(new Error('no network in tests'), '', 4) }, onResponse);
  };

  beforeEach(async () => {
    ts = await freshStore('sqlite');
    clock = new TestClock();
    fx = await seedFixture(ts.store, clock.now());
    rx = await startReceiver();
    connects = [];
    rebindCalls = 0;
    dispatcher = createWebhookDispatcher({
      store: ts.store,
      clock,
      config: { webhookRetrySchedule: [...DEFAULT_RETRY_SCHEDULE_SEC], webhookTimeoutMs: 2000, webhookAllowPrivate: false },
      resolver,
      request,
      random: () => 0.5,
    });
  });
  afterEach(async () => {
    await dispatcher.stop();
    await rx.close();
    await ts.drop();
  });

  const stateOf = (id: string) => ts.store.db.selectFrom('webhook_events').select(['state', 'attempts', 'last_error', 'next_attempt_at']).where('event_id', '=', id).executeTakeFirstOrThrow();
  const host = (ip: string) => (ip.includes(':') ? `[${ip}]` : ip);
  /** The address as the URL parser writes it (::ffff:127.0.0.1 becomes ::ffff:7f00:1). */
  const canonical = (ip: string) => new URL(`https://${host(ip)}/`).hostname.replace(/^\[|\]$/g, '');

  for (const [i, ip] of BLOCKED.entries()) {
    it(`refuses ${ip}, as a literal and as a name resolving to it, without connecting`, async () => {
      const literal = await fx.event(`https://${host(ip)}:${rx.port}/hooks`);
      const named = await fx.event(`https://n${i}.example.com:${rx.port}/hooks`);
      expect(await dispatcher.tick()).to.equal(2);
      expect(connects).to.deep.equal([]);
      expect(rx.connections).to.equal(0);
      expect(await stateOf(literal.eventId)).to.deep.include({ state: 'refused', attempts: 1, last_error: `destination refused: ${canonical(ip)} is not a public address` });
      expect(await stateOf(named.eventId)).to.deep.include({
        state: 'refused',
        attempts: 1,
        last_error: `destination refused: n${i}.example.com resolves to ${ip}, which is not a public address`,
      });
      clock.advance(48 * 3600_000);
      expect(await dispatcher.tick(), 'a refused event is final').to.equal(0);
    });
  }

  it('refuses a name answering a public address and 127.0.0.1 together', async () => {
    const { eventId } = await fx.event(`https://mixed.example.com:${rx.port}/hooks`);
    await dispatcher.tick();
    expect(connects).to.deep.equal([]);
    expect(rx.connections).to.equal(0);
    expect((await stateOf(eventId)).last_error).to.equal('destination refused: mixed.example.com resolves to 127.0.0.1, which is not a public address');
  });

  it('connects to the checked public address of a name that answers 127.0.0.1 on a second lookup (rebinding)', async () => {
    const { eventId } = await fx.event(`https://rebind.example.com:${rx.port}/hooks`);
    await dispatcher.tick();
    expect(rebindCalls, 'resolved once').to.equal(1);
    expect(connects).to.deep.equal([{ host: 'rebind.example.com', pinned: PUBLIC }]);
    expect(rx.connections).to.equal(0);
    expect(await stateOf(eventId)).to.deep.include({ state: 'pending', attempts: 1, last_error: 'connection failed: no network in tests' });
  });

  it('over https, connects to the pinned address with the name as Host and TLS servername (certificate checked for it)', async () => {
    const tls = join(import.meta.dirname, 'support', 'tls');
    const cert = readFileSync(join(tls, 'hooks-example-test.crt'));
    const seen: { servername: string | false | null; host: string | undefined; body: string }[] = [];
    const server = https.createServer({ cert, key: readFileSync(join(tls, 'hooks-example-test.key')) }, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ servername: (req.socket as import('node:tls').TLSSocket).servername, host: req.headers.host, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const d = createWebhookDispatcher({
      store: ts.store,
      clock,
      config: { webhookRetrySchedule: [0], webhookTimeoutMs: 2000, webhookAllowPrivate: true },
      resolver: async () => [v('127.0.0.1')],
      // Trust the test certificate, and nothing else changes.
      request: (options, onResponse) => https.request({ ...options, ca: cert }, onResponse),
    });
    try {
      const { eventId } = await fx.event(`https://hooks.example.com:${port}/hooks`);
      await d.tick();
      expect(seen).to.have.length(1);
      expect(seen[0]).to.deep.include({ servername: 'hooks.example.com', host: `hooks.example.com:${port}` });
      expect(JSON.parse(seen[0].body).eventId).to.equal(eventId);
      expect(await stateOf(eventId)).to.deep.include({ state: 'delivered', attempts: 1, last_error: null });
    } finally {
      await d.stop();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses plain http without SVC_WEBHOOK_ALLOW_PRIVATE', async () => {
    const { eventId } = await fx.event('http://public.example.com/hooks');
    await dispatcher.tick();
    expect(connects).to.deep.equal([]);
    expect(await stateOf(eventId)).to.deep.include({ state: 'refused', last_error: 'destination refused: http: is not allowed, only https:' });
  });

  it('retries a name that does not resolve, on the schedule', async () => {
    const { eventId } = await fx.event('https://nowhere.example.com/hooks');
    await dispatcher.tick();
    expect(connects).to.deep.equal([]);
    expect(await stateOf(eventId)).to.deep.include({ state: 'pending', attempts: 1, last_error: 'DNS lookup failed: ENOTFOUND', next_attempt_at: clock.now() + 5000 });
  });
});
