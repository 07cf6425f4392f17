// The account's do-not-call list: add a number (with a reason), remove one, page through.
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { DoNotCallEntry } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { Empty, ErrorLine, when } from './ui.js';

export function DoNotCallPage() {
  const [entries, setEntries] = useState<DoNotCallEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [number, setNumber] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  document.title = 'Do-not-call list · svc console';
  const load = async (after?: string) => {
    try {
      const page = await svc().listDoNotCall({ limit: 50, ...(after ? { after } : {}) });
      setEntries((old) => (after ? [...(old ?? []), ...page.numbers] : page.numbers));
      setNext(page.nextAfter ?? null);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => void load(), []);
  async function add(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      await svc().addDoNotCall(number.trim(), reason.trim() ? { reason: reason.trim() } : {});
      setNumber('');
      setReason('');
      await load();
    } catch (err) {
      setError(err);
    }
  }
  async function remove(n: string) {
    setError(null);
    try {
      await svc().removeDoNotCall(n);
      await load();
    } catch (err) {
      setError(err);
    }
  }
  return html`
    <h1>Do-not-call list</h1>
    <form class="inline" onSubmit=${add}>
      <label for="dnc-number">Number</label>
      <input id="dnc-number" type="text" required placeholder="+14155550123" value=${number} onInput=${(e: Event) => setNumber((e.target as HTMLInputElement).value)} />
      <label for="dnc-reason">Reason</label>
      <input id="dnc-reason" type="text" placeholder="asked not to be called" value=${reason} onInput=${(e: Event) => setReason((e.target as HTMLInputElement).value)} />
      <button type="submit">Add</button>
    </form>
    <${ErrorLine} error=${error} />
    ${
      entries === null
        ? html`<p>Loading…</p>`
        : entries.length === 0
          ? html`<${Empty}>The list is empty: every number may be called.<//>`
          : html`<div class="table-wrap"><table>
            <thead><tr><th scope="col">Number</th><th scope="col">Reason</th><th scope="col">Source</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
              ${entries.map(
                (e) => html`<tr data-number=${e.number}>
                  <td>${e.number}</td><td>${e.reason ?? '—'}</td><td>${e.source}</td><td>${when(e.addedAt)}</td>
                  <td><button type="button" class="secondary" onClick=${() => remove(e.number)} aria-label=${`Remove ${e.number}`}>Remove</button></td>
                </tr>`,
              )}
            </tbody>
          </table></div>`
    }
    ${next ? html`<button type="button" class="secondary" onClick=${() => load(next)}>More</button>` : null}
  `;
}
