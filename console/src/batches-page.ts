// Batches, newest first, with their progress (calls ended of the total, by status) and a cancel button while
// they run; each links to its calls and to its own page (batch-page.ts: its events).
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { Batch } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { Chip, Empty, ErrorLine, when } from './ui.js';

export const RUNNING = ['queued', 'running', 'paused'];
const ENDED_CALLS = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];

/** A batch's calls ended of its total, as a progress bar, and its calls by status. */
export function BatchProgress({ batch: b }: { batch: Batch }) {
  const counts = b.counts as Record<string, number>;
  const ended = ENDED_CALLS.reduce((n, s) => n + (counts[s] ?? 0), 0);
  return html`
    <label>
      ${ended} of ${b.total} calls ended
      <progress max=${b.total} value=${ended}>${ended} of ${b.total}</progress>
    </label>
    <p class="counts">${Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${s.replace('_', ' ')} ${n}`)
      .join(' · ')}</p>
  `;
}

export function BatchesPage() {
  const [batches, setBatches] = useState<Batch[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  document.title = 'Batches · svc console';
  const load = () =>
    svc()
      .listBatches({ limit: 50 })
      .then((l) => setBatches(l.batches))
      .catch(setError);
  useEffect(() => {
    void load();
    // Progress is read again every few seconds while a batch runs (well inside any rate limit: reads are free).
    const t = setInterval(() => void load(), 3000);
    return () => clearInterval(t);
  }, []);
  async function cancel(id: string) {
    try {
      await svc().cancelBatch(id);
      await load();
    } catch (err) {
      setError(err);
    }
  }
  return html`
    <h1>Batches</h1>
    <p><a href="#/batches/new">New batch from a CSV file</a></p>
    <${ErrorLine} error=${error} />
    ${
      batches === null
        ? html`<p>Loading…</p>`
        : batches.length === 0
          ? html`<${Empty}>No batches yet. Create one from a CSV file, or with the API's createBatch.<//>`
          : html`<ul class="batches">
            ${batches.map(
              (b) => html`<li class="batch" data-batch=${b.id}>
                <div class="batch-head">
                  <${Chip} status=${b.status} />
                  <a href=${`#/calls?batch=${b.id}`}>${b.id.slice(0, 8)}</a>
                  <span>${when(b.createdAt)}</span>
                  ${b.stopReason ? html`<span>(${b.stopReason})</span>` : null}
                  <a href=${`#/batches/${b.id}`} aria-label=${`Events of batch ${b.id.slice(0, 8)}`}>Events</a>
                  ${RUNNING.includes(b.status) ? html`<button type="button" class="danger" onClick=${() => cancel(b.id)}>Cancel batch</button>` : null}
                </div>
                <${BatchProgress} batch=${b} />
              </li>`,
            )}
          </ul>`
    }
  `;
}
