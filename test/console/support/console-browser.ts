// The console's browser rig, shared by the console's test files: a real service process (role both) on SQLite with
// the sandbox at a tenth of real time, a webhook receiver on loopback, an account with a key, and headless Chromium
// (Debian's, as the /docs test) on one page. Every page a test visits is checked for console errors and for requests
// to another host after each test. `accessible` runs axe-core (no serious or critical violation); `photograph` takes
// the page at 1280 and 375 px wide into SVC_TEST_ARTIFACTS (default: the temp folder), failing if the page scrolls
// sideways at 375 px; docs/console/ holds a copy of each picture.
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { addNumber, createAccount, createKey } from '../../../server/src/accounts/accounts-repo.js';
import { migrate, type Store } from '../../../server/src/store/store.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { startService, type ServiceProcess } from '../../scale/support/service-process.js';
import { startReceiver, type Receiver } from '../../webhooks/support/receiver.js';

const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const SHOTS = process.env.SVC_TEST_ARTIFACTS ? join(process.env.SVC_TEST_ARTIFACTS, 'console') : join(tmpdir(), 'svc-console');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Playwright's waits in these files: the suite runs several files beside each other on a small machine. */
export const WAIT_MS = 120_000;

export interface ConsoleRig {
  service: ServiceProcess;
  store: Store;
  rx: Receiver;
  apiKey: string;
  accountId: string;
  page: Page;
  browser: Browser;
  /** Messages the page logged as errors, page errors and failed requests; a test removes the ones it expects. */
  problems: string[];
  /** A call of the public API with the rig's key: GET without a body, POST with one. */
  api(path: string, body?: unknown): Promise<{ status: number; body: any }>;
  accessible(name: string): Promise<void>;
  photograph(name: string): Promise<void>;
  /** Signs in on the console with the rig's key and waits for the calls page. */
  signIn(): Promise<void>;
}

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element matches `selector`, as a keyboard user moves; fails
 * after `most` presses.
 */
export async function tabTo(page: Page, selector: string, { most = 80, back = false } = {}): Promise<void> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`${selector} was not reached in ${most} presses of Tab`);
}

/** Registers the rig's hooks in the calling describe; its fields are there from its `before` on. */
export function consoleRig(options: { env?: Record<string, string> } = {}): ConsoleRig {
  const rig = { problems: [] as string[] } as ConsoleRig;
  const foreign: string[] = [];
  let dataDir: string | undefined;

  rig.api = async (path, body) => {
    const res = await fetch(`${rig.service.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${rig.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  rig.accessible = async (name) => {
    // Evaluated through the browser's debugging protocol: the page's Content-Security-Policy forbids inline scripts.
    await rig.page.evaluate(AXE);
    const violations = await rig.page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
    });
    const bad = violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad, `${name}: ${JSON.stringify(bad)}`).to.deep.equal([]);
  };

  rig.photograph = async (name) => {
    const page = rig.page;
    await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(100);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const wide =
      overflow > 0
        ? await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > 376)
              .map((e) => `${e.tagName}.${e.className}`)
              .slice(0, 8),
          )
        : [];
    expect(overflow, `${name} is wider than 375 px: ${wide.join(', ')}`).to.be.at.most(0);
    await page.screenshot({ path: join(SHOTS, `${name}-375.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  rig.signIn = async () => {
    await rig.page.goto(`${rig.service.url}/console`);
    await rig.page.fill('#api-key', rig.apiKey);
    await rig.page.click('button[type=submit]');
    await rig.page.waitForSelector('h1');
  };

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      if (process.env.SVC_TEST_BROWSER === 'required') throw new Error(`Chromium is required but not found at ${CHROMIUM}`);
      this.skip();
    }
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'svc-console-'));
    rig.store = openStore({ sqlitePath: join(dataDir, 'svc.db') });
    await migrate(rig.store);
    const now = Date.now();
    rig.accountId = await createAccount(rig.store.db, { name: 'console', planMinutes: 10_000, defaultCallerId: '+14155550100' }, now);
    await addNumber(rig.store.db, rig.accountId, '+14155550100', now);
    rig.apiKey = (await createKey(rig.store.db, { accountId: rig.accountId, name: 'console', rateLimit: 100 }, now)).key;
    rig.rx = await startReceiver();
    rig.service = await startService('both', {
      NODE_ENV: 'production',
      SVC_DATA_DIR: dataDir,
      SVC_SANDBOX_TIME_SCALE: '0.1',
      SVC_ENGINE_POLL_MS: '50',
      SVC_STREAM_POLL_MS: '100',
      SVC_WEBHOOK_ALLOW_PRIVATE: '1',
      ...options.env,
    });
    rig.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    rig.page = await rig.browser.newPage({ viewport: { width: 1280, height: 900 } });
    rig.page.setDefaultTimeout(WAIT_MS);
    rig.page.on('console', (m) => {
      if (m.type() === 'error') rig.problems.push(`console: ${m.text()}`);
    });
    rig.page.on('pageerror', (e) => rig.problems.push(`page: ${e.message}`));
    // A stream the page closes itself (leaving a call's page) is aborted, not failed.
    rig.page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') rig.problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    rig.page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(`${rig.service.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });
  });
  after(async () => {
    await rig.browser?.close();
    await rig.service?.stop();
    await rig.rx?.close();
    await rig.store?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(rig.problems, 'console errors').to.deep.equal([]);
    expect(foreign, 'requests to another host').to.deep.equal([]);
  });
  return rig;
}
