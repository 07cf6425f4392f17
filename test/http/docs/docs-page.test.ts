import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { operations } from '../../../server/src/generated/operations.gen.js';
import { freshStore, type TestStore } from '../../support/stores.js';
import { observedApp, type ObservedApp } from '../observability/observed-app.js';

// Debian's chromium; SVC_TEST_CHROMIUM points elsewhere. Without one the browser test is skipped, unless
// SVC_TEST_BROWSER=required (CI), where it fails.
const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOT = join(process.env.SVC_TEST_ARTIFACTS ?? tmpdir(), 'svc-docs.png');
// Every operation of the document, so one added to it must show on the page too.
const OPERATIONS = operations.map((o) => o.operationId);
const EVENTS = ['call.in_progress', 'call.completed', 'call.no_answer', 'call.voicemail', 'call.declined', 'call.failed', 'call.canceled'];

describe('/docs', () => {
  let ts: TestStore;
  let app: ObservedApp;
  before(async () => {
    ts = await freshStore('sqlite');
    app = await observedApp(ts.store);
  });
  after(async () => {
    await app?.close();
    await ts?.drop();
  });

  it('serves the page and the renderer from this service, with the policy link', async () => {
    const page = await fetch(`${app.baseUrl}/docs`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).to.include('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(html).to.include('<a id="policy" href="/docs/versioning">');
    expect(html).to.not.match(/https?:\/\//);
    for (const [path, type] of [
      ['/docs/assets/swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
      ['/docs/assets/swagger-ui.css', 'text/css; charset=utf-8'],
      ['/docs/assets/init.js', 'application/javascript; charset=utf-8'],
    ]) {
      const res = await fetch(`${app.baseUrl}${path}`);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.equal(type);
    }
    const missing = await fetch(`${app.baseUrl}/docs/assets/package.json`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ error: 'not_found', message: 'No route GET /docs/assets/package.json.' });
    expect((await fetch(`${app.baseUrl}/docs/versioning`)).headers.get('content-type')).to.equal('text/html; charset=utf-8');
  });

  describe('in headless Chromium', function () {
    this.timeout(60_000);
    let browser: Browser;
    before(async function () {
      if (!existsSync(CHROMIUM)) {
        if (process.env.SVC_TEST_BROWSER === 'required') throw new Error(`Chromium is required but not found at ${CHROMIUM}`);
        this.skip();
      }
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    });
    after(() => browser?.close());

    it('renders every operation and webhook event from /openapi.json with no console error and no request elsewhere', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      const foreign: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
      page.on('request', (r) => {
        if (!r.url().startsWith(app.baseUrl)) foreign.push(r.url());
      });
      const res = await page.goto(`${app.baseUrl}/docs`);
      expect(res?.status()).to.equal(200);
      await page.waitForSelector('.opblock', { timeout: 30_000 });

      for (const op of OPERATIONS) expect(await page.locator(`[id$="-${op}"]`).count(), op).to.equal(1);
      const summaries = await page.locator('.opblock-tag-section .opblock-summary').allInnerTexts();
      expect(summaries.map((s) => s.replace(/\s+/g, ' '))).to.have.length(OPERATIONS.length);
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as rendered, is what is checked.
      const text = await page.locator('#swagger-ui').innerText();
      expect(text).to.include('Webhooks');
      for (const event of EVENTS) expect(text, event).to.include(event);
      expect(await page.locator('#policy').getAttribute('href')).to.equal('/docs/versioning');
      expect(problems).to.deep.equal([]);
      expect(foreign).to.deep.equal([]);

      const png = await page.screenshot();
      writeFileSync(SCREENSHOT, png);
      expect(png.subarray(1, 4).toString()).to.equal('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).to.deep.equal([1280, 900]);
      // A blank or unstyled page compresses to a few kilobytes; the rendered reference is far larger.
      expect(png.length).to.be.greaterThan(40_000);
      await page.close();
    });
  });
});
