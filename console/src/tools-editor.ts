// The place-a-call form's tools (the placement's `tools`): each tool a group of its own fields (name, description,
// parameters as JSON, address, time limit), added and removed with buttons. A field left empty is left out of the
// body, so a preflight has the API say what is missing (400 invalid_tools, naming the tool), shown at the tool.
import { html } from 'htm/preact';

export interface ToolDraft {
  name: string;
  description: string;
  parameters: string;
  url: string;
  timeoutMs: string;
}

const NO_TOOL: ToolDraft = { name: '', description: '', parameters: '', url: '', timeoutMs: '' };

const FIELDS: { key: keyof ToolDraft; label: string; hint: string; example: string; required?: boolean; kind?: 'textarea' | 'number' | 'url' }[] = [
  { key: 'name', label: 'Name', hint: 'The name the agent calls it by: letters, digits, underscores or hyphens.', example: 'order_status', required: true },
  { key: 'description', label: 'What it does', hint: 'What the tool does and when to use it, told to the agent.', example: 'Looks up where an order is.', required: true },
  {
    key: 'parameters',
    label: 'Parameters (JSON Schema)',
    hint: 'A JSON Schema of type object describing its arguments. Leave it empty for a tool without arguments.',
    example: '{ "type": "object", "properties": { "question": { "type": "string" } } }',
    kind: 'textarea',
  },
  { key: 'url', label: 'Address', hint: 'The URL the service posts each use to, signed as webhooks are.', example: 'https://example.com/tools/orders', required: true, kind: 'url' },
  { key: 'timeoutMs', label: 'Time limit (ms)', hint: 'How long to wait for its answer: 100 to 20000 milliseconds, 5000 when empty.', example: '5000', kind: 'number' },
];

/** `invalid(id)`: the control's aria-invalid and aria-describedby, and its error message (place-page.ts). */
export function ToolsEditor({
  tools,
  onChange,
  invalid,
}: {
  tools: ToolDraft[];
  onChange: (tools: ToolDraft[]) => void;
  invalid: (id: string, hint: string) => { props: Record<string, string | undefined>; message: unknown };
}) {
  const set = (i: number, key: keyof ToolDraft) => (e: Event) => onChange(tools.map((t, j) => (j === i ? { ...t, [key]: (e.target as HTMLInputElement).value } : t)));
  return html`
    <fieldset class="tools" aria-describedby="h-tools">
      <legend>Tools the agent may use</legend>
      <small id="h-tools">Your own endpoints the agent may call during the call, up to 10. Each use is on the call's record.</small>
      ${tools.map(
        (t, i) => html`
          <fieldset class="tool" data-tool=${i}>
            <legend>Tool ${i + 1}</legend>
            ${FIELDS.map((f) => {
              const id = `tool-${i}-${f.key}`;
              const check = invalid(id, `${id}-hint`);
              const common = { id, name: id, value: t[f.key], placeholder: f.example, ...check.props };
              return html`<div class="field">
                <label for=${id}>${f.label}${f.required ? html` <span aria-hidden="true">*</span>` : ''}</label>
                ${
                  f.kind === 'textarea'
                    ? html`<textarea ...${common} rows="3" onInput=${set(i, f.key)}></textarea>`
                    : html`<input ...${common} type=${f.kind === 'number' ? 'number' : f.kind === 'url' ? 'url' : 'text'} min=${f.kind === 'number' ? 100 : undefined} max=${f.kind === 'number' ? 20000 : undefined} required=${f.required ?? false} onInput=${set(i, f.key)} />`
                }
                <small id=${`${id}-hint`}>${f.hint}</small>
                ${check.message}
              </div>`;
            })}
            <button type="button" class="secondary" aria-label=${`Remove tool ${i + 1}`} onClick=${() => onChange(tools.filter((_, j) => j !== i))}>Remove</button>
          </fieldset>
        `,
      )}
      ${tools.length < 10 ? html`<button type="button" id="f-tools-add" class="secondary" onClick=${() => onChange([...tools, { ...NO_TOOL }])}>Add a tool</button>` : null}
    </fieldset>
  `;
}
