// The place-a-call form's tools (the placement's `tools`): each tool a group of its own fields (name, description,
// parameters as JSON, url, timeoutMs), added and removed with buttons. The browser asks for the required ones
// before a placement; a field left empty is left out of the body, so a preflight has the API say what is missing
// (400 invalid_tools, naming the tool).
import { html } from 'htm/preact';

export interface ToolDraft {
  name: string;
  description: string;
  parameters: string;
  url: string;
  timeoutMs: string;
}

const NO_TOOL: ToolDraft = { name: '', description: '', parameters: '', url: '', timeoutMs: '' };

/** The drafts as the placement's `tools`; throws with the tool's number when its parameters are not JSON. */
export function toolsOf(drafts: readonly ToolDraft[]): Record<string, unknown>[] {
  return drafts.map((d, i) => {
    const tool: Record<string, unknown> = {};
    for (const key of ['name', 'description', 'url'] as const) if (d[key].trim() !== '') tool[key] = d[key].trim();
    if (d.parameters.trim() !== '') {
      try {
        tool.parameters = JSON.parse(d.parameters);
      } catch {
        throw new Error(`tools: the parameters of tool ${i + 1} are not valid JSON.`);
      }
    }
    if (d.timeoutMs.trim() !== '') tool.timeoutMs = Number(d.timeoutMs);
    return tool;
  });
}

const FIELDS: { key: keyof ToolDraft; label: string; hint: string; example: string; required?: boolean; kind?: 'textarea' | 'number' | 'url' }[] = [
  { key: 'name', label: 'name', hint: 'The function name the model sees: letters, digits, _ or -.', example: 'order_status', required: true },
  { key: 'description', label: 'description', hint: 'What it does and when to use it, for the model.', example: 'Looks up where an order is.', required: true },
  {
    key: 'parameters',
    label: 'parameters',
    hint: 'JSON Schema of type object. Without it the tool takes no arguments.',
    example: '{ "type": "object", "properties": { "question": { "type": "string" } } }',
    kind: 'textarea',
  },
  { key: 'url', label: 'url', hint: 'Where svc POSTs each use, signed as webhooks are.', example: 'https://example.com/tools/orders', required: true, kind: 'url' },
  { key: 'timeoutMs', label: 'timeoutMs', hint: '100 to 20000; 5000 when empty.', example: '5000', kind: 'number' },
];

export function ToolsEditor({ tools, onChange, description }: { tools: ToolDraft[]; onChange: (tools: ToolDraft[]) => void; description: string }) {
  const set = (i: number, key: keyof ToolDraft) => (e: Event) => onChange(tools.map((t, j) => (j === i ? { ...t, [key]: (e.target as HTMLInputElement).value } : t)));
  return html`
    <fieldset class="tools" aria-describedby="h-tools">
      <legend>tools</legend>
      <small id="h-tools">${description}</small>
      ${tools.map(
        (t, i) => html`
          <fieldset class="tool" data-tool=${i}>
            <legend>Tool ${i + 1}</legend>
            ${FIELDS.map((f) => {
              const id = `tool-${i}-${f.key}`;
              const common = { id, name: id, value: t[f.key], placeholder: f.example, 'aria-describedby': `${id}-hint` };
              return html`<div class="field">
                <label for=${id}>${f.label}${f.required ? html` <span aria-hidden="true">*</span>` : ''}</label>
                ${
                  f.kind === 'textarea'
                    ? html`<textarea ...${common} rows="3" onInput=${set(i, f.key)}></textarea>`
                    : html`<input ...${common} type=${f.kind === 'number' ? 'number' : f.kind === 'url' ? 'url' : 'text'} min=${f.kind === 'number' ? 100 : undefined} max=${f.kind === 'number' ? 20000 : undefined} required=${f.required ?? false} onInput=${set(i, f.key)} />`
                }
                <small id=${`${id}-hint`}>${f.hint}</small>
              </div>`;
            })}
            <button type="button" class="secondary" aria-label=${`Remove tool ${i + 1}`} onClick=${() => onChange(tools.filter((_, j) => j !== i))}>Remove</button>
          </fieldset>
        `,
      )}
      ${tools.length < 10 ? html`<button type="button" class="secondary" onClick=${() => onChange([...tools, { ...NO_TOOL }])}>Add a tool</button>` : null}
    </fieldset>
  `;
}
