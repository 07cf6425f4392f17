// The landing page: what the account's calls did over the last 7, 30 or 90 days (getStats): calls per day as bars
// with a table beside them for screen readers and for exact numbers, outcomes by status and by who answered, the
// answer and completion rates, minutes against the plan, turn latency, webhook deliveries failed or gone, and the
// commonest errors. Each status links to the calls page filtered by it over the same period.
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { AccountStats } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { ErrorLine } from './ui.js';
import './read-pages.css';

const DAY_MS = 86_400_000;
const PERIODS = [7, 30, 90];

/** The first millisecond of the UTC day `days - 1` days ago: the period holds `days` whole UTC days, today's included. */
export const periodStart = (days: number, now = Date.now()) => Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;

const percent = (r: number | null) => (r === null ? '—' : `${Math.round(r * 1000) / 10}%`);
const ms = (v: number | null) => (v === null ? '—' : `${v} ms`);
const label = (s: string) => s.replace('_', ' ');
const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

function Counts({ caption, what, counts, total, link }: { caption: string; what: string; counts: Record<string, number>; total: number; link: (key: string) => string }) {
  return html`
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">${caption}</caption>
        <thead><tr><th scope="col">${what}</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Share</th></tr></thead>
        <tbody>
          ${Object.entries(counts).map(
            ([key, n]) => html`
              <tr key=${key}>
                <th scope="row"><a href=${link(key)}>${key === 'none' ? 'no one' : label(key)}</a></th>
                <td class="num">${n}</td>
                <td class="num">${total === 0 ? '—' : `${Math.round((n / total) * 100)}%`}</td>
              </tr>
            `,
          )}
        </tbody>
      </table>
    </div>
  `;
}

function PerDay({ perDay }: { perDay: AccountStats['perDay'] }) {
  const peak = Math.max(0, ...perDay.map((d) => d.calls));
  const most = Math.max(1, peak);
  const first = perDay[0];
  const last = perDay.at(-1);
  return html`
    <figure class="per-day" aria-labelledby="per-day-title">
      <h2 id="per-day-title">Calls per day</h2>
      <ol class="bars" aria-hidden="true">
        ${perDay.map((d) => html`<li key=${d.date} title=${`${shortDate(d.date)}: ${d.calls}`}><span class="bar" style=${{ height: `${(d.calls / most) * 100}%` }}></span></li>`)}
      </ol>
      <div class="bars-axis" aria-hidden="true"><span>${first ? shortDate(first.date) : ''}</span><span>most in a day: ${peak}</span><span>${last ? shortDate(last.date) : ''}</span></div>
      <details>
        <summary>Calls per day as a table</summary>
        <div class="table-wrap">
          <table>
            <thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="num">Calls</th></tr></thead>
            <tbody>${perDay.map((d) => html`<tr key=${d.date}><td>${d.date}</td><td class="num">${d.calls}</td></tr>`)}</tbody>
          </table>
        </div>
      </details>
    </figure>
  `;
}

export function OverviewPage() {
  const [days, setDays] = useState(30);
  const [stats, setStats] = useState<AccountStats | null>(null);
  const [error, setError] = useState<unknown>(null);
  document.title = 'Overview · svc console';

  useEffect(() => {
    const stop = new AbortController();
    setStats(null);
    svc()
      .getStats({ createdFrom: new Date(periodStart(days)).toISOString(), signal: stop.signal })
      .then((s) => {
        setStats(s);
        setError(null);
      })
      .catch((err) => stop.signal.aborted || setError(err));
    return () => stop.abort();
  }, [days]);

  const since = new Date(periodStart(days)).toISOString();
  const callsLink = (filter: string) => `#/calls?${filter}&from=${encodeURIComponent(since)}`;
  const s = stats;
  const plan = s?.minutes.plan;
  return html`
    <h1>Overview</h1>
    <fieldset class="period">
      <legend>Period</legend>
      ${PERIODS.map(
        (d) => html`
          <label key=${d}>
            <input type="radio" name="period" value=${d} checked=${days === d} onChange=${() => setDays(d)} />
            Last ${d} days
          </label>
        `,
      )}
    </fieldset>
    <${ErrorLine} error=${error} />
    ${
      s === null
        ? error
          ? null
          : html`<p aria-live="polite">Loading…</p>`
        : html`
          <p class="counts" aria-live="polite">${s.calls} calls since ${shortDate(s.perDay[0]!.date)} (UTC days).</p>
          <dl class="figures">
            <div><dt>Calls</dt><dd data-figure="calls">${s.calls}</dd></div>
            <div><dt>Answer rate</dt><dd data-figure="answer-rate">${percent(s.answerRate)}<small>of calls dialled</small></dd></div>
            <div><dt>Completion rate</dt><dd data-figure="completion-rate">${percent(s.completionRate)}<small>ended completed</small></dd></div>
            <div><dt>Minutes billed</dt><dd data-figure="minutes">${s.minutes.billed}<small>in this period</small></dd></div>
            <div>
              <dt>Plan this month</dt>
              <dd data-figure="plan">
                ${plan!.usedMinutes} of ${plan!.planMinutes} min
                <small>${plan!.reservedMinutes} reserved</small>
                <meter min="0" max=${plan!.planMinutes} value=${plan!.usedMinutes} aria-label="Plan minutes used">${plan!.usedMinutes} of ${plan!.planMinutes}</meter>
              </dd>
            </div>
            <div><dt>Turn latency p50 / p95</dt><dd data-figure="latency">${ms(s.latency.p50Ms)} / ${ms(s.latency.p95Ms)}<small>${s.latency.calls} timed calls</small></dd></div>
            <div><dt>Webhook deliveries failed / gone</dt><dd data-figure="webhooks">${s.webhooks.failed} / ${s.webhooks.gone}</dd></div>
          </dl>
          <${PerDay} perDay=${s.perDay} />
          <div class="split">
            <section aria-labelledby="by-status">
              <h2 id="by-status">Outcomes</h2>
              <${Counts} caption="Calls by status" what="Status" counts=${s.byStatus} total=${s.calls} link=${(k: string) => callsLink(`status=${k}`)} />
            </section>
            <section aria-labelledby="by-answered">
              <h2 id="by-answered">Answered by</h2>
              <${Counts} caption="Calls by who answered" what="Answered by" counts=${s.byAnsweredBy} total=${s.calls} link=${(k: string) => callsLink(`answeredBy=${k}`)} />
            </section>
          </div>
          <section aria-labelledby="errors">
            <h2 id="errors">Commonest errors</h2>
            ${
              s.errors.length === 0
                ? html`<p class="empty">No call of this period ended with an error.</p>`
                : html`
                  <div class="table-wrap">
                    <table>
                      <thead><tr><th scope="col">Error</th><th scope="col" class="num">Calls</th></tr></thead>
                      <tbody>${s.errors.map((e) => html`<tr key=${e.error}><td><code>${e.error}</code></td><td class="num">${e.calls}</td></tr>`)}</tbody>
                    </table>
                  </div>
                `
            }
          </section>
        `
    }
  `;
}
