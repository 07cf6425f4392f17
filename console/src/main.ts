// The console: a pure client of the public API (only /v1/agent routes, with the key the user pastes). Hash routes:
// #/overview (the landing page), #/calls, #/calls/<id>, #/place, #/batches, #/batches/new (from a CSV file),
// #/batches/<id>, #/do-not-call, #/settings.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import { signOut, storedKey } from './api.js';
import { SignIn } from './sign-in.js';
import { CallsPage } from './calls-page.js';
import { CallPage } from './call-page.js';
import { PlacePage } from './place-page.js';
import { BatchesPage } from './batches-page.js';
import { BatchPage } from './batch-page.js';
import { BatchNewPage } from './batch-new-page.js';
import { DoNotCallPage } from './do-not-call-page.js';
import { OverviewPage } from './overview-page.js';
import { SettingsPage } from './settings-page.js';
import './console.css';

const route = () => location.hash.replace(/^#\/?/, '') || 'overview';

function App() {
  const [path, setPath] = useState(route());
  const [signedIn, setSignedIn] = useState(storedKey() !== null);
  useEffect(() => {
    const on = () => setPath(route());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  // A page showing one call or batch is keyed by its id: moving to another (a link, the hash, Back) mounts a new
  // page with none of the previous one's state. Each page names itself in the title, so a screen reader hears where it is.
  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  const [section, id] = path.split('?')[0].split('/');
  const page =
    section === 'calls' && id
      ? html`<${CallPage} key=${`call:${id}`} id=${decodeURIComponent(id)} />`
      : section === 'place'
        ? html`<${PlacePage} />`
        : section === 'batches' && id === 'new'
          ? html`<${BatchNewPage} />`
          : section === 'batches' && id
            ? html`<${BatchPage} key=${`batch:${id}`} id=${decodeURIComponent(id)} />`
            : section === 'batches'
              ? html`<${BatchesPage} />`
              : section === 'do-not-call'
                ? html`<${DoNotCallPage} />`
                : section === 'settings'
                  ? html`<${SettingsPage} />`
                  : section === 'calls'
                    ? html`<${CallsPage} key=${path} />`
                    : html`<${OverviewPage} />`;
  const nav = [
    ['overview', 'Overview'],
    ['calls', 'Calls'],
    ['place', 'Place a call'],
    ['batches', 'Batches'],
    ['do-not-call', 'Do-not-call list'],
    ['settings', 'Settings'],
  ];
  return html`
    <header>
      <span class="brand">svc console</span>
      <nav aria-label="Sections">
        ${nav.map(([href, label]) => html`<a href=${`#/${href}`} aria-current=${section === href ? 'page' : undefined}>${label}</a>`)}
      </nav>
      <button
        type="button"
        class="secondary"
        onClick=${() => {
          signOut();
          location.hash = '';
          setSignedIn(false);
        }}
      >
        Sign out
      </button>
    </header>
    <main>${page}</main>
  `;
}

render(html`<${App} />`, document.getElementById('app')!);
