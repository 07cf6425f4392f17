// Place a call: a form for people (place-form.ts holds its model). Labels and hints in words; the voice a choice of
// the voices the service offers (voices.ts); the fields to extract, the calling window, voicemail, redial, transfer
// and the tools as controls of their own; the JSON request only in an Advanced view that stays in step with the
// form both ways. Every problem is shown at its control (aria-invalid, aria-describedby naming the message) and
// listed above the buttons, and the first one is focused and scrolled into view: the form's own checks all at
// once, then every problem the API answers (its `errors`) at the control its field is about. Preflight's verdict
// is shown before the call is placed.
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { PreflightResponse } from '../../sdk/src/generated/types.gen.js';
import { describe, svc } from './api.js';
import { SvcApiError } from '../../sdk/src/errors.js';
import { bodyOf, controlOfProblem, controlOfToken, DAYS, draftOf, EMPTY_DRAFT, type FieldRow, type PlaceDraft, type Problem } from './place-form.js';
import { ToolsEditor, type ToolDraft } from './tools-editor.js';
import { offeredVoices } from './voices.js';

const VERDICT_LABELS: Record<string, string> = {
  number: 'Number dialled',
  callerId: 'Caller id',
  voice: 'Voice',
  language: 'Language',
  languageSource: 'Language from',
  minutesRemaining: 'Minutes left on the plan',
};

function verdictValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v !== 'object') return String(v);
  const n = v as { e164?: string; country?: string; type?: string };
  if (n.e164) return `${n.e164} (${[n.country, n.type?.replaceAll('_', ' ')].filter(Boolean).join(', ')})`;
  return JSON.stringify(v);
}

