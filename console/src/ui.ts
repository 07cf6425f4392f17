// Small pieces every page uses: the error line, status chips, times and durations.
import { html } from 'htm/preact';
import { describe } from './api.js';

export function ErrorLine({ error }: { error: unknown }) {
  if (!error) return null;
  const { token, message } = describe(error);
  return html`<p class="error" role="alert"><code>${token}</code> ${message}</p>`;
}

export const TERMINAL = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];
export const isLive = (status: string) => !TERMINAL.includes(status);

export function Chip({ status }: { status: string }) {
  return html`<span class=${`chip chip-${status}`}>${status.replace('_', ' ')}</span>`;
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
export const seconds = (s: number | null | undefined) => (s === null || s === undefined ? '—' : `${Math.round(s)} s`);
export const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

export function Empty({ children }: { children: unknown }) {
  return html`<p class="empty">${children}</p>`;
}
