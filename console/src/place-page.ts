// Place a call: a form built from openapi.yaml's PlaceCallRequest (every field, its description as the hint; the
// tools each a group of fields, tools-editor.ts), with preflight's verdict shown before the call is placed.
import { useState } from 'preact/hooks';
import { html } from 'htm/preact';
import fields from 'virtual:place-call-schema';
import type { PlaceCallRequest, PreflightResponse } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { ToolsEditor, toolsOf, type ToolDraft } from './tools-editor.js';
import { ErrorLine } from './ui.js';

const EXAMPLES: Record<string, string> = {
  to: '+14155550123',
  objective: 'Ask whether the shop is open on Sunday and until what time.',
  webhookUrl: 'https://example.com/hooks/svc',
  language: 'en-US',
  voice: 'alloy',
  metadata: 'order_id=8841',
  callingWindow: '{ "start": "09:00", "end": "20:00", "days": ["mon", "tue", "wed", "thu", "fri"] }',
  fields: '[{ "name": "open_sunday", "type": "boolean" }]',
  voicemail: '{ "action": "leave_message", "message": "Please call us back." }',
  redial: '{ "onNoAnswer": 2, "afterMinutes": 30 }',
  startAt: '2026-12-01T09:30:00+01:00',
  onBehalfOf: "Tony's Pizzeria",
  sendDigits: '1234#',
  transfer: '{ "to": "+14155550142", "mode": "warm", "when": "the callee asks to speak to a person" }',
  hold: '{ "maxWaitSec": 300 }',
};

class FormError extends Error {}

/**
 * The body from the form's values: empty fields left out, JSON fields parsed, metadata from key=value lines, yes/no
 * as booleans, and the tools from their own fields.
 */
function bodyOf(values: Record<string, string>, tools: readonly ToolDraft[]): PlaceCallRequest {
  const body: Record<string, unknown> = {};
  if (tools.length > 0) {
    try {
      body.tools = toolsOf(tools);
    } catch (err) {
      throw new FormError((err as Error).message);
    }
  }
  for (const f of fields) {
    if (f.name === 'tools') continue;
    const v = (values[f.name] ?? '').trim();
    if (v === '') continue;
    if (f.kind === 'json') {
      try {
        body[f.name] = JSON.parse(v);
      } catch {
        throw new FormError(`${f.name} is not valid JSON.`);
      }
    } else if (f.kind === 'boolean') {
      body[f.name] = v === 'true';
    } else if (f.kind === 'pairs') {
      body[f.name] = Object.fromEntries(
        v
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => {
            const at = l.indexOf('=');
            if (at < 1) throw new FormError(`metadata: "${l}" is not key=value.`);
            return [l.slice(0, at).trim(), l.slice(at + 1).trim()];
          }),
      );
    } else {
      body[f.name] = v;
    }
  }
  return body as unknown as PlaceCallRequest;
}

export function PlacePage() {
  const [values, setValues] = useState<Record<string, string>>({});
  const [tools, setTools] = useState<ToolDraft[]>([]);
  const [verdict, setVerdict] = useState<PreflightResponse | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  document.title = 'Place a call · svc console';

  const set = (name: string) => (e: Event) => {
    setValues({ ...values, [name]: (e.target as HTMLInputElement).value });
    setVerdict(null);
  };
  async function run(place: boolean) {
    setBusy(true);
    setError(null);
    try {
      const body = bodyOf(values, tools);
      if (place) {
        const placed = await svc().placeCall(body);
        location.hash = `#/calls/${placed.callId}`;
      } else {
        setVerdict(await svc().preflightCall(body));
      }
    } catch (err) {
      setVerdict(null);
      setError(err instanceof FormError ? { token: 'invalid_form', message: err.message } : err);
    } finally {
      setBusy(false);
    }
  }

  return html`
    <h1>Place a call</h1>
    <form class="place" onSubmit=${(e: Event) => (e.preventDefault(), run(true))}>
      ${fields.map((f) =>
        f.name === 'tools'
          ? html`<${ToolsEditor}
              tools=${tools}
              description=${f.description.split('\n')[0]}
              onChange=${(next: ToolDraft[]) => {
                setTools(next);
                setVerdict(null);
              }}
            />`
          : html`
          <div class="field">
            <label for=${`f-${f.name}`}>${f.name}${f.required ? html` <span aria-hidden="true">*</span>` : ''}</label>
            ${
              f.kind === 'boolean'
                ? html`<select id=${`f-${f.name}`} name=${f.name} value=${values[f.name] ?? ''} onChange=${set(f.name)} aria-describedby=${`h-${f.name}`}>
                  <option value="">default</option>
                  <option value="true">yes</option>
                  <option value="false">no</option>
                </select>`
                : f.kind === 'text'
                  ? html`<input id=${`f-${f.name}`} name=${f.name} type="text" required=${f.required} maxLength=${f.maxLength ?? undefined} placeholder=${EXAMPLES[f.name] ?? ''} value=${values[f.name] ?? ''} onInput=${set(f.name)} aria-describedby=${`h-${f.name}`} />`
                  : html`<textarea id=${`f-${f.name}`} name=${f.name} rows=${f.kind === 'textarea' ? 3 : 2} required=${f.required} placeholder=${EXAMPLES[f.name] ?? ''} value=${values[f.name] ?? ''} onInput=${set(f.name)} aria-describedby=${`h-${f.name}`}></textarea>`
            }
            <small id=${`h-${f.name}`}>${f.kind === 'json' ? 'JSON. ' : f.kind === 'pairs' ? 'One key=value a line. ' : ''}${f.description.split('\n')[0]}</small>
          </div>
        `,
      )}
      <div class="actions">
        <button type="button" class="secondary" disabled=${busy} onClick=${() => run(false)}>Preflight</button>
        <button type="submit" disabled=${busy}>Place call</button>
      </div>
    </form>
    <${ErrorLine} error=${error} />
    ${
      verdict
        ? html`<section class="verdict" aria-live="polite">
          <h2>Preflight: it would be placed</h2>
          <dl>
            ${Object.entries(verdict).map(([k, v]) => html`<dt>${k}</dt><dd>${v === null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>`)}
          </dl>
        </section>`
        : null
    }
  `;
}
