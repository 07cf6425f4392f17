// Calls, newest first, 100 a page: created time, status, destination, who answered, objective, duration and batch.
// The search (number, objective, metadata values) and the filters (status, answered by, batch, created from and
// to, as local days) go to the API (listCalls), which pages with a cursor: "Next page" follows the page's
// nextCursor and "Previous page" goes back to a cursor already seen, so a page never grows past 100 rows. New
// calls and status changes come in live from the key's stream (GET /v1/agent/stream): a status change updates its
// row, and a call not on the page reloads the first page. The address may carry the first filters
// (`#/calls?status=failed&from=<ISO>`: the overview's links, and `batch=<id>`: a batch's).
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { CallList, CallSummary } from '../../sdk/src/generated/types.gen.js';
import type { ListCallsQuery } from '../../sdk/src/svc-client.js';
import { svc } from './api.js';
import { Chip, Empty, ErrorLine, seconds, TERMINAL, when } from './ui.js';
import './read-pages.css';

const STATUSES = ['queued', 'dialing', 'in_progress', ...TERMINAL];
const ANSWERED_BY = ['human', 'machine', 'fax', 'unknown', 'none'];
const PAGE = 100;

interface Filters {
  q: string;
  status: string;
  answeredBy: string;
  batchId: string;
  /** Local days, YYYY-MM-DD: from its start, to its end. */
  from: string;
  to: string;
}

/** The local day (YYYY-MM-DD) an instant falls on. */
const localDay = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** The first instant of a local day, or of the day after it. */
const dayStart = (day: string, after = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + after).toISOString();
};

const NONE: Filters = { q: '', status: '', answeredBy: '', batchId: '', from: '', to: '' };

function fromAddress(): Filters {
  const p = new URLSearchParams(location.hash.split('?')[1] ?? '');
  return { q: p.get('q') ?? '', status: p.get('status') ?? '', answeredBy: p.get('answeredBy') ?? '', batchId: p.get('batch') ?? '', from: p.get('from') ? localDay(p.get('from')!) : '', to: '' };
}

function queryOf(f: Filters, cursor: string | undefined): ListCallsQuery {
  const q: ListCallsQuery = { limit: PAGE };
  if (f.q.trim()) q.q = f.q.trim();
  if (f.status) q.status = f.status;
  if (f.answeredBy) q.answeredBy = f.answeredBy as ListCallsQuery['answeredBy'];
  if (f.batchId.trim()) q.batchId = f.batchId.trim();
  if (f.from) q.createdFrom = dayStart(f.from);
  if (f.to) q.createdTo = dayStart(f.to, 1);
  if (cursor) q.cursor = cursor;
  return q;
}

