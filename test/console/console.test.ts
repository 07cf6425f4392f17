// The console in headless Chromium against a real service process (test/console/support/console-browser.ts). The
// console is a pure client of the public API, which its own tests cover on both stores; here it is the page that is
// under test. A call placed with a client tool (the sandbox's 555-0131, whose callee asks a question the agent looks
// up) shows the use on its page. Each page is checked with axe-core and photographed at 1280 and 375 px wide.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { Store } from '../../server/src/store/store.js';
import type { ServiceProcess } from '../scale/support/service-process.js';
import { FakeToolServer } from '../support/fake-tool-server.js';
import type { Receiver } from '../webhooks/support/receiver.js';
import { consoleRig, WAIT_MS } from './support/console-browser.js';

describe('the console in headless Chromium', function () {
  this.timeout(300_000);
  const rig = consoleRig();
  const { api, accessible, photograph, problems } = rig;
  let service: ServiceProcess;
  let store: Store;
  let rx: Receiver;
  let apiKey: string;
  let page: Page;
  before(() => {
    ({ service, store, rx, apiKey, page } = rig);
  });

  it('signs in with a pasted key (a wrong one shows the API’s token), and shows the empty calls page', async () => {
    const res = await page.goto(`${service.url}/console`);
    expect(res?.status()).to.equal(200);
    expect(res?.headers()['content-type']).to.equal('text/html; charset=utf-8');
    expect(res?.headers()['content-security-policy']).to.match(/^default-src 'self'; script-src 'self';/);
    const missing = await fetch(`${service.url}/console/assets/nothing.js`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ error: 'not_found', message: 'No route GET /console/assets/nothing.js.' });
    await page.waitForSelector('#api-key');
    await accessible('sign-in');
    await photograph('sign-in');
    await page.fill('#api-key', 'svc_ak_wrong');
    await page.click('button[type=submit]');
    await page.waitForSelector('.error');
    expect(await page.textContent('.error code')).to.equal('unauthorized');
    // The console's 401 is shown, not logged as a page error.
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('401')));
    await page.fill('#api-key', apiKey);
    await page.click('button[type=submit]');
    // The overview is the landing page (console-overview.test.ts); the calls page is a click away.
    await page.waitForSelector('h1:has-text("Overview")');
    await page.click('nav a:has-text("Calls")');
    await page.waitForSelector('h1:has-text("Calls")');
    await page.waitForSelector('.empty');
    expect(await page.evaluate(() => sessionStorage.getItem('svc.apiKey'))).to.equal(apiKey);
    expect(await page.evaluate(() => localStorage.length)).to.equal(0);
    await accessible('calls-empty');
  });

  it('places a sandbox call from the form after its preflight, and watches it go live to completed', async () => {
    await page.click('nav a:has-text("Place a call")');
    await page.fill('#f-to', '+14155550123');
    await page.fill('#f-objective', 'Ask whether the shop is open on Sunday and until what time.');
    await page.fill('#f-webhookUrl', rx.url);
    // Five fields: the simulated callee answers most and says it does not know others (per call), so some are answered.
    const fields = [
      ['open_sunday', 'boolean'],
      ['closing_time', 'string'],
      ['staff_count', 'number'],
      ['parking', 'boolean'],
      ['owner_name', 'string'],
    ];
    for (const [i, [name, type]] of fields.entries()) {
      await page.click('#f-fields-add');
      await page.fill(`#field-${i}-name`, name);
      await page.selectOption(`#field-${i}-type`, type);
    }
    await page.fill('#f-metadata', 'order_id=8841');
    await page.fill('#f-onBehalfOf', "Tony's Pizzeria");
    await page.selectOption('#f-recordingNotice', 'false');
    await page.click('button:has-text("Preflight")');
    await page.waitForSelector('.verdict');
    expect(await page.textContent('.verdict h2')).to.equal('Preflight: it would be placed');
    expect(await page.textContent('.verdict')).to.include('+14155550100');
    await accessible('place');
    await photograph('place');
    expect((await api('/v1/agent/calls')).body.calls).to.have.length(0);

    await page.click('button:has-text("Place call")');
    await page.waitForURL(/#\/calls\/[0-9a-f-]+$/);
    const placedId = /#\/calls\/([0-9a-f-]+)$/.exec(page.url())![1];
    expect(await store.db.selectFrom('calls').select(['on_behalf_of', 'recording_notice']).where('id', '=', placedId).executeTakeFirstOrThrow()).to.deep.equal({
      on_behalf_of: "Tony's Pizzeria",
      recording_notice: 0,
    });
    await page.waitForSelector('.status-line .chip-in_progress', { timeout: WAIT_MS });
    await page.waitForSelector('.status-line .chip-completed', { timeout: WAIT_MS });
    await page.waitForSelector('audio');
    await page.waitForSelector('table.events tbody tr');
    const id = page.url().split('/').pop()!;
    const record = (await api(`/v1/agent/calls/${id}`)).body;
    expect(record.status).to.equal('completed');
    expect(await page.locator('ol.turns li').count()).to.equal(record.turns.length);
    // An extracted value's quote is marked in the turn it was read from.
    const evidence = Object.values(record.evidence).filter((e) => e !== null) as { turn: number; quote: string }[];
    expect(evidence.length, JSON.stringify(record.extracted)).to.be.above(0);
    for (const e of evidence) expect(await page.locator(`ol.turns li[data-turn="${e.turn}"] mark`).allTextContents()).to.include(e.quote);
  });

  it('seeks the recording to a turn when it is clicked, and marks the turn being spoken', async () => {
    const id = page.url().split('/').pop()!;
    const record = (await api(`/v1/agent/calls/${id}`)).body;
    await page.waitForFunction(() => (document.querySelector('audio') as HTMLAudioElement).readyState >= 1);
    const i = 2;
    await page.click(`ol.turns li[data-turn="${i}"] button`);
    const at = await page.evaluate(() => (document.querySelector('audio') as HTMLAudioElement).currentTime);
    expect(at).to.be.closeTo(record.turns[i].startSec, 0.05);
    expect(await page.getAttribute(`ol.turns li[data-turn="${i}"]`, 'class')).to.include('current');
    await accessible('call');
    await photograph('call');
  });

  it('shows how quickly a live agent answered: first audio, each answer, the percentiles and the barge-ins', async () => {
    const id = page.url().split('/').pop()!;
    // A sandbox call has no live agent; the record's latency is what a realtime call's line writes as it closes.
    const latency = {
      firstAudioMs: 412,
      turns: [
        { atMs: 5200, afterMs: 640 },
        { atMs: 71_000, afterMs: 910 },
      ],
      p50Ms: 640,
      p95Ms: 910,
      bargeIns: [{ atMs: 64_500, clearMs: 7 }],
    };
    await store.db
      .updateTable('calls')
      .set({ latency_json: JSON.stringify(latency) })
      .where('id', '=', id)
      .execute();
    expect((await api(`/v1/agent/calls/${id}`)).body.latency).to.deep.equal(latency);
    await page.reload();
    await page.waitForSelector('dl.latency');
    const pairs = await page.$$eval('dl.latency dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
    expect(pairs).to.deep.equal([
      ['First audio', '412 ms after the answer'],
      ['Answers', 'median 640 ms, 95th percentile 910 ms after the callee stopped (2)'],
      ['Barge-ins', 'at 1:04, cleared in 7 ms'],
    ]);
    const rows = await page.$$eval('table.latency-turns tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).to.deep.equal([
      ['0:05', '640 ms'],
      ['1:11', '910 ms'],
    ]);
    await accessible('call-latency');
  });

  it('redelivers an event from the log: a second attempt reaches the receiver, marked as a redelivery', async () => {
    const id = page.url().split('/').pop()!;
    const completed = (await api(`/v1/agent/calls/${id}/events`)).body.events.find((e: { event: string }) => e.event === 'call.completed');
    const row = page.locator(`tr[data-event="${completed.eventId}"]`);
    await row.locator('text=delivered').waitFor({ timeout: WAIT_MS });
    const before = rx.received.length;
    await row.locator('button:has-text("Redeliver")').click();
    await row.locator('td:has-text("redelivery")').waitFor({ timeout: WAIT_MS });
    // The page shows the redelivery as soon as it is on the log; its answer is recorded once the receiver has given it.
    const readLog = async () => (await api(`/v1/agent/calls/${id}/events`)).body.events.find((e: { event: string }) => e.event === 'call.completed');
    let log = await readLog();
    for (const by = Date.now() + WAIT_MS; log.attempts.at(-1)?.statusCode === null && Date.now() < by; log = await readLog()) await page.waitForTimeout(50);
    // The log's attempts, as the page shows them: the first delivery (retried if the receiver's kept-alive socket
    // was being closed), then one redelivery.
    expect(await row.locator('td').nth(2).textContent(), JSON.stringify(log.attempts)).to.equal(String(log.attempts.length));
    expect(log.attempts.filter((a: { redelivery: boolean }) => a.redelivery)).to.have.length(1);
    expect(log.attempts.at(-1)).to.include({ statusCode: 200, redelivery: true });
    expect(rx.received.length).to.equal(before + 1);
    expect(JSON.parse(rx.received.at(-1)!.body).eventId).to.equal(completed.eventId);
  });

  it('cancels a live call from its page', async () => {
    const placed = await api('/v1/agent/calls', { to: '+14155550115', objective: 'Talk for as long as the recipient wants.' });
    expect(placed.status).to.equal(202);
    await page.goto(`${service.url}/console#/calls/${placed.body.callId}`);
    await page.waitForSelector('.status-line .chip-in_progress', { timeout: WAIT_MS });
    await page.click('button:has-text("Cancel call")');
    await page.waitForSelector('.status-line .chip-completed', { timeout: WAIT_MS });
    expect(await page.locator('button:has-text("Cancel call")').count()).to.equal(0);
    const record = (await api(`/v1/agent/calls/${placed.body.callId}`)).body;
    expect(record.status).to.equal('completed');
    expect(record.durationSec).to.be.below(600);
  });

  it('lists the calls live, filters them, and shows batches with their progress', async () => {
    await page.goto(`${service.url}/console#/calls`);
    await page.waitForSelector('table tbody tr');
    expect(await page.locator('table tbody tr').count()).to.equal(2);
    const placed = await api('/v1/agent/calls', { to: '+14155550113', objective: 'Ask whether the shop is open on Sunday.' });
    // The new call appears without a reload, and then its ending.
    await page.waitForSelector(`tr[data-call="${placed.body.callId}"] .chip-declined`, { timeout: WAIT_MS });
    // The filter goes to the API: the list is read again.
    await page.selectOption('select[name=status]', 'declined');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    await page.selectOption('select[name=status]', '');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3);
    await accessible('calls');
    await photograph('calls');

    const batch = await api('/v1/agent/batches', { defaults: { objective: 'Ask whether the shop is open on Sunday.' }, calls: [{ to: '+14155550123' }, { to: '+14155550111' }], maxConcurrency: 1 });
    expect(batch.status).to.equal(202);
    await page.click('nav a:has-text("Batches")');
    await page.waitForSelector(`li[data-batch="${batch.body.batchId}"] progress`);
    await page.waitForSelector(`li[data-batch="${batch.body.batchId}"] .chip-completed`, { timeout: WAIT_MS });
    expect(await page.textContent(`li[data-batch="${batch.body.batchId}"] label`)).to.include('2 of 2 calls ended');
    await accessible('batches');
    await photograph('batches');
    // The batch's link lists its calls only.
    await page.click(`li[data-batch="${batch.body.batchId}"] a`);
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 2);
    const batchCalls = (await api(`/v1/agent/calls?batchId=${batch.body.batchId}`)).body.calls.map((c: { id: string }) => c.id);
    expect(await page.locator('table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-call')))).to.have.members(batchCalls);
  });

  it('adds a number to the do-not-call list and removes it; a bad number shows the API’s token', async () => {
    await page.click('nav a:has-text("Do-not-call list")');
    await page.waitForSelector('.empty');
    await page.fill('#dnc-number', '12345');
    await page.click('form.inline button[type=submit]');
    await page.waitForSelector('.error');
    expect(await page.textContent('.error code')).to.equal('invalid_number');
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('400')));
    await page.fill('#dnc-number', '+14155550199');
    await page.fill('#dnc-reason', 'asked not to be called');
    await page.click('form.inline button[type=submit]');
    await page.waitForSelector('tr[data-number="+14155550199"]');
    expect((await api('/v1/agent/do-not-call')).body.numbers.map((n: { number: string }) => n.number)).to.deep.equal(['+14155550199']);
    await accessible('do-not-call');
    await photograph('do-not-call');
    await page.click('button[aria-label="Remove +14155550199"]');
    await page.waitForSelector('.empty');
    expect((await api('/v1/agent/do-not-call')).body.numbers).to.deep.equal([]);
  });

  it("places a call with a tool of the client's from the form, and its page shows the use as the stream brings it", async () => {
    const tools = await FakeToolServer.start();
    try {
      tools.defaultReply = { body: { answer: 'It arrives on Thursday' } };
      await page.click('nav a:has-text("Place a call")');
      await page.fill('#f-to', '+14155550131');
      await page.fill('#f-objective', 'Confirm the delivery address for order A-1042.');
      await page.click('button:has-text("Add a tool")');
      await page.click('button:has-text("Add a tool")');
      expect(await page.locator('fieldset.tool').count()).to.equal(2);
      await page.click('button[aria-label="Remove tool 2"]');
      expect(await page.locator('fieldset.tool').count()).to.equal(1);
      await page.fill('#tool-0-name', 'order_status');
      await page.fill('#tool-0-description', 'Looks up where an order is.');
      await page.fill('#tool-0-parameters', '{ "type": "object", "properties": { "question": { "type": "string" } } ');
      await page.fill('#tool-0-url', `${tools.url}/orders`);
      await page.fill('#tool-0-timeoutMs', '3000');
      // Parameters that are not JSON are the form's to say, naming the tool.
      await page.click('button:has-text("Preflight")');
      await page.waitForSelector('.error-summary');
      expect(await page.textContent('.error-summary')).to.include('The parameters of tool 1 are not valid JSON');
      expect(await page.getAttribute('#tool-0-parameters', 'aria-invalid')).to.equal('true');
      await page.fill('#tool-0-parameters', '{ "type": "object", "properties": { "question": { "type": "string" } } }');
      await page.click('button:has-text("Preflight")');
      await page.waitForSelector('.verdict');
      await accessible('place-tools');
      await photograph('place-tools');

      await page.click('button:has-text("Place call")');
      await page.waitForURL(/#\/calls\/[0-9a-f-]+$/);
      const id = /#\/calls\/([0-9a-f-]+)$/.exec(page.url())![1];
      await page.waitForSelector('table.tool-calls tbody tr', { timeout: WAIT_MS });
      await page.waitForSelector('.status-line .chip-completed', { timeout: WAIT_MS });
      const record = (await api(`/v1/agent/calls/${id}`)).body;
      expect(record.tools).to.deep.equal([
        { name: 'order_status', description: 'Looks up where an order is.', parameters: { type: 'object', properties: { question: { type: 'string' } } }, timeoutMs: 3000 },
      ]);
      expect(record.toolCalls).to.have.length(1);
      const [use] = record.toolCalls;
      const cells = await page.$$eval('table.tool-calls tbody tr td', (tds) => tds.map((td) => td.textContent));
      expect(cells.slice(0, 5)).to.deep.equal(['order_status', JSON.stringify(use.arguments), 'ok', `${use.latencyMs} ms`, '—']);
      expect(tools.hits).to.have.length(1);
      await accessible('call-tools');
      await photograph('call-tools');
    } finally {
      await tools.close();
    }
  });

  it('signs out, clearing the key; signs in and moves between pages from the keyboard alone', async () => {
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('#api-key');
    expect(await page.evaluate(() => sessionStorage.getItem('svc.apiKey'))).to.equal(null);
    await page.focus('#api-key');
    await page.keyboard.type(apiKey);
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:has-text("Overview")');
    // Tab from the top of the page to the navigation's "Place a call" link, and follow it.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Place a call') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:has-text("Place a call")');
  });
});
