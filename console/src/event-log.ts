// An event log as the console shows it, for a call's events and a batch's own alike: each event with its delivery
// state, how many attempts were made (those no longer kept included) and the last one, and a Redeliver button for
// delivered, failed and gone events; each event's payload, as it was sent, opens under its name. While a delivery is
// pending the log is read again every second.
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { BatchEventLogEntry, CallEventLogEntry } from '../../sdk/src/generated/types.gen.js';
import { ErrorLine } from './ui.js';

type Entry = CallEventLogEntry | BatchEventLogEntry;
const REDELIVERABLE = ['delivered', 'failed', 'gone'];

/** Where a log is read and its events redelivered: the call's routes or the batch's. */
export interface EventSource {
  list(): Promise<Entry[]>;
  redeliver(eventId: string): Promise<unknown>;
}

/** `version`: the log is read again whenever it changes (its subject has just ended, say). */
export function EventLog({ source, version = 0 }: { source: EventSource; version?: number }) {
  const [events, setEvents] = useState<Entry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => source.list().then(setEvents).catch(setError);
  useEffect(() => void load(), [version]);
  useEffect(() => {
    if (!events?.some((e) => e.state === 'pending')) return;
    const t = setTimeout(() => void load(), 1000);
    return () => clearTimeout(t);
  }, [events]);

  async function redeliver(eventId: string) {
    setError(null);
    try {
      await source.redeliver(eventId);
      await load();
    } catch (err) {
      setError(err);
    }
  }

  return html`
    <h2>Events</h2>
    <${ErrorLine} error=${error} />
    ${
      events === null
        ? html`<p>Loading…</p>`
        : events.length === 0
          ? html`<p class="empty">No events yet.</p>`
          : html`<div class="table-wrap"><table class="events">
            <thead><tr><th scope="col">Event</th><th scope="col">Delivery</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
              ${events.map((e) => {
                const last = e.attempts.at(-1);
                return html`<tr data-event=${e.eventId}>
                  <td>
                    <details class="payload">
                      <summary>${e.event}</summary>
                      <pre tabindex="0"><code>${JSON.stringify(e.payload, null, 2)}</code></pre>
                    </details>
                  </td>
                  <td><span class=${`state state-${e.state}`}>${e.state}</span></td>
                  <td>${e.attempts.length + e.attemptsOmitted}</td>
                  <td>${last ? `${last.statusCode ?? last.error ?? '—'} · ${last.latencyMs} ms${last.redelivery ? ' · redelivery' : ''}` : '—'}</td>
                  <td>${REDELIVERABLE.includes(e.state) ? html`<button type="button" class="secondary" onClick=${() => redeliver(e.eventId)}>Redeliver</button>` : null}</td>
                </tr>`;
              })}
            </tbody>
          </table></div>`
    }
  `;
}
