// "Place a call" in headless Chromium against a real service (test/console/support/console-browser.ts): a form for
// people whose every problem is shown at its control (aria-invalid, aria-describedby naming the message), listed,
// with the first focused and in view; every problem the API answers at the control its field is about (two only
// the service can see, at once); the voice a choice of the
// voices openapi.yaml lists; fields, the calling window, voicemail, redial and transfer as controls making the body
// the Advanced JSON view shows, and the view editing the form back; and a call placed from the keyboard alone.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { parse } from 'yaml';
import { consoleRig, tabTo } from './support/console-browser.js';

const objective = 'Ask whether the shop is open on Sunday and until what time.';

describe('the console’s place-a-call form in headless Chromium', function () {
  this.timeout(300_000);
  const rig = consoleRig();
  let page: Page;
  before(async () => {
    page = rig.page;
    await rig.signIn();
  });

  async function open(): Promise<void> {
    await page.goto(`${rig.service.url}/console#/calls`);
    await page.waitForSelector('h1');
    await page.click('nav a:has-text("Place a call")');
    await page.waitForSelector('#f-to');
  }

  /** The problem shown at a control: aria-invalid, and the text of the message its aria-describedby names first. */
  const problemAt = (id: string) =>
    page.evaluate((id) => {
      const control = document.getElementById(id)!;
      const first = control.getAttribute('aria-describedby')?.split(' ')[0];
      return { invalid: control.getAttribute('aria-invalid'), message: first?.startsWith('e-') ? document.getElementById(first)?.textContent : null };
    }, id);
  const focused = () => page.evaluate(() => document.activeElement?.id);
  const inView = (id: string) =>
    page.evaluate((id) => {
      const r = document.getElementById(id)!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, id);

  it('shows every problem of the form at its control, lists them all, and focuses the first in view', async () => {
    await open();
    await page.fill('#f-to', '12345');
    await page.click('#f-fields-add');
    await page.fill('#field-0-name', '1st');
    await page.fill('#f-window-start', '09:00');
    await page.click('button:has-text("Place call")');
    await page.waitForSelector('.error-summary');
    const listed = await page.$$eval('.error-summary li', (lis) => lis.map((li) => li.textContent?.trim()));
    const expected = {
      'f-to': 'Write the number to call with a plus sign and its country code, such as +14155550123.',
      'f-objective': 'Say what the call should achieve.',
      'field-0-name': 'Field 1: a name starts with a letter or underscore, then letters, digits or underscores (at most 64).',
      'f-window-end': 'Give the time the calling window closes.',
    };
    expect(listed).to.deep.equal(Object.values(expected));
    for (const [id, message] of Object.entries(expected)) expect(await problemAt(id), id).to.deep.equal({ invalid: 'true', message });
    expect(await problemAt('f-webhookUrl')).to.deep.equal({ invalid: null, message: null });
    expect(await focused()).to.equal('f-to');
    expect(await inView('f-to')).to.equal(true);
    expect((await rig.api('/v1/agent/calls')).body.calls).to.have.length(0);
    await rig.accessible('place-errors');
    await rig.photograph('place-errors');

    // Fixed, the next problem is the API's: shown at the control its token is about, focused and in view.
    await page.fill('#f-to', '+14155550123');
    await page.fill('#f-objective', objective);
    await page.fill('#field-0-name', 'open_sunday');
    await page.fill('#f-window-end', '17:00');
    await page.fill('#f-windowZone', 'Mars/Base');
    await page.click('button:has-text("Preflight")');
    await page.waitForSelector('.error-summary code:text-is("invalid_calling_window")');
    expect((await problemAt('f-window-start')).invalid).to.equal('true');
    expect(await focused()).to.equal('f-window-start');
    expect(await inView('f-window-start')).to.equal(true);
    // A guardrail's token, which the schema does not name, is at its control too.
    await page.fill('#f-windowZone', 'America/New_York');
    await page.fill('#f-callerId', '+14155559999');
    await page.click('button:has-text("Preflight")');
    await page.waitForSelector('.error-summary code:text-is("caller_id_not_owned")');
    expect(await problemAt('f-callerId')).to.deep.include({ invalid: 'true' });
    expect(await problemAt('f-window-start')).to.deep.equal({ invalid: null, message: null });
    expect(await focused()).to.equal('f-callerId');
    expect(await inView('f-callerId')).to.equal(true);
    // An error naming a row of the tools is shown at that tool.
    await page.fill('#f-callerId', '');
    await page.click('#f-tools-add');
    await page.click('#f-tools-add');
    for (const i of [0, 1]) {
      await page.fill(`#tool-${i}-name`, `tool_${i}`);
      await page.fill(`#tool-${i}-description`, 'Looks up where an order is.');
    }
    await page.fill('#tool-0-url', 'https://example.com/tools/orders');
    await page.click('button:has-text("Preflight")');
    await page.waitForSelector('.error-summary code:text-is("invalid_tools")');
    const api = await rig.api('/v1/agent/calls/preflight', {
      to: '+14155550123',
      objective,
      tools: [
        { name: 'tool_0', description: 'Looks up where an order is.', url: 'https://example.com/tools/orders' },
        { name: 'tool_1', description: 'Looks up where an order is.' },
      ],
    });
    expect(api.body.error).to.equal('invalid_tools');
    expect(await problemAt('tool-1-name')).to.deep.equal({ invalid: 'true', message: api.body.message });
    expect(await focused()).to.equal('tool-1-name');
    rig.problems.splice(0, rig.problems.length, ...rig.problems.filter((p) => !p.includes('400')));
  });

  it('shows every problem the API answers at its field: a number on the do-not-call list and a caller id not owned', async () => {
    expect((await rig.api('/v1/agent/do-not-call', { number: '+14155550177' })).status).to.equal(201);
    await open();
    // Both pass the form's own checks; only the service knows the list and the account's numbers.
    await page.fill('#f-to', '+14155550177');
    await page.fill('#f-objective', objective);
    await page.fill('#f-callerId', '+14155559999');
    await page.click('button:has-text("Place call")');
    await page.waitForSelector('.error-summary code:text-is("caller_id_not_owned")');
    const api = await rig.api('/v1/agent/calls/preflight', { to: '+14155550177', objective, callerId: '+14155559999' });
    expect(api.body.errors.map((e: { error: string; field: string }) => [e.error, e.field])).to.deep.equal([
      ['destination_opted_out', 'to'],
      ['caller_id_not_owned', 'callerId'],
    ]);
    const [optedOut, notOwned] = api.body.errors as { message: string }[];
    const listed = await page.$$eval('.error-summary li', (lis) => lis.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    expect(listed).to.deep.equal([`destination_opted_out ${optedOut.message}`, `caller_id_not_owned ${notOwned.message}`]);
    expect(await problemAt('f-to')).to.deep.equal({ invalid: 'true', message: optedOut.message });
    expect(await problemAt('f-callerId')).to.deep.equal({ invalid: 'true', message: notOwned.message });
    expect(await focused()).to.equal('f-to');
    expect(await inView('f-to')).to.equal(true);
    const calls = (await rig.api('/v1/agent/calls')).body.calls as { to: string }[];
    expect(calls.filter((c) => c.to === '+14155550177')).to.have.length(0);
    rig.problems.splice(0, rig.problems.length, ...rig.problems.filter((p) => !p.includes('400')));
  });

  it('offers the voices openapi.yaml lists for placeCall, as a choice', async () => {
    const doc = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    const description: string = doc.components.schemas.PlaceCallRequest.properties.voice.description;
    const listed = [...(/offer (.*?)\(/.exec(description)![1].matchAll(/`([a-z]+)`/g) ?? [])].map((m) => m[1]);
    expect(listed).to.include.members(['alloy', 'marin', 'cedar']);
    await open();
    const options = await page.$$eval('#f-voice option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).to.deep.equal(['', ...listed]);
  });

  it('builds the body from the controls as the Advanced view shows it, edits the form from that view, and places it', async () => {
    await open();
    await page.fill('#f-to', '+14155550123');
    await page.fill('#f-objective', objective);
    await page.click('#f-fields-add');
    await page.fill('#field-0-name', 'open_sunday');
    await page.selectOption('#field-0-type', 'boolean');
    await page.fill('#field-0-description', 'Whether the shop opens on Sundays');
    await page.click('#f-fields-add');
    await page.fill('#field-1-name', 'closing_time');
    await page.click('#f-fields-add');
    await page.click('button[aria-label="Remove field 3"]');
    await page.selectOption('#f-voice', 'sage');
    await page.fill('#f-window-start', '08:30');
    await page.fill('#f-window-end', '23:30');
    for (const day of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']) await page.check(`#f-day-${day}`);
    await page.uncheck('#f-day-sun');
    await page.fill('#f-windowZone', 'America/Los_Angeles');
    await page.selectOption('#f-voicemail', 'leave_message');
    await page.fill('#f-voicemailMessage', 'Please call us back.');
    await page.fill('#f-redialNoAnswer', '2');
    await page.fill('#f-redial-after', '30');
    await page.fill('#f-transfer-to', '+14155550142');
    await page.selectOption('#f-transferMode', 'warm');
    await page.fill('#f-metadata', 'order_id=8841\ncampaign=sunday');
    await page.selectOption('#f-recordingNotice', 'false');
    const body = {
      to: '+14155550123',
      objective,
      metadata: { order_id: '8841', campaign: 'sunday' },
      fields: [
        { name: 'open_sunday', type: 'boolean', description: 'Whether the shop opens on Sundays' },
        { name: 'closing_time', type: 'string' },
      ],
      voice: 'sage',
      callingWindow: { start: '08:30', end: '23:30', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], timeZone: 'America/Los_Angeles' },
      voicemail: { action: 'leave_message', message: 'Please call us back.' },
      redial: { afterMinutes: 30, onNoAnswer: 2 },
      transfer: { to: '+14155550142', mode: 'warm' },
      recordingNotice: false,
    };
    await page.click('details.advanced summary');
    expect(JSON.parse(await page.inputValue('#f-json'))).to.deep.equal(body);
    await rig.accessible('place-form');
    await rig.photograph('place-form');

    // The JSON view edits the form: its objective and its fields.
    const edited = { ...body, objective: 'Ask when the shop opens on Monday.', fields: [{ name: 'opens_at', type: 'string' }] };
    await page.fill('#f-json', JSON.stringify(edited));
    expect(await page.inputValue('#f-objective')).to.equal('Ask when the shop opens on Monday.');
    expect(await page.inputValue('#field-0-name')).to.equal('opens_at');
    expect(await page.locator('#field-1-name').count()).to.equal(0);
    expect(await page.inputValue('#f-window-start')).to.equal('08:30');
    expect(await page.isChecked('#f-day-sun')).to.equal(false);

    await page.click('button:has-text("Place call")');
    await page.waitForURL(/#\/calls\/[0-9a-f-]+$/);
    const id = /#\/calls\/([0-9a-f-]+)$/.exec(page.url())![1];
    const record = (await rig.api(`/v1/agent/calls/${id}`)).body;
    expect(record).to.deep.include({ objective: 'Ask when the shop opens on Monday.', voice: 'sage', callingWindow: body.callingWindow, transfer: { ...body.transfer, when: record.transfer.when } });
    expect(record.metadata).to.deep.equal(body.metadata);
  });

  it('places a call from the keyboard alone', async () => {
    await open();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, '#f-to');
    await page.keyboard.type('+14155550123');
    await page.keyboard.press('Tab');
    expect(await focused()).to.equal('f-objective');
    await page.keyboard.type(objective);
    await tabTo(page, '#f-fields-add');
    await page.keyboard.press('Enter');
    await tabTo(page, '#field-0-name', { back: true });
    await page.keyboard.type('open_sunday');
    await page.keyboard.press('Tab');
    expect(await focused()).to.equal('field-0-type');
    // A select moves by the arrow keys: Text, then Yes or no.
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#field-0-type')).to.equal('boolean');
    await tabTo(page, '#f-voice');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, 'button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/calls\/[0-9a-f-]+$/);
    const id = /#\/calls\/([0-9a-f-]+)$/.exec(page.url())![1];
    const record = (await rig.api(`/v1/agent/calls/${id}`)).body;
    expect(record).to.deep.include({ to: '+14155550123', objective, voice: 'alloy' });
    expect(await rig.store.db.selectFrom('calls').select('fields_json').where('id', '=', id).executeTakeFirstOrThrow()).to.deep.equal({
      fields_json: JSON.stringify([{ name: 'open_sunday', type: 'boolean' }]),
    });
  });
});