export function CallsPage() {
  const [list, setList] = useState<CallList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [filters, setFilters] = useState<Filters>(fromAddress);
  // The cursors of the pages seen so far: cursors[i] starts page i (the first page has none).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [live, setLive] = useState(false);
  const page = cursors.length - 1;
  const filtered = Object.values(filters).some((v) => v.trim() !== '');
  document.title = 'Calls · svc console';

  const set = (name: keyof Filters) => (e: Event) => {
    const value = (e.target as HTMLInputElement | HTMLSelectElement).value;
    setFilters((f) => (f[name] === value ? f : { ...f, [name]: value }));
    setCursors([undefined]);
  };

  useEffect(() => {
    const stop = new AbortController();
    const load = () =>
      svc()
        .listCalls({ ...queryOf(filters, cursors[page]), signal: stop.signal })
        .then((l) => {
          setList(l);
          setError(null);
        })
        .catch((err) => stop.signal.aborted || setError(err));
    setList(null);
    void load();
    // Live: a status change updates its row; a call not on the page reloads the first page.
    (async () => {
      try {
        setLive(true);
        for await (const e of svc().streamEvents({ signal: stop.signal })) {
          if (e.event !== 'status') continue;
          const { callId, status: next, durationSec } = e.data;
          let known = false;
          setList((l) => {
            known = !!l?.calls.some((c) => c.id === callId);
            return l && { ...l, calls: l.calls.map((c) => (c.id === callId ? { ...c, status: next, durationSec: durationSec ?? c.durationSec } : c)) };
          });
          if (!known && page === 0) void load();
        }
      } catch (err) {
        if (!stop.signal.aborted) setError(err);
      } finally {
        setLive(false);
      }
    })();
    return () => stop.abort();
  }, [filters, cursors]);

  const calls: CallSummary[] | null = list?.calls ?? null;
  return html`
    <h1>Calls</h1>
    <form class="filters" role="search" aria-label="Search and filter calls" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>Search
        <input type="search" name="q" placeholder="number, objective or metadata" value=${filters.q} onChange=${set('q')} />
      </label>
      <label>Status
        <select name="status" value=${filters.status} onChange=${set('status')}>
          <option value="">any</option>
          ${STATUSES.map((s) => html`<option value=${s}>${s.replace('_', ' ')}</option>`)}
        </select>
      </label>
      <label>Answered by
        <select name="answeredBy" value=${filters.answeredBy} onChange=${set('answeredBy')}>
          <option value="">anyone or no one</option>
          ${ANSWERED_BY.map((a) => html`<option value=${a}>${a === 'none' ? 'no one' : a}</option>`)}
        </select>
      </label>
      <label>Batch
        <input type="text" name="batch" placeholder="batch id" value=${filters.batchId} onChange=${set('batchId')} />
      </label>
      <label>Created from
        <input type="date" name="from" value=${filters.from} onChange=${set('from')} />
      </label>
      <label>Created to
        <input type="date" name="to" value=${filters.to} onChange=${set('to')} />
      </label>
      <button type="submit">Search</button>
      ${
        filtered
          ? html`<button
              type="button"
              class="secondary"
              onClick=${() => {
                setFilters(NONE);
                setCursors([undefined]);
              }}
            >
              Clear filters
            </button>`
          : null
      }
      <span class="live" aria-live="polite">${live ? 'live' : ''}</span>
    </form>
    <${ErrorLine} error=${error} />
    ${
      calls === null
        ? error
          ? null
          : html`<p>Loading…</p>`
        : calls.length === 0
          ? html`<${Empty}>No calls${filtered ? ' match these filters' : ' yet'}. <a href="#/place">Place a call</a>.<//>`
          : html`
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Created</th><th scope="col">Status</th><th scope="col">To</th><th scope="col">Answered by</th>
                    <th scope="col">Objective</th><th scope="col">Duration</th><th scope="col">Batch</th>
                  </tr>
                </thead>
                <tbody>
                  ${calls.map(
                    (c) => html`
                      <tr key=${c.id} data-call=${c.id}>
                        <td class="when"><time datetime=${c.createdAt}>${when(c.createdAt)}</time></td>
                        <td><${Chip} status=${c.status} /></td>
                        <td><a href=${`#/calls/${c.id}`}>${c.to ?? c.id}</a></td>
                        <td>${c.answeredBy ?? '—'}</td>
                        <td class="objective">${c.objective}</td>
                        <td>${seconds(c.durationSec)}</td>
                        <td>${
                          c.batchId
                            ? html`<a
                                href=${`#/calls?batch=${c.batchId}`}
                                onClick=${() => {
                                  setFilters((f) => ({ ...f, batchId: c.batchId! }));
                                  setCursors([undefined]);
                                }}
                                >${c.batchId.slice(0, 8)}</a
                              >`
                            : '—'
                        }</td>
                      </tr>
                    `,
                  )}
                </tbody>
              </table>
            </div>
          `
    }
    ${
      calls !== null && (page > 0 || list?.nextCursor)
        ? html`
          <nav class="pager" aria-label="Pages of calls">
            <button type="button" class="secondary" disabled=${page === 0} onClick=${() => setCursors((c) => c.slice(0, -1))}>Previous page</button>
            <span aria-live="polite">Page ${page + 1}</span>
            <button type="button" class="secondary" disabled=${!list?.nextCursor} onClick=${() => setCursors((c) => [...c, list!.nextCursor!])}>Next page</button>
          </nav>
        `
        : null
    }
  `;
}
