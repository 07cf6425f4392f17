// A call's uses of its client tools, as the record lists them (toolCalls) and as its stream sends them while it is
// live: the tool, the arguments the model called it with, the outcome, how long it took, why it failed, and when.
import { html } from 'htm/preact';
import type { ToolCall } from '../../sdk/src/generated/types.gen.js';
import { when } from './ui.js';

export function ToolCalls({ uses, live }: { uses: ToolCall[]; live: boolean }) {
  return html`
    <h2 id="tool-calls">Tool calls</h2>
    ${
      uses.length === 0
        ? html`<p class="empty">${live ? 'No tool called yet.' : 'The agent called none of its tools.'}</p>`
        : html`<div class="table-wrap">
          <table class="tool-calls" aria-labelledby="tool-calls">
            <thead><tr><th>Tool</th><th>Arguments</th><th>Status</th><th>Latency</th><th>Error</th><th>Called</th></tr></thead>
            <tbody>
              ${uses.map(
                (u, i) => html`<tr data-tool-call=${i}>
                  <td><code>${u.name}</code></td>
                  <td class="arguments"><code>${JSON.stringify(u.arguments)}</code></td>
                  <td><span class=${`state state-${u.status === 'ok' ? 'delivered' : 'failed'}`}>${u.status}</span></td>
                  <td>${u.latencyMs} ms</td>
                  <td>${u.error ?? '—'}</td>
                  <td>${when(u.at)}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>`
    }
  `;
}
