// Calls, newest first, with their status, destination, objective, duration and batch; filtered by status and
// batch. New calls and status changes come in live from the key's stream (GET /v1/agent/stream).
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { CallSummary } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { Chip, Empty, ErrorLine, seconds, TERMINAL } from './ui.js';

const STATUSES = ['queued', 'dialing', 'in_progress', ...TERMINAL];

export function CallsPage() {
  const [calls, setCalls] = useState<CallSummary[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [batchId, setBatchId] = useState(new URLSearchParams(location.hash.split('?')[1] ?? '').get('batch') ?? '');
  const [live, setLive] = useState(false);
  document.title = 'Calls · svc console';

  useEffect(() => {
    const stop = new AbortController();
    const load = () =>
      svc()
        .listCalls({ limit: 100, ...(batchId.trim() ? { batchId: batchId.trim() } : {}), signal: stop.signal })
        .then((list) => {
          setCalls(list.calls);
          setError(null);
        })
        .catch((err) => stop.signal.aborted || setError(err));
    void load();
    // Live: a status change updates its row; a call not on the page yet reloads the list.
    (async () => {
      try {
        setLive(true);
        for await (const e of svc().streamEvents({ signal: stop.signal })) {
          if (e.event !== 'status') continue;
          const { callId, status: next, durationSec } = e.data;
          let known = false;
          setCalls((list) => {
            known = !!list?.some((c) => c.id === callId);
            return list?.map((c) => (c.id === callId ? { ...c, status: next, durationSec: durationSec ?? c.durationSec } : c)) ?? list;
          });
          if (!known) void load();
        }
      } catch (err) {
        if (!stop.signal.aborted) setError(err);
      } finally {
        setLive(false);
      }
    })();
    return () => stop.abort();
  }, [batchId]);

  const shown = calls?.filter((c) => !status || c.status === status) ?? null;
  return html`
    <h1>Calls</h1>
    <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>Status
        <select value=${status} onChange=${(e: Event) => setStatus((e.target as HTMLSelectElement).value)}>
          <option value="">any</option>
          ${STATUSES.map((s) => html`<option value=${s}>${s.replace('_', ' ')}</option>`)}
        </select>
      </label>
      <label>Batch
        <input type="text" placeholder="batch id" value=${batchId} onChange=${(e: Event) => setBatchId((e.target as HTMLInputElement).value)} />
      </label>
      <span class="live" aria-live="polite">${live ? 'live' : ''}</span>
    </form>
    <${ErrorLine} error=${error} />
    ${
      shown === null
        ? html`<p>Loading…</p>`
        : shown.length === 0
          ? html`<${Empty}>No calls${status || batchId ? ' match these filters' : ' yet'}. <a href="#/place">Place a call</a>.<//>`
          : html`
            <div class="table-wrap">
              <table>
                <thead>
                  <tr><th scope="col">Status</th><th scope="col">To</th><th scope="col">Objective</th><th scope="col">Duration</th><th scope="col">Batch</th></tr>
                </thead>
                <tbody>
                  ${shown.map(
                    (c) => html`
                      <tr key=${c.id} data-call=${c.id}>
                        <td><${Chip} status=${c.status} /></td>
                        <td><a href=${`#/calls/${c.id}`}>${c.to ?? c.id}</a></td>
                        <td class="objective">${c.objective}</td>
                        <td>${seconds(c.durationSec)}</td>
                        <td>${c.batchId ? html`<a href=${`#/calls?batch=${c.batchId}`} onClick=${() => setBatchId(c.batchId!)}>${c.batchId.slice(0, 8)}</a>` : '—'}</td>
                      </tr>
                    `,
                  )}
                </tbody>
              </table>
            </div>
          `
    }
  `;
}
