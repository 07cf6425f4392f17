// A batch from a CSV file in headless Chromium against a real service (test/console/support/console-browser.ts),
// from the keyboard alone: the file chosen, its columns mapped (guessed from their names), every row checked by the
// API's preflightBatch with each bad row's error at its index and nothing created, the batch created once every
// row passes, and its page following its progress and each row's call.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { consoleRig, tabTo, WAIT_MS } from './support/console-browser.js';

const objective = 'Ask whether the shop is open on Sunday.';

describe('the console’s batch from a CSV file in headless Chromium', function () {
  this.timeout(300_000);
  const rig = consoleRig();
  let page: Page;
  let dir: string;
  before(async () => {
    page = rig.page;
    // Playwright intercepts the page's file choosers only while something listens for them, and turns that on and off
    // over the debugging protocol as listeners come and go: with none between two choices, the second Space could
    // reach the page before interception was on again (on a busy machine), and Chromium's own chooser, which a
    // headless browser never shows, opened instead. A listener for the page's life keeps it on.
    page.on('filechooser', () => undefined);
    dir = mkdtempSync(join(tmpdir(), 'svc-csv-'));
    await rig.signIn();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Chooses a file from the keyboard: Space on the focused file input opens the chooser. */
  async function choose(name: string, text: string): Promise<void> {
    const path = join(dir, name);
    writeFileSync(path, text);
    await tabTo(page, '#csv-file');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(path);
  }

  it('checks every row before sending and names each bad one by its index, from the keyboard alone', async () => {
    await page.evaluate(() => {
      location.hash = '#/batches';
    });
    await page.waitForSelector('h1:text-is("Batches")');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, 'a[href="#/batches/new"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:text-is("New batch from a CSV file")');

    await choose('shops.csv', 'Phone,shop,region\r\n+14155550123,"Corner Shop, Main St",west\r\n12345,Bakery,east\r\n+14155550113,"The ""Best"" Deli",\r\n');
    await page.waitForSelector('#csv-col-2');
    expect(await page.textContent('fieldset.group legend')).to.equal('Columns of shops.csv (3 rows)');
    expect([await page.inputValue('#csv-col-0'), await page.inputValue('#csv-col-1'), await page.inputValue('#csv-col-2')]).to.deep.equal(['to', 'metadata', 'metadata']);
    // The region is left out, from the keyboard: the select's first option.
    await tabTo(page, '#csv-col-2');
    await page.keyboard.press('Home');
    expect(await page.inputValue('#csv-col-2')).to.equal('ignore');
    await tabTo(page, '#batch-objective');
    await page.keyboard.type(objective);
    await tabTo(page, '#batch-maxConcurrency');
    await page.keyboard.type('1');
    await tabTo(page, 'button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.csv-check h2');
    expect(await page.textContent('.csv-check h2')).to.equal('1 of 3 rows cannot be called');

    const body = {
      defaults: { objective },
      maxConcurrency: 1,
      calls: [
        { to: '+14155550123', metadata: { shop: 'Corner Shop, Main St' } },
        { to: '12345', metadata: { shop: 'Bakery' } },
        { to: '+14155550113', metadata: { shop: 'The "Best" Deli' } },
      ],
    };
    const api = await rig.api('/v1/agent/batches/preflight', body);
    expect(api.body.valid).to.equal(false);
    const cells = await page.$$eval('table.csv-rows tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())));
    expect(cells).to.deep.equal([
      ['0', '+14155550123', 'ok'],
      ['1', '12345', `${api.body.errors[0].error} ${api.body.errors[0].message}`],
      ['2', '+14155550113', 'ok'],
    ]);
    expect(api.body.errors.map((e: { index: number }) => e.index)).to.deep.equal([1]);
    expect(await page.isDisabled('#batch-create')).to.equal(true);
    expect((await rig.api('/v1/agent/batches')).body.batches).to.have.length(0);
    await rig.accessible('batch-new');
    await rig.photograph('batch-new');
  });

  it('creates the batch once every row passes, and follows its progress and each row’s call', async () => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await choose('shops-fixed.csv', 'Phone,shop\n+14155550123,"Corner Shop, Main St"\n+14155550111,Bakery\n+14155550113,"The ""Best"" Deli"\n');
    await page.waitForSelector('legend:text-is("Columns of shops-fixed.csv (3 rows)")');
    expect(await page.inputValue('#batch-objective')).to.equal(objective);
    await tabTo(page, 'button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.csv-check h2:text-is("All 3 rows can be called")');
    await tabTo(page, '#batch-create');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/batches\/[0-9a-f-]+$/);
    const id = /#\/batches\/([0-9a-f-]+)$/.exec(page.url())![1];
    await page.waitForSelector('.status-line .chip-completed', { timeout: WAIT_MS });
    await page.waitForFunction(() => document.querySelectorAll('table.batch-rows tbody tr a').length === 3);
    const rows = (await rig.api(`/v1/agent/batches/${id}/rows`)).body.rows;
    expect(rows.map((r: { to: string; metadata: unknown }) => [r.to, r.metadata])).to.deep.equal([
      ['+14155550123', { shop: 'Corner Shop, Main St' }],
      ['+14155550111', { shop: 'Bakery' }],
      ['+14155550113', { shop: 'The "Best" Deli' }],
    ]);
    const shown = await page.$$eval('table.batch-rows tbody tr', (trs) =>
      trs.map((tr) => [tr.querySelector('td:nth-child(2)')?.textContent, tr.querySelector('a')?.getAttribute('href'), tr.querySelector('.chip')?.textContent]),
    );
    expect(shown).to.deep.equal(rows.map((r: { to: string; callId: string; calls: { status: string }[] }) => [r.to, `#/calls/${r.callId}`, r.calls[0].status.replace('_', ' ')]));
    expect(rows.map((r: { calls: { status: string }[] }) => r.calls[0].status)).to.deep.equal(['completed', 'no_answer', 'declined']);
    expect(await page.textContent('label:has(progress)')).to.include('3 of 3 calls ended');
    await rig.accessible('batch');
    await rig.photograph('batch');
    // A row's call opens from the keyboard.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, `table.batch-rows a[href="#/calls/${rows[1].callId}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.call-id:text-is("${rows[1].callId}")`);
  });
});
