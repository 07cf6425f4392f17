// A call's page in headless Chromium against a real service (test/console/support/console-browser.ts): it shows only
// its own call whatever the navigation (a link, an edited hash, Back and Forward, a slow answer for the call left
// behind), fills Started, Answered by and the events of a live call as they happen, and shows what a team and a
// developer look at: its id, created time, caller id, metadata, minutes, transfers, the raw record and each event's
// payload. Cancel and redeliver are done from the keyboard alone.
import { expect } from 'chai';
import type { Page, Route } from 'playwright-core';
import { consoleRig, tabTo, WAIT_MS } from './support/console-browser.js';

const objective = 'Ask whether the shop is open on Sunday and until what time.';

describe('the console’s call page in headless Chromium', function () {
  this.timeout(300_000);
  const rig = consoleRig();
  let page: Page;
  let answered: { id: string; turns: number };
  let failed: string;
  before(async () => {
    page = rig.page;
    await rig.signIn();
  });

  /** Opens the call's page and waits until it shows the call ended. */
  async function ended(id: string): Promise<any> {
    await page.evaluate((h) => {
      location.hash = h;
    }, `#/calls/${id}`);
    await page.waitForSelector(`.call-id:text-is("${id}")`);
    await page.waitForSelector('.status-line .chip:not(.chip-queued):not(.chip-dialing):not(.chip-in_progress)', { timeout: WAIT_MS });
    return (await rig.api(`/v1/agent/calls/${id}`)).body;
  }

  /** What the page shows of its call: the id, the number, the turns, whether it has audio. */
  const shown = () =>
    page.evaluate(() => ({
      id: document.querySelector('.call-id')?.textContent,
      h1: document.querySelector('h1')?.textContent,
      turns: document.querySelectorAll('ol.turns li').length,
      audio: document.querySelectorAll('audio').length,
      empty: document.querySelector('.turns, .empty')?.textContent ?? null,
    }));

  it('shows only its own call moving by hash edits, Back and Forward: a failed call without turns after one with turns', async () => {
    const a = await rig.api('/v1/agent/calls', { to: '+14155550123', objective });
    const b = await rig.api('/v1/agent/calls', { to: '+14155550114', objective });
    expect([a.status, b.status]).to.deep.equal([202, 202]);
    const first = await ended(a.body.callId);
    expect(first.status).to.equal('completed');
    expect(first.turns.length).to.be.above(2);
    answered = { id: a.body.callId, turns: first.turns.length };
    await page.waitForSelector('audio');
    expect(await page.locator('ol.turns li').count()).to.equal(answered.turns);

    const second = await ended(b.body.callId);
    failed = b.body.callId;
    expect([second.status, second.turns]).to.deep.equal(['failed', null]);
    const onB = { id: failed, h1: 'Call to +14155550114', turns: 0, audio: 0, empty: 'No conversation: the call was not answered.' };
    expect(await shown()).to.deep.equal(onB);

    await page.goBack();
    await page.waitForSelector(`.call-id:text-is("${answered.id}")`);
    await page.waitForSelector('audio');
    await page.waitForFunction((n) => document.querySelectorAll('ol.turns li').length === n, answered.turns);
    expect(await shown()).to.deep.include({ id: answered.id, h1: 'Call to +14155550123', turns: answered.turns, audio: 1 });

    await page.goForward();
    await page.waitForSelector(`.call-id:text-is("${failed}")`);
    expect(await shown()).to.deep.equal(onB);
    await page.goBack();
    await page.waitForSelector(`.call-id:text-is("${answered.id}")`);
    await page.waitForSelector('audio');
    // The address bar's hash typed over.
    await page.goto(`${rig.service.url}/console#/calls/${failed}`);
    await page.waitForSelector(`.call-id:text-is("${failed}")`);
    expect(await shown()).to.deep.equal(onB);
  });

  it('drops what the call left behind answers late: a slow record and recording never land on the next call’s page', async () => {
    // The answered call's reads are held until the page has moved on to the failed call.
    const held: Route[] = [];
    let firstHeld!: () => void;
    const holding = new Promise<void>((resolve) => {
      firstHeld = resolve;
    });
    const pattern = new RegExp(`/v1/agent/calls/${answered.id}(/recording|/events)?$`);
    await page.route(pattern, (route) => {
      held.push(route);
      firstHeld();
    });
    await page.evaluate((h) => {
      location.hash = h;
    }, `#/calls/${answered.id}`);
    await holding;
    expect(await page.textContent('h1')).to.equal('Call');
    await page.evaluate((h) => {
      location.hash = h;
    }, `#/calls/${failed}`);
    await page.waitForSelector(`.call-id:text-is("${failed}")`);
    await page.unroute(pattern);
    // The held reads go on now and answer (or were abandoned by the page that left them): either way, once each
    // has settled, the page is still the failed call's.
    for (const route of held) await route.continue().catch(() => {});
    await Promise.all(
      held.map((route) =>
        route
          .request()
          .response()
          .catch(() => null),
      ),
    );
    await page.waitForSelector('table.events tbody tr');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await shown()).to.deep.equal({ id: failed, h1: 'Call to +14155550114', turns: 0, audio: 0, empty: 'No conversation: the call was not answered.' });
    expect(await page.textContent('.status-line .chip')).to.equal('failed');
  });

  it('fills Started, Answered by and the events of a live call as they happen, and cancels it from the keyboard', async () => {
    const placed = await rig.api('/v1/agent/calls', { to: '+14155550115', objective: 'Talk for as long as the recipient wants.', webhookUrl: rig.rx.url });
    await page.goto(`${rig.service.url}/console#/calls/${placed.body.callId}`);
    await page.waitForSelector('.status-line .chip-in_progress', { timeout: WAIT_MS });
    // While the call is still live: the answer's time, who answered, and its call.in_progress event.
    await page.waitForFunction(() => document.querySelector('dd.started')?.textContent !== '—');
    await page.waitForSelector('dd.answered-by:text-is("human")');
    await page.waitForSelector('table.events tbody tr summary:text-is("call.in_progress")');
    expect(await page.locator('.status-line .chip-in_progress').count()).to.equal(1);
    const live = (await rig.api(`/v1/agent/calls/${placed.body.callId}`)).body;
    expect(live.status).to.equal('in_progress');
    expect(await page.textContent('dd.started')).to.equal(new Date(live.startedAt).toLocaleString());

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, 'button.danger');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).to.equal('Cancel call');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.status-line .chip-completed', { timeout: WAIT_MS });
    await page.waitForSelector('table.events tbody tr summary:text-is("call.completed")');
    expect((await rig.api(`/v1/agent/calls/${placed.body.callId}`)).body.status).to.equal('completed');
  });

  it('shows the id, created time, caller id, metadata, minutes, the transfer, the raw record and each event’s payload', async () => {
    const placed = await rig.api('/v1/agent/calls', {
      to: '+14155550128',
      objective: 'Offer the customer a callback about their order.',
      metadata: { order_id: '8841', campaign: 'sunday' },
      transfer: { to: '+14155550142', mode: 'cold' },
      webhookUrl: rig.rx.url,
    });
    expect(placed.status).to.equal(202);
    const id = placed.body.callId;
    const record = await ended(id);
    expect(record).to.deep.include({ status: 'completed', transferredTo: '+14155550142', callerId: '+14155550100' });
    await page.waitForSelector('table.events tbody tr summary:text-is("call.completed")');
    const pairs = Object.fromEntries(await page.$$eval('dl.record:not(.transfers) > dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
    expect(pairs).to.deep.include({
      'Call id': id,
      Created: new Date(record.createdAt).toLocaleString(),
      'Caller id': '+14155550100',
      'Minutes billed': String(record.billedMinutes),
      Metadata: 'order_id8841campaignsunday',
    });
    expect(record.billedMinutes).to.be.above(0);
    const transfers = await page.$$eval('dl.transfers dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
    expect(transfers).to.deep.equal([
      ['Allowed', `Cold transfer to +14155550142, when ${record.transfer.when}`],
      ['Transferred', `to +14155550142, ${new Date(record.transferredAt).toLocaleString()}`],
    ]);
    // The raw record, as the API answers it.
    await page.click('details.raw summary');
    expect(JSON.parse((await page.textContent('details.raw pre'))!)).to.deep.equal(record);
    // Each event's payload, as it was sent.
    const log = (await rig.api(`/v1/agent/calls/${id}/events`)).body.events;
    const completed = log.find((e: { event: string }) => e.event === 'call.completed');
    const row = page.locator(`tr[data-event="${completed.eventId}"]`);
    await row.locator('summary').click();
    expect(JSON.parse((await row.locator('pre').textContent())!)).to.deep.equal(completed.payload);
    await rig.accessible('call-detail');
    await rig.photograph('call-detail');
  });

  it('redelivers an event from the keyboard alone', async () => {
    const id = /#\/calls\/([0-9a-f-]+)$/.exec(page.url())![1];
    const completed = (await rig.api(`/v1/agent/calls/${id}/events`)).body.events.find((e: { event: string }) => e.event === 'call.completed');
    const row = page.locator(`tr[data-event="${completed.eventId}"]`);
    await row.locator('text=delivered').first().waitFor({ timeout: WAIT_MS });
    const before = rig.rx.received.length;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, `tr[data-event="${completed.eventId}"] button`);
    await page.keyboard.press('Enter');
    await row.locator('td:has-text("redelivery")').waitFor({ timeout: WAIT_MS });
    expect(rig.rx.received.length).to.equal(before + 1);
    expect(JSON.parse(rig.rx.received.at(-1)!.body).eventId).to.equal(completed.eventId);
  });
});
