// One batch: its status and progress (read again every 3 s while it runs), a cancel button while it runs, a link
// to its calls, each row with its state and its calls (listBatchRows, read with the progress; the first 100 rows), and its own events (batch.completed, canceled or stopped, once it ends) with their attempts and a
// redeliver button, as a call's page shows a call's.
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { Batch, BatchRow } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { BatchProgress, RUNNING } from './batches-page.js';
import { EventLog } from './event-log.js';
import { Chip, ErrorLine, when } from './ui.js';

export function BatchPage({ id }: { id: string }) {
  const [batch, setBatch] = useState<Batch | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  document.title = `Batch ${id.slice(0, 8)} · svc console`;
  const running = batch !== null && RUNNING.includes(batch.status);
  const [rows, setRows] = useState<BatchRow[] | null>(null);
  const load = () =>
    Promise.all([svc().getBatch(id), svc().listBatchRows(id, { limit: 100 })])
      .then(([b, r]) => {
        setBatch(b);
        setRows(r.rows);
      })
      .catch(setError);
  useEffect(() => void load(), [id]);
  // Progress is read again every 3 s while the batch runs, as on the list.
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void load(), 3000);
    return () => clearInterval(t);
  }, [id, running]);

  if (error) return html`<h1>Batch</h1><${ErrorLine} error=${error} /><p><a href="#/batches">All batches</a></p>`;
  if (!batch) return html`<h1>Batch</h1><p>Loading…</p>`;
  async function cancel() {
    setActionError(null);
    try {
      setBatch(await svc().cancelBatch(id));
    } catch (err) {
      setActionError(err);
    }
  }

  return html`
    <h1>Batch ${id.slice(0, 8)}</h1>
    <p class="status-line"><${Chip} status=${batch.status} />
      ${running ? html`<button type="button" class="danger" onClick=${cancel}>Cancel batch</button>` : null}
    </p>
    <${ErrorLine} error=${actionError} />
    <dl class="record">
      <dt>Created</dt><dd>${when(batch.createdAt)}</dd>
      <dt>Started</dt><dd>${when(batch.startedAt)}</dd>
      <dt>Ended</dt><dd>${when(batch.endedAt)}</dd>
      ${batch.stopReason ? html`<dt>Stop reason</dt><dd><code>${batch.stopReason}</code></dd>` : null}
      <dt>Calls</dt><dd><a href=${`#/calls?batch=${batch.id}`}>The batch's calls</a></dd>
    </dl>
    <${BatchProgress} batch=${batch} />
    <h2 id="batch-rows">Rows</h2>
    ${
      rows === null
        ? html`<p>Loading…</p>`
        : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="batch-rows">
          <table class="batch-rows">
            <thead><tr><th scope="col">Index</th><th scope="col">Number</th><th scope="col">Row</th><th scope="col">Calls</th></tr></thead>
            <tbody>
              ${rows.map(
                (r) => html`<tr data-row=${r.index}>
                  <td>${r.index}</td>
                  <td>${r.to}</td>
                  <td>${r.state}${r.reason ? html` (<code>${r.reason}</code>)` : null}</td>
                  <td>${r.calls.length === 0 ? '—' : r.calls.map((c, i) => html`${i > 0 ? ', ' : ''}<a href=${`#/calls/${c.id}`} aria-label=${`Call ${i + 1} of row ${r.index}: ${c.status.replace('_', ' ')}`}><${Chip} status=${c.status} /></a>`)}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>`
    }
    <${EventLog} source=${{ list: () => svc().listBatchEvents(id), redeliver: (eventId: string) => svc().redeliverBatchEvent(id, eventId) }} version=${running ? 0 : 1} />
    <p><a href="#/batches">All batches</a></p>
  `;
}
