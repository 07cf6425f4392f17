// The console's overview, calls list and settings in headless Chromium against a real service process (the shared
// rig, test/console/support/console-browser.ts). The figures on the pages are checked against the API's own
// answers (getStats, listCalls, getSettings), which test/http covers on both stores; here it is the pages that are
// under test: that they show those answers, page and filter through the API, and can be used from the keyboard.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { insertTestCall } from '../support/calls.js';
import type { TestTenant } from '../support/server.js';
import { consoleRig, WAIT_MS } from './support/console-browser.js';

const DAY_MS = 86_400_000;
const TERMINAL = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];
const percent = (r: number | null) => (r === null ? '—' : `${Math.round(r * 1000) / 10}%`);
const rows = (page: Page) => page.locator('table tbody tr').count();

/** Tabs from the navigation's first link (where Tab lands first on a page) until the focused element matches. */
async function tabTo(page: Page, selector: string, most = 40): Promise<void> {
  await page.focus('header nav a');
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('the console: overview, calls list and settings', function () {
  this.timeout(600_000);
  const rig = consoleRig();
  let page: Page;
  before(() => {
    page = rig.page;
  });

  it('redirects GET / to the console', async () => {
    const res = await fetch(`${rig.service.url}/`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).to.deep.equal([302, '/console']);
    const landed = await page.goto(`${rig.service.url}/`);
    expect([landed?.status(), new URL(page.url()).pathname]).to.deep.equal([200, '/console']);
  });

  it("lands on the overview after sign-in, showing the API's statistics of the calls placed; the period is chosen from the keyboard", async () => {
    // Completes, declines, nobody answers, voicemail, fails.
    const ids: string[] = [];
    for (const to of ['+14155550123', '+14155550123', '+14155550113', '+14155550111', '+14155550112', '+14155550114']) {
      const placed = await rig.api('/v1/agent/calls', { to, objective: 'Ask whether the shop is open on Sunday.' });
      expect(placed.status).to.equal(202);
      ids.push(placed.body.callId);
    }
    const deadline = Date.now() + WAIT_MS;
    for (const id of ids) {
      while (!TERMINAL.includes((await rig.api(`/v1/agent/calls/${id}`)).body.status)) {
        expect(Date.now(), `call ${id} ended`).to.be.below(deadline);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const read = page.waitForResponse((r) => r.url().includes('/v1/agent/stats'));
    await rig.signIn();
    await page.waitForSelector('h1:has-text("Overview")');
    const asked = new URL((await read).url());
    await page.waitForSelector('[data-figure=calls]');
    const stats = (await rig.api(`${asked.pathname}${asked.search}`)).body;
    expect(stats.calls).to.equal(6);
    expect(await page.textContent('[data-figure=calls]')).to.equal('6');
    expect(await page.textContent('[data-figure=answer-rate]')).to.match(new RegExp(`^${percent(stats.answerRate)}`));
    expect(await page.textContent('[data-figure=completion-rate]')).to.match(new RegExp(`^${percent(stats.completionRate)}`));
    expect(await page.textContent('[data-figure=minutes]')).to.match(new RegExp(`^${stats.minutes.billed}in this period`));
    expect(await page.textContent('[data-figure=plan]')).to.include(`${stats.minutes.plan.usedMinutes} of 10000 min`);
    expect(await page.textContent('[data-figure=webhooks]')).to.equal(`${stats.webhooks.failed} / ${stats.webhooks.gone}`);
    // Each status's row shows the API's count, and links to the calls page filtered by it.
    for (const [status, n] of Object.entries(stats.byStatus as Record<string, number>)) {
      const row = page.locator('section[aria-labelledby=by-status] tbody tr', { has: page.locator(`a[href^="#/calls?status=${status}&"]`) });
      expect(await row.locator('td').first().textContent(), status).to.equal(String(n));
    }
    expect(stats.byStatus).to.deep.include({ completed: 2, declined: 1, no_answer: 1, voicemail: 1, failed: 1 });
    expect(await page.locator('section[aria-labelledby=errors] tbody tr').count()).to.equal(stats.errors.length);
    expect(await page.locator('.bars li').count()).to.equal(30);
    expect(Number(await page.textContent('details table tbody tr:last-child td.num'))).to.equal(stats.perDay.at(-1).calls);
    await rig.accessible('overview');
    await rig.photograph('overview');

    // From the keyboard alone: Tab to the period, arrow to the next choice (90 days), and the figures are read again.
    await tabTo(page, 'input[name=period]');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).to.equal('30');
    const again = page.waitForResponse((r) => r.url().includes('/v1/agent/stats'));
    await page.keyboard.press('ArrowRight');
    const ninety = new URL((await again).url()).searchParams.get('createdFrom')!;
    expect(Date.parse(ninety)).to.equal(Math.floor(Date.now() / DAY_MS) * DAY_MS - 89 * DAY_MS);
    await page.waitForFunction(() => document.querySelectorAll('.bars li').length === 90);
    expect(await page.textContent('[data-figure=calls]')).to.equal('6');

    // A status links to the calls it counts.
    await page.click('section[aria-labelledby=by-status] a:text-is("declined")');
    await page.waitForSelector('h1:has-text("Calls")');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    expect(await page.inputValue('select[name=status]')).to.equal('declined');
    expect(await page.getAttribute('table tbody tr', 'data-call')).to.equal(ids[2]);
  });

  it('pages the calls past the last 100, and searches and filters them through the API, from the keyboard too', async () => {
    const keyId = (await rig.store.db.selectFrom('api_keys').select('id').where('account_id', '=', rig.accountId).executeTakeFirstOrThrow()).id;
    const tenant = { accountId: rig.accountId, keyId, callerId: '+14155550100' } as TestTenant;
    // 130 older calls, a minute apart from noon 100 days ago (local time): every tenth failed, the rest completed.
    const day = new Date(Date.now() - 100 * DAY_MS);
    const noon = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 12).getTime();
    for (let i = 0; i < 130; i++) {
      await insertTestCall(rig.store, tenant, {
        created_at: noon + i * 60_000,
        status: i % 10 === 0 ? 'failed' : 'completed',
        answered_by: i % 10 === 0 ? null : 'human',
        error: i % 10 === 0 ? 'placement_failed' : null,
        metadata_json: JSON.stringify({ order_id: `ORD-${1000 + i}` }),
      });
    }
    await page.goto(`${rig.service.url}/console#/calls`);
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 100);
    const first = (await rig.api('/v1/agent/calls?limit=100')).body;
    expect(await page.locator('table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-call')))).to.deep.equal(first.calls.map((c: { id: string }) => c.id));
    expect(await page.getAttribute('table tbody tr:first-child time', 'datetime')).to.equal(first.calls[0].createdAt);
    await rig.accessible('calls-list');
    await rig.photograph('calls-list');
    await page.click('button:has-text("Next page")');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 36);
    const second = (await rig.api(`/v1/agent/calls?limit=100&cursor=${first.nextCursor}`)).body;
    expect(await page.getAttribute('table tbody tr:first-child', 'data-call')).to.equal(second.calls[0].id);
    expect(await page.isDisabled('button:has-text("Next page")')).to.equal(true);
    await page.click('button:has-text("Previous page")');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 100);

    // The search, from the keyboard: Tab to it, type, Enter.
    await tabTo(page, 'input[name=q]');
    await page.keyboard.type('ord-1107');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    expect(await page.getAttribute('table tbody tr', 'data-call')).to.equal((await rig.api('/v1/agent/calls?q=ORD-1107')).body.calls[0].id);
    // The status, from the keyboard: Tab on to it and type the start of a status.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).to.equal('status');
    await page.click('button:has-text("Clear filters")');
    await tabTo(page, 'select[name=status]');
    await page.keyboard.type('fai');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 14);
    expect(await page.inputValue('select[name=status]')).to.equal('failed');
    // 13 seeded failures and the one placed; answered by no one: the same, since none of them was answered.
    await page.selectOption('select[name=answeredBy]', 'human');
    await page.waitForSelector('.empty');
    await page.selectOption('select[name=answeredBy]', '');
    // The seeded calls' day only: the one failure in it that is not seeded drops out.
    const seededDay = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    await page.fill('input[name=from]', seededDay);
    await page.fill('input[name=to]', seededDay);
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 13);
    await page.selectOption('select[name=status]', '');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 100);
    expect(await page.isEnabled('button:has-text("Next page")')).to.equal(true);
    await page.click('button:has-text("Next page")');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 30);
    expect(await rows(page)).to.equal(30);
  });

  it("shows the key's settings, the plan and the secret's fingerprint, read-only, and says why keys are managed with the CLI", async () => {
    await page.click('nav a:has-text("Settings")');
    await page.waitForSelector('[data-setting=fingerprint]');
    const s = (await rig.api('/v1/agent/settings')).body;
    expect(await page.textContent('[data-setting=fingerprint]')).to.equal(s.webhookSecretFingerprint);
    expect(await page.textContent('[data-setting=callerId]')).to.equal("+14155550100 (the account's default)");
    expect(await page.textContent('[data-setting=voice]')).to.equal("alloy (the service's default)");
    expect(await page.textContent('[data-setting=usage]')).to.include(`${s.plan.usedMinutes} of ${s.plan.planMinutes}`);
    expect(await page.textContent('.note')).to.include('npx svc keys');
    expect(await page.locator('main input, main button, main select, main textarea').count()).to.equal(0);
    const secret = (await rig.store.db.selectFrom('api_keys').select('webhook_secret').where('account_id', '=', rig.accountId).executeTakeFirstOrThrow()).webhook_secret;
    expect(await page.content()).to.not.include(secret);
    await rig.accessible('settings');
    await rig.photograph('settings');
  });
});