export function PlacePage() {
  const [draft, setDraft] = useState<PlaceDraft>(EMPTY_DRAFT);
  // The JSON view's text while it is being typed in; null shows the body the form describes.
  const [json, setJson] = useState<string | null>(null);
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [focusTick, setFocusTick] = useState(0);
  const [verdict, setVerdict] = useState<PreflightResponse | null>(null);
  const [busy, setBusy] = useState(false);
  document.title = 'Place a call · svc console';

  // After the problems are drawn, the first one's control takes the focus, in view.
  useEffect(() => {
    if (focusTick === 0 || problems.length === 0) return;
    const first = document.getElementById(problems[0].control);
    if (first?.closest('details') && !(first.closest('details') as HTMLDetailsElement).open) (first.closest('details') as HTMLDetailsElement).open = true;
    first?.scrollIntoView({ block: 'center' });
    first?.focus({ preventScroll: true });
  }, [focusTick]);

  const update = (next: PlaceDraft) => {
    setDraft(next);
    setJson(null);
    setJsonProblem(null);
    setVerdict(null);
  };
  const set = (name: keyof PlaceDraft) => (e: Event) => update({ ...draft, [name]: (e.target as HTMLInputElement).value });
  const setRow = (i: number, key: keyof FieldRow) => (e: Event) => update({ ...draft, fields: draft.fields.map((f, j) => (j === i ? { ...f, [key]: (e.target as HTMLInputElement).value } : f)) });
  const toggleDay = (day: string) => () => update({ ...draft, windowDays: draft.windowDays.includes(day) ? draft.windowDays.filter((d) => d !== day) : [...draft.windowDays, day] });

  const problemAt = (id: string) => problems.find((p) => p.control === id);
  /** The control's ARIA for its hint and its problem, and the problem's message under it. */
  function invalid(id: string, hint: string | null = `h-${id}`) {
    const p = problemAt(id);
    const describedBy = [p ? `e-${id}` : null, hint].filter(Boolean).join(' ');
    return {
      props: { 'aria-invalid': p ? 'true' : undefined, 'aria-describedby': describedBy || undefined },
      message: p ? html`<p class="field-error" id=${`e-${id}`}>${p.message}</p>` : null,
    };
  }

  function show(list: Problem[]) {
    setProblems(list);
    setFocusTick((n) => n + 1);
  }

  async function run(place: boolean) {
    if (jsonProblem) return show([{ control: 'f-json', message: jsonProblem }]);
    const { body, problems: found } = bodyOf(draft);
    if (found.length > 0) {
      setVerdict(null);
      return show(found);
    }
    setBusy(true);
    setProblems([]);
    try {
      if (place) {
        const placed = await svc().placeCall(body);
        location.hash = `#/calls/${placed.callId}`;
      } else {
        setVerdict(await svc().preflightCall(body));
      }
    } catch (err) {
      setVerdict(null);
      if (err instanceof SvcApiError && err.problems && err.problems.length > 0) {
        show(err.problems.map((p) => ({ control: controlOfProblem(p, draft) ?? 'f-submit', message: p.message, token: p.error })));
      } else {
        const { token, message } = describe(err);
        show([{ control: controlOfToken(token, message, draft) ?? 'f-submit', message, token }]);
      }
    } finally {
      setBusy(false);
    }
  }

  function text(id: keyof PlaceDraft & string, label: string, hint: string, opts: { required?: boolean; type?: string; placeholder?: string; maxLength?: number; rows?: number } = {}) {
    const check = invalid(`f-${id}`);
    const common = {
      id: `f-${id}`,
      name: id,
      value: draft[id] as string,
      placeholder: opts.placeholder ?? '',
      required: opts.required ?? false,
      maxLength: opts.maxLength,
      onInput: set(id),
      ...check.props,
    };
    return html`<div class="field">
      <label for=${`f-${id}`}>${label}${opts.required ? html` <span aria-hidden="true">*</span>` : ''}</label>
      ${opts.rows ? html`<textarea ...${common} rows=${opts.rows}></textarea>` : html`<input ...${common} type=${opts.type ?? 'text'} />`}
      <small id=${`h-f-${id}`}>${hint}</small>
      ${check.message}
    </div>`;
  }
  function choice(id: keyof PlaceDraft & string, label: string, hint: string, options: [string, string][]) {
    const check = invalid(`f-${id}`);
    return html`<div class="field">
      <label for=${`f-${id}`}>${label}</label>
      <select id=${`f-${id}`} name=${id} value=${draft[id] as string} onChange=${set(id)} ...${check.props}>
        ${options.map(([v, l]) => html`<option value=${v}>${l}</option>`)}
      </select>
      <small id=${`h-f-${id}`}>${hint}</small>
      ${check.message}
    </div>`;
  }

  const { body } = bodyOf(draft);
  const jsonText = json ?? JSON.stringify(body, null, 2);
  const fieldsAdd = invalid('f-fields-add', null);
  const jsonCheck = invalid('f-json');

  return html`
    <h1>Place a call</h1>
    <form class="place" noValidate onSubmit=${(e: Event) => (e.preventDefault(), run(true))}>
      <fieldset class="group">
        <legend>The call</legend>
        ${text('to', 'Number to call', 'In international form: a plus sign, the country code and the number.', { required: true, type: 'tel', placeholder: '+14155550123' })}
        ${text('objective', 'What the call should achieve', 'A clear goal in plain words, up to 4000 characters.', { required: true, rows: 3, maxLength: 4000, placeholder: 'Ask whether the shop is open on Sunday and until what time.' })}
        ${text('context', 'Background for the agent', 'What the agent should know; never read out to the person called.', { rows: 3, maxLength: 10000 })}
        ${text('onBehalfOf', 'Calling on behalf of', 'Whom the agent says it calls for. Empty: the key’s setting, else a customer.', { maxLength: 200, placeholder: "Tony's Pizzeria" })}
      </fieldset>

      <fieldset class="group" aria-describedby="h-fields">
        <legend>Fields to extract</legend>
        <small id="h-fields">Values read from the conversation after the call, up to 20, each named once.</small>
        ${draft.fields.map((f, i) => {
          const name = invalid(`field-${i}-name`);
          return html`<div class="field-row" data-field=${i}>
            <div class="field">
              <label for=${`field-${i}-name`}>Name</label>
              <input id=${`field-${i}-name`} value=${f.name} onInput=${setRow(i, 'name')} placeholder="open_sunday" ...${name.props} />
              <small id=${`h-field-${i}-name`}>Letters, digits and underscores.</small>
              ${name.message}
            </div>
            <div class="field">
              <label for=${`field-${i}-type`}>Type</label>
              <select id=${`field-${i}-type`} value=${f.type} onChange=${setRow(i, 'type')}>
                <option value="string">Text</option>
                <option value="boolean">Yes or no</option>
                <option value="number">Number</option>
              </select>
            </div>
            <div class="field grow">
              <label for=${`field-${i}-description`}>Meaning</label>
              <input id=${`field-${i}-description`} value=${f.description} onInput=${setRow(i, 'description')} maxLength="500" placeholder="Whether the shop opens on Sundays" />
            </div>
            <button type="button" class="secondary" aria-label=${`Remove field ${i + 1}`} onClick=${() => update({ ...draft, fields: draft.fields.filter((_, j) => j !== i) })}>Remove</button>
          </div>`;
        })}
        ${draft.fields.length < 20 ? html`<button type="button" id="f-fields-add" class="secondary" ...${fieldsAdd.props} onClick=${() => update({ ...draft, fields: [...draft.fields, { name: '', type: 'string', description: '' }] })}>Add a field</button>` : null}
        ${fieldsAdd.message}
      </fieldset>

      <fieldset class="group">
        <legend>Voice and language</legend>
        ${choice('voice', 'Voice', 'The voice the agent speaks with. Default: the key’s voice, else alloy.', [['', 'Default'], ...offeredVoices().map((v): [string, string] => [v, v])])}
        ${text('language', 'Language', 'A language code such as en-US or fr-FR, or auto to follow whoever answers. Empty: guessed from the objective.', { maxLength: 35, placeholder: 'en-US' })}
      </fieldset>

      <fieldset class="group" aria-describedby="h-window">
        <legend>When to call</legend>
        <small id="h-window">The hours and days, in the callee’s own time, in which the call may be dialled. Empty: the key’s default window, else any time.</small>
        <div class="field-row">
          ${(() => {
            const start = invalid('f-window-start');
            const end = invalid('f-window-end');
            return html`
              <div class="field">
                <label for="f-window-start">Opens at</label>
                <input id="f-window-start" type="time" value=${draft.windowStart} onInput=${set('windowStart')} ...${start.props} />
                <small id="h-f-window-start">Local time.</small>
                ${start.message}
              </div>
              <div class="field">
                <label for="f-window-end">Closes at</label>
                <input id="f-window-end" type="time" value=${draft.windowEnd} onInput=${set('windowEnd')} ...${end.props} />
                <small id="h-f-window-end">Local time, after the opening.</small>
                ${end.message}
              </div>`;
          })()}
        </div>
        <fieldset class="days">
          <legend>Days (none ticked: every day)</legend>
          ${DAYS.map(([day, name]) => html`<label class="check"><input type="checkbox" id=${`f-day-${day}`} checked=${draft.windowDays.includes(day)} onChange=${toggleDay(day)} /> ${name}</label>`)}
        </fieldset>
        ${text('windowZone', 'Time zone', 'A zone name such as America/New_York. Empty: the zones of the number called.', { placeholder: 'America/New_York' })}
        ${text('startAt', 'Dial no earlier than', 'In your browser’s time zone, at most 30 days ahead. Empty: at once.', { type: 'datetime-local' })}
      </fieldset>

      <fieldset class="group">
        <legend>If nobody answers</legend>
        ${choice('voicemail', 'When an answering machine picks up', 'Hang up, or leave a message after the beep.', [
          ['', 'Default: hang up'],
          ['hangup', 'Hang up'],
          ['leave_message', 'Leave a message'],
        ])}
        ${draft.voicemail === 'leave_message' ? text('voicemailMessage', 'Message to leave', 'Said after the beep in the call’s voice and language, up to 1000 characters.', { rows: 2, maxLength: 1000 }) : null}
        <div class="field-row">
          ${text('redialNoAnswer', 'Call again after no answer', '0 to 5 more calls.', { type: 'number' })}
          ${text('redialVoicemail', 'Call again after voicemail', '0 to 5 more calls.', { type: 'number' })}
          ${(() => {
            const after = invalid('f-redial-after');
            return html`<div class="field">
              <label for="f-redial-after">Minutes between calls</label>
              <input id="f-redial-after" type="number" min="5" max="1440" value=${draft.redialAfter} onInput=${set('redialAfter')} ...${after.props} />
              <small id="h-f-redial-after">5 to 1440. Needed to call again.</small>
              ${after.message}
            </div>`;
          })()}
        </div>
        ${choice('machineDetection', 'Listen for answering machines', 'Off: whoever picks up is talked to.', [
          ['', 'Default'],
          ['on', 'On'],
          ['off', 'Off'],
        ])}
      </fieldset>

      <fieldset class="group">
        <legend>Transfer and hold</legend>
        ${(() => {
          const to = invalid('f-transfer-to');
          return html`<div class="field">
            <label for="f-transfer-to">Transfer to</label>
            <input id="f-transfer-to" type="tel" value=${draft.transferTo} onInput=${set('transferTo')} placeholder="+14155550142" ...${to.props} />
            <small id="h-f-transfer-to">A person the agent may hand the call to. Empty: no transfer.</small>
            ${to.message}
          </div>`;
        })()}
        ${choice('transferMode', 'How to transfer', 'Cold connects at once; warm briefs the person first.', [
          ['', 'Default: cold'],
          ['cold', 'Cold'],
          ['warm', 'Warm'],
        ])}
        ${text('transferWhen', 'Transfer when', 'In words. Default: when the callee asks to speak to a person.', { maxLength: 500 })}
        ${(() => {
          const hold = invalid('f-hold');
          return html`<div class="field">
            <label for="f-hold">Longest wait on hold (seconds)</label>
            <input id="f-hold" type="number" min="1" max="86400" value=${draft.holdMaxWaitSec} onInput=${set('holdMaxWaitSec')} ...${hold.props} />
            <small id="h-f-hold">Empty: 600 seconds.</small>
            ${hold.message}
          </div>`;
        })()}
      </fieldset>

      <fieldset class="group">
        <legend>Delivery and identity</legend>
        ${text('webhookUrl', 'Webhook address', 'Where the call’s signed events are sent, an https address.', { type: 'url', placeholder: 'https://example.com/hooks/svc', maxLength: 2048 })}
        ${text('metadata', 'Metadata', 'Your own key=value pairs, one a line, returned with the call and its events.', { rows: 2, placeholder: 'order_id=8841' })}
        ${text('callerId', 'Caller id', 'A number of your account to call from. Empty: the key’s, else the account’s.', { type: 'tel' })}
        ${choice('recordingNotice', 'Say that the call is recorded', 'Turn it off only where the law allows.', [
          ['', 'Default'],
          ['true', 'Yes'],
          ['false', 'No'],
        ])}
        ${text('sendDigits', 'Keys to press on answer', 'Digits, star and hash; w waits half a second, W a second.', { placeholder: '1234#' })}
      </fieldset>

      <${ToolsEditor} tools=${draft.tools} invalid=${invalid} onChange=${(tools: ToolDraft[]) => update({ ...draft, tools })} />

      <details class="advanced">
        <summary>Advanced: the request as JSON</summary>
        <div class="field">
          <label for="f-json">Request body</label>
          <textarea
            id="f-json"
            rows="10"
            spellcheck="false"
            value=${jsonText}
            ...${jsonCheck.props}
            onInput=${(e: Event) => {
              const value = (e.target as HTMLTextAreaElement).value;
              setJson(value);
              setVerdict(null);
              try {
                const parsed = JSON.parse(value);
                if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
                setDraft(draftOf(parsed));
                setJsonProblem(null);
              } catch {
                setJsonProblem('The request is not a JSON object yet; the form keeps its last values.');
              }
            }}
          ></textarea>
          <small id="h-f-json">The placeCall body the form sends. Editing it here changes the form.</small>
          ${jsonProblem && !jsonCheck.message ? html`<p class="hint-warning">${jsonProblem}</p>` : null}
          ${jsonCheck.message}
        </div>
      </details>

      ${
        problems.length > 0
          ? html`<div class="error-summary" role="alert" id="f-submit" tabindex="-1">
            <p>${problems.length === 1 ? 'One thing to fix:' : `${problems.length} things to fix:`}</p>
            <ul>
              ${problems.map(
                (p) => html`<li>
                  ${p.token ? html`<code>${p.token}</code> ` : null}
                  ${p.control === 'f-submit' ? p.message : html`<button type="button" class="link" onClick=${() => document.getElementById(p.control)?.focus()}>${p.message}</button>`}
                </li>`,
              )}
            </ul>
          </div>`
          : null
      }
      <div class="actions">
        <button type="button" class="secondary" disabled=${busy} onClick=${() => run(false)}>Preflight</button>
        <button type="submit" disabled=${busy}>Place call</button>
      </div>
    </form>
    ${
      verdict
        ? html`<section class="verdict" aria-live="polite">
          <h2>Preflight: it would be placed</h2>
          <dl>
            ${Object.entries(verdict).map(([k, v]) => html`<dt>${VERDICT_LABELS[k] ?? k}</dt><dd>${verdictValue(v)}</dd>`)}
          </dl>
        </section>`
        : null
    }
  `;
}
