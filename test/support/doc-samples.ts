// The runnable text of the documentation: every fenced code block of a Markdown file, with its language and the
// marker that may stand on the line before it, and every `npx svc …` command written inline in its prose. A block
// that cannot run in the test carries a marker a reader sees in the source:
//   <!-- docs-runner: skip (<why>) -->         not run; the docs runner lists it, with the reason, as skipped
//   <!-- docs-runner: run by <test file> -->   run by that test instead (the production build's, for instance)
import { readFileSync } from 'node:fs';

export type Marker = { kind: 'skip'; reason: string } | { kind: 'run-by'; test: string };

export interface Sample {
  file: string;
  /** 1-based line of the opening fence, or of the prose line holding an inline command. */
  line: number;
  /** The fence's language (`sh`, `ts`, `text`, …); '' for a fence without one; `inline` for a command in prose. */
  lang: string;
  text: string;
  marker: Marker | null;
}

const FENCE = /^(\s*)```(\S*)\s*$/;
const MARKER = /^\s*<!--\s*docs-runner:\s*(.*?)\s*-->\s*$/;
/** Placeholders and alternatives of a synopsis (`npx svc …`, `<key-id>`, `a|b`, `[--opt]`): not a command to run. */
const SYNOPSIS = /[<>|…[\]]/;

export function samplesOf(file: string, markdown = readFileSync(file, 'utf8')): Sample[] {
  const lines = markdown.split('\n');
  const samples: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      for (const [, command] of lines[i].matchAll(/`(npx svc [^`]+)`/g)) {
        if (!SYNOPSIS.test(command)) samples.push({ file, line: i + 1, lang: 'inline', text: command, marker: null });
      }
      continue;
    }
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) body.push(lines[j++].slice(indent));
    samples.push({ file, line: i + 1, lang: open[2], text: body.join('\n'), marker: markerBefore(lines, i) });
    i = j;
  }
  return samples;
}

function markerBefore(lines: string[], fence: number): Marker | null {
  let k = fence - 1;
  while (k >= 0 && lines[k].trim() === '') k--;
  const m = k >= 0 ? MARKER.exec(lines[k]) : null;
  if (!m) return null;
  const skip = /^skip \((.+)\)$/.exec(m[1]);
  if (skip) return { kind: 'skip', reason: skip[1] };
  const runBy = /^run by (\S+)$/.exec(m[1]);
  if (runBy) return { kind: 'run-by', test: runBy[1] };
  throw new Error(`${lines[k].trim()}: a docs-runner marker is "skip (<why>)" or "run by <test file>"`);
}

/** A shell sample's commands: continued lines joined, comments and blank lines dropped (bash drops them too). */
export function commandsOf(text: string): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (current === '' && /^\s*(#|$)/.test(line)) continue;
    current += line;
    if (line.endsWith('\\')) current += '\n';
    else {
      commands.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') commands.push(current.trim());
  return commands;
}

/** A command that starts a service and keeps running (it is started, awaited on /readyz, and stopped). */
export const STARTS_SERVICE = /^(\w+=\S*\s+)*(npm start|npm run start:built|npx svc serve|node (--\S+\s+)*dist\/server\/src\/main\.js)\b/;

/**
 * What a test never runs, whatever a page says, marked or not: a command that would change the checkout the tests
 * run from (and every checkout sharing its node_modules) or run the suite itself. `npm ci` removes the entries of
 * node_modules, following a symbolic link to another checkout's. A page marks a block holding one `skip`.
 */
export const NEVER_RUN = /(^|[\s;&|(])(npm\s+(ci|install|i|uninstall|update|prune|link|t|(run\s+)?test)|npx\s+mocha|rm|git)(\s|$)/;
