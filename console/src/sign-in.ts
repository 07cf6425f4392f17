// Sign in by pasting an API key. The key is checked with one read (listCalls) before it is kept.
import { useState } from 'preact/hooks';
import { html } from 'htm/preact';
import { signIn, signOut, svc } from './api.js';
import { ErrorLine } from './ui.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  document.title = 'Sign in · svc console';
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    signIn(key);
    try {
      await svc().listCalls({ limit: 1 });
      onSignedIn();
    } catch (err) {
      signOut();
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return html`
    <main class="sign-in">
      <h1>svc console</h1>
      <p>Paste an API key. It is kept in this browser tab only, and cleared when you sign out or close the tab.</p>
      <form onSubmit=${submit}>
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="off" required placeholder="svc_ak_…" value=${key} onInput=${(e: Event) => setKey((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled=${busy || key.trim() === ''}>Sign in</button>
      </form>
      <${ErrorLine} error=${error} />
    </main>
  `;
}
