// Settings, read-only (getSettings): the signed-in key's defaults, the account's numbers and plan with its usage,
// and the webhook signing secret's fingerprint. Keys are managed with the CLI, and the page says
// why.
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { CallingWindow, Settings } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { ErrorLine } from './ui.js';
import './read-pages.css';

function windowText(w: CallingWindow | null): string {
  if (!w) return 'None: calls are dialled at any time';
  const days = w.days?.length ? w.days.map((d) => d[0]!.toUpperCase() + d.slice(1)).join(', ') : 'every day';
  return `${w.start}–${w.end}, ${days}, ${w.timeZone ? `in ${w.timeZone}` : "in the called number's time zone"}`;
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

export function SettingsPage() {
  const [s, setS] = useState<Settings | null>(null);
  const [error, setError] = useState<unknown>(null);
  document.title = 'Settings · svc console';
  useEffect(() => {
    const stop = new AbortController();
    svc()
      .getSettings({ signal: stop.signal })
      .then(setS)
      .catch((err) => stop.signal.aborted || setError(err));
    return () => stop.abort();
  }, []);

  return html`
    <h1>Settings</h1>
    <${ErrorLine} error=${error} />
    ${
      s === null
        ? error
          ? null
          : html`<p>Loading…</p>`
        : html`
          <section aria-labelledby="key-defaults">
            <h2 id="key-defaults">This key and its defaults</h2>
            <dl class="settings" data-section="key">
              <dt>Key</dt><dd>${s.key.name} (<code>${s.key.hint}</code>)</dd>
              <dt>Caller id</dt><dd data-setting="callerId">${s.key.callerId ?? `${s.account.defaultCallerId ?? 'none'} (the account's default)`}</dd>
              <dt>Voice</dt><dd data-setting="voice">${s.key.voice ?? `${s.defaultVoice} (the service's default)`}</dd>
              <dt>Calling window</dt><dd data-setting="callingWindow">${windowText(s.key.callingWindow)}</dd>
              <dt>Answering-machine detection</dt><dd data-setting="machineDetection">${s.key.machineDetection}</dd>
              <dt>On behalf of</dt><dd data-setting="onBehalfOf">${s.key.onBehalfOf ?? 'a customer (not named)'}</dd>
              <dt>Recording notice</dt><dd data-setting="recordingNotice">${s.key.recordingNotice ? 'on' : 'off'}</dd>
            </dl>
          </section>
          <section aria-labelledby="plan">
            <h2 id="plan">Plan and usage</h2>
            <dl class="settings" data-section="plan">
              <dt>Billing period</dt><dd>${day(s.plan.periodStart)} to ${day(s.plan.periodEnd)} (UTC)</dd>
              <dt>Minutes used</dt>
              <dd data-setting="usage">
                ${s.plan.usedMinutes} of ${s.plan.planMinutes}, ${s.plan.reservedMinutes} reserved by calls in flight
                <meter min="0" max=${s.plan.planMinutes} value=${s.plan.usedMinutes + s.plan.reservedMinutes} aria-label="Plan minutes used and reserved"></meter>
              </dd>
              <dt>Account</dt><dd>${s.account.name}</dd>
              <dt>Numbers (caller ids)</dt><dd data-setting="numbers">${s.account.numbers.join(', ') || 'none'}</dd>
            </dl>
          </section>
          <section aria-labelledby="webhooks">
            <h2 id="webhooks">Webhook signing secret</h2>
            <p>
              Fingerprint <code data-setting="fingerprint">${s.webhookSecretFingerprint}</code>: the first 8 hex digits of the
              secret's SHA-256 (<code>printf %s "$SECRET" | sha256sum | cut -c1-8</code>), to check which secret a receiver
              holds. The secret itself is never shown.
            </p>
          </section>
          <section aria-labelledby="keys">
            <h2 id="keys">Managing keys</h2>
            <p class="note">
              Keys are managed with the command line on the service's host (<code>npx svc keys …</code>), not here: a new
              key's secret is shown once, which a browser page should not hold, and revoking or rotating a key from a page
              signed in with one could sign the page out or leave it using a dead key.
            </p>
          </section>
        `
    }
  `;
}
