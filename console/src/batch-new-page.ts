// A batch from a CSV file: the file is read in the browser (csv.ts), its first line naming the columns; each column
// is mapped to the number to call, a metadata key (its header) or a call's own field, or left out; the objective
// and the other shared settings are the batch's `defaults`. "Check rows" asks the API what createBatch would say
// (preflightBatch: every bad row's error by its index, nothing created), shown beside each row; "Create batch" is
// offered once the check found none, and opens the batch's page, where its progress and each row's call are followed.
import { useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { BatchPreflightResponse, CreateBatchRequest } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { parseCsv } from './csv.js';
import { ErrorLine } from './ui.js';

/** What a column can be: left out, the number, a metadata key, or one of a call's own text fields. */
const TARGETS: [string, string][] = [
  ['ignore', 'Leave out'],
  ['to', 'Number to call'],
  ['metadata', 'Metadata (key: the column’s name)'],
  ['objective', 'Objective of the call'],
  ['context', 'Background for the agent'],
  ['onBehalfOf', 'Calling on behalf of'],
  ['voice', 'Voice'],
  ['language', 'Language'],
  ['callerId', 'Caller id'],
  ['webhookUrl', 'Webhook address'],
  ['sendDigits', 'Keys to press on answer'],
];

/** A first guess for a column from its name: the number, a call field of that name, else metadata. */
function guess(header: string): string {
  const h = header.trim().toLowerCase();
  if (['to', 'number', 'phone', 'phone number', 'telephone', 'mobile'].includes(h)) return 'to';
  const field = TARGETS.find(([t]) => t.toLowerCase() === h && t !== 'ignore' && t !== 'metadata');
  return field ? field[0] : 'metadata';
}

interface Sheet {
  name: string;
  header: string[];
  rows: string[][];
}

/** The batch's body from the sheet, its mapping and the shared settings. */
export function batchBody(sheet: Sheet, mapping: string[], shared: { objective: string; webhookUrl: string; maxConcurrency: string }): CreateBatchRequest {
  const calls = sheet.rows.map((row) => {
    const call: Record<string, unknown> = {};
    const metadata: Record<string, string> = {};
    mapping.forEach((target, col) => {
      const value = (row[col] ?? '').trim();
      if (target === 'ignore' || value === '') return;
      if (target === 'metadata') metadata[sheet.header[col].trim()] = value;
      else call[target] = value;
    });
    if (Object.keys(metadata).length > 0) call.metadata = metadata;
    return call;
  });
  const defaults: Record<string, unknown> = {};
  if (shared.objective.trim() !== '') defaults.objective = shared.objective.trim();
  if (shared.webhookUrl.trim() !== '') defaults.webhookUrl = shared.webhookUrl.trim();
  const body: Record<string, unknown> = { calls, defaults };
  if (shared.maxConcurrency !== '') body.maxConcurrency = Number(shared.maxConcurrency);
  return body as unknown as CreateBatchRequest;
}

export function BatchNewPage() {
  const [sheet, setSheet] = useState<Sheet | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [mapping, setMapping] = useState<string[]>([]);
  const [shared, setShared] = useState({ objective: '', webhookUrl: '', maxConcurrency: '' });
  const [check, setCheck] = useState<BatchPreflightResponse | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  document.title = 'New batch · svc console';

  async function read(e: Event) {
    const file = (e.target as HTMLInputElement).files?.[0];
    setCheck(null);
    setError(null);
    setSheet(null);
    if (!file) return;
    const parsed = parseCsv(await file.text());
    if (!parsed.ok) return setFileProblem(`${file.name}: ${parsed.message}`);
    if (parsed.rows.length < 2) return setFileProblem(`${file.name}: the file needs a line naming its columns and at least one row.`);
    const [header, ...rows] = parsed.rows;
    setFileProblem(null);
    setSheet({ name: file.name, header, rows });
    setMapping(header.map(guess));
  }
  const changed = () => {
    setCheck(null);
    setError(null);
  };

  async function run(create: boolean) {
    if (!sheet) return;
    setBusy(true);
    setError(null);
    try {
      const body = batchBody(sheet, mapping, shared);
      if (create) {
        const made = await svc().createBatch(body);
        location.hash = `#/batches/${made.batchId}`;
      } else {
        setCheck(await svc().preflightBatch(body));
      }
    } catch (err) {
      setCheck(null);
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const errorsAt = new Map((check?.errors ?? []).map((e) => [e.index, e]));
  const toColumn = mapping.indexOf('to');
  return html`
    <h1>New batch from a CSV file</h1>
    <p>The file’s first line names its columns; every other line is one call. Choose what each column is, check every row, then create the batch.</p>
    <form class="place" noValidate onSubmit=${(e: Event) => (e.preventDefault(), run(false))}>
      <div class="field">
        <label for="csv-file">CSV file</label>
        <input id="csv-file" type="file" accept=".csv,text/csv" onChange=${read} aria-describedby=${fileProblem ? 'csv-file-error h-csv-file' : 'h-csv-file'} aria-invalid=${fileProblem ? 'true' : undefined} />
        <small id="h-csv-file">Comma-separated, with quotes around a value holding a comma, a quote or a line break. Read in your browser.</small>
        ${fileProblem ? html`<p class="field-error" id="csv-file-error" role="alert">${fileProblem}</p>` : null}
      </div>
      ${
        sheet
          ? html`
            <fieldset class="group">
              <legend>Columns of ${sheet.name} (${sheet.rows.length} ${sheet.rows.length === 1 ? 'row' : 'rows'})</legend>
              ${sheet.header.map(
                (h, i) => html`<div class="field">
                  <label for=${`csv-col-${i}`}>Column “${h}”</label>
                  <select
                    id=${`csv-col-${i}`}
                    value=${mapping[i]}
                    onChange=${(e: Event) => {
                      setMapping(mapping.map((m, j) => (j === i ? (e.target as HTMLSelectElement).value : m)));
                      changed();
                    }}
                  >
                    ${TARGETS.map(([v, l]) => html`<option value=${v}>${l}</option>`)}
                  </select>
                </div>`,
              )}
              ${toColumn < 0 ? html`<p class="field-error">No column is the number to call yet.</p>` : null}
            </fieldset>
            <fieldset class="group">
              <legend>Shared by every call</legend>
              <div class="field">
                <label for="batch-objective">Objective of the calls</label>
                <textarea id="batch-objective" rows="3" value=${shared.objective} onInput=${(e: Event) => (setShared({ ...shared, objective: (e.target as HTMLTextAreaElement).value }), changed())} aria-describedby="h-batch-objective"></textarea>
                <small id="h-batch-objective">What each call should achieve, unless its row gives its own.</small>
              </div>
              <div class="field">
                <label for="batch-webhookUrl">Webhook address</label>
                <input id="batch-webhookUrl" type="url" value=${shared.webhookUrl} onInput=${(e: Event) => (setShared({ ...shared, webhookUrl: (e.target as HTMLInputElement).value }), changed())} aria-describedby="h-batch-webhookUrl" />
                <small id="h-batch-webhookUrl">Where each call’s signed events are sent. Empty: none.</small>
              </div>
              <div class="field">
                <label for="batch-maxConcurrency">Calls at once</label>
                <input id="batch-maxConcurrency" type="number" min="1" max="100" value=${shared.maxConcurrency} onInput=${(e: Event) => (setShared({ ...shared, maxConcurrency: (e.target as HTMLInputElement).value }), changed())} aria-describedby="h-batch-maxConcurrency" />
                <small id="h-batch-maxConcurrency">At most this many live at a time, 1 to 100. Empty: 5.</small>
              </div>
            </fieldset>
            <div class="actions">
              <button type="submit" class="secondary" disabled=${busy}>Check rows</button>
              <button type="button" id="batch-create" disabled=${busy || !check?.valid} onClick=${() => run(true)}>Create batch</button>
            </div>
          `
          : null
      }
    </form>
    <${ErrorLine} error=${error} />
    ${
      check && sheet
        ? html`<section class="csv-check" aria-live="polite">
          <h2>${check.valid ? `All ${check.total} rows can be called` : `${check.errors.length} of ${check.total} rows cannot be called`}</h2>
          <div class="table-wrap" tabindex="0" role="region" aria-label="Rows checked">
            <table class="csv-rows">
              <thead><tr><th scope="col">Index</th><th scope="col">Number</th><th scope="col">Check</th></tr></thead>
              <tbody>
                ${sheet.rows.map((row, i) => {
                  const e = errorsAt.get(i);
                  return html`<tr data-row=${i} class=${e ? 'bad' : 'good'}>
                    <td>${i}</td>
                    <td>${toColumn < 0 ? '—' : row[toColumn]}</td>
                    <td>${e ? html`<span class="state state-failed"><code>${e.error}</code></span> ${e.message}` : html`<span class="state state-delivered">ok</span>`}</td>
                  </tr>`;
                })}
              </tbody>
            </table>
          </div>
        </section>`
        : null
    }
  `;
}
