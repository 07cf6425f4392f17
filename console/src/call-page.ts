// One call: its record, the turns as a conversation with their times, the recording (its position follows the turn
// being spoken; clicking a turn seeks to it), the extracted values with their evidence quote marked in its turn,
// the event log with a redeliver button, and a cancel button while the call is live. A call a live agent spoke on
// shows how quickly it answered (the record's latency); a call placed with tools, each use of them (tool-calls.ts).
// A live call follows its stream (GET /v1/agent/calls/{id}/stream): its turns, statuses and uses of tools as they
// come; its record and event log are read again on each status, so Started, Answered by and the events fill in as
// they happen. The page is keyed by the call's id (main.ts): another call is a fresh page, and whatever the previous
// id's requests answer after it was left is dropped (each effect's AbortController). For the developer, the raw
// record as JSON and each event's payload (event-log.ts).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { CallLatency, CallRecord, ToolCall, Turn } from '../../sdk/src/generated/types.gen.js';
import { svc } from './api.js';
import { EventLog } from './event-log.js';
import { ToolCalls } from './tool-calls.js';
import { Chip, clock, ErrorLine, isLive, seconds, when } from './ui.js';

type Evidence = Record<string, { turn: number; quote: string } | null>;

/** The turn's text with the quotes read from it marked. */
function marked(text: string, quotes: string[]) {
  const parts: unknown[] = [];
  let rest = text;
  for (const q of quotes) {
    const at = rest.indexOf(q);
    if (q === '' || at < 0) continue;
    parts.push(rest.slice(0, at), html`<mark>${q}</mark>`);
    rest = rest.slice(at + q.length);
  }
  parts.push(rest);
  return parts;
}

const ms = (v: number | null) => (v === null ? '—' : `${v} ms`);

/** How quickly the agent answered: the first audio, each answer after the callee stopped, each barge-in's clear. */
function Latency({ latency }: { latency: CallLatency }) {
  return html`
    <h2>Latency</h2>
    <dl class="record latency">
      <dt>First audio</dt><dd>${ms(latency.firstAudioMs)} after the answer</dd>
      <dt>Answers</dt><dd>${latency.turns.length === 0 ? '—' : html`median ${ms(latency.p50Ms)}, 95th percentile ${ms(latency.p95Ms)} after the callee stopped (${latency.turns.length})`}</dd>
      <dt>Barge-ins</dt><dd>${latency.bargeIns.length === 0 ? 'none' : latency.bargeIns.map((b) => `at ${clock(b.atMs / 1000)}, cleared in ${b.clearMs} ms`).join('; ')}</dd>
    </dl>
    ${
      latency.turns.length === 0
        ? null
        : html`<table class="latency-turns">
          <thead><tr><th>Callee stopped</th><th>Agent answered after</th></tr></thead>
          <tbody>${latency.turns.map((t) => html`<tr><td>${clock(t.atMs / 1000)}</td><td>${t.afterMs} ms</td></tr>`)}</tbody>
        </table>`
    }
  `;
}

/** The transfer the call was placed with, and the hand-over once the agent made it. */
function Transfers({ record }: { record: CallRecord }) {
  const t = record.transfer;
  return html`
    <h2>Transfers</h2>
    <dl class="record transfers">
      ${t ? html`<dt>Allowed</dt><dd>${t.mode === 'warm' ? 'Warm' : 'Cold'} transfer to ${t.to}, when ${t.when}</dd>` : null}
      <dt>Transferred</dt><dd>${record.transferredTo ? `to ${record.transferredTo}, ${when(record.transferredAt)}` : 'not transferred'}</dd>
    </dl>
  `;
}

export function CallPage({ id }: { id: string }) {
  const [record, setRecord] = useState<CallRecord | null>(null);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [uses, setUses] = useState<ToolCall[]>([]);
  const [events, setEvents] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  const [current, setCurrent] = useState(-1);
  const audio = useRef<HTMLAudioElement>(null);
  document.title = `Call ${id.slice(0, 8)} · svc console`;

  useEffect(() => {
    const stop = new AbortController();
    let objectUrl: string | null = null;
    // Every answer is dropped once the page has left this id: a slow read of the previous call never lands here.
    const live = () => !stop.signal.aborted;
    const loadRecord = async () => {
      const r = await svc().getCall(id, { signal: stop.signal });
      if (!live()) return r;
      setRecord(r);
      if (r.turns) setTurns(r.turns);
      setUses(r.toolCalls ?? []);
      if (r.recordingUrl && !objectUrl) {
        // The recording needs the key, which an <audio> element cannot send: it is fetched and played from a blob.
        const rec = await svc().getCallRecording(id, { signal: stop.signal });
        if (!live()) return r;
        objectUrl = URL.createObjectURL(rec.audio as Blob);
        setAudioUrl(objectUrl);
      }
      return r;
    };
    (async () => {
      try {
        const r = await loadRecord();
        if (!live() || !isLive(r.status)) return;
        const said: Turn[] = [];
        const used: ToolCall[] = [...(r.toolCalls ?? [])];
        for await (const e of svc().streamCall(id, { signal: stop.signal })) {
          if (!live()) return;
          if (e.event === 'turn') {
            const { speaker, text, startSec, endSec } = e.data;
            said[e.data.index] = { speaker, text, startSec, endSec };
            setTurns([...said]);
          } else if (e.event === 'tool_call') {
            const { name, arguments: args, status, latencyMs, error, at } = e.data;
            used[e.data.index] = { name, arguments: args, status, latencyMs, error, at };
            setUses([...used]);
          } else {
            const { status, latency } = e.data;
            setRecord((old) => (old ? { ...old, status, ...(latency ? { latency } : {}) } : old));
            // A status changes what the record says (Started, Answered by) and adds an event: both are read again.
            const now = await svc().getCall(id, { signal: stop.signal });
            if (!live()) return;
            setRecord(now);
            setEvents((n) => n + 1);
          }
        }
        await loadRecord();
        // Its ending's event is in the log now.
        if (live()) setEvents((n) => n + 1);
      } catch (err) {
        if (live()) setError(err);
      }
    })();
    return () => {
      stop.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);

  if (error) return html`<h1>Call</h1><${ErrorLine} error=${error} /><p><a href="#/calls">All calls</a></p>`;
  if (!record) return html`<h1>Call</h1><p>Loading…</p>`;
  const evidence = ((record as { evidence?: Evidence }).evidence ?? {}) as Evidence;
  const quotesIn = (i: number) => Object.values(evidence).flatMap((e) => (e && e.turn === i ? [e.quote] : []));

  async function cancel() {
    setActionError(null);
    try {
      setRecord(await svc().cancelCall(id));
    } catch (err) {
      setActionError(err);
    }
  }
  function seek(i: number) {
    const a = audio.current;
    if (!a) return;
    a.currentTime = turns[i].startSec;
    setCurrent(i);
  }
  function follow() {
    const t = audio.current?.currentTime ?? 0;
    setCurrent(turns.findIndex((x) => t >= x.startSec && t < x.endSec));
  }

  return html`
    <h1>Call to ${record.to}</h1>
    <p class="status-line"><${Chip} status=${record.status} />
      ${isLive(record.status) ? html`<button type="button" class="danger" onClick=${cancel}>Cancel call</button>` : null}
    </p>
    <${ErrorLine} error=${actionError} />
    <dl class="record">
      <dt>Call id</dt><dd><code class="call-id">${record.id}</code></dd>
      <dt>Created</dt><dd>${when(record.createdAt)}</dd>
      <dt>Caller id</dt><dd>${record.callerId ?? '—'}</dd>
      <dt>Objective</dt><dd>${record.objective}</dd>
      <dt>Started</dt><dd class="started">${when(record.startedAt)}</dd>
      <dt>Ended</dt><dd>${when(record.endedAt)}</dd>
      <dt>Duration</dt><dd>${seconds(record.durationSec)}</dd>
      <dt>Minutes billed</dt><dd class="minutes">${record.billedMinutes ?? '—'}</dd>
      <dt>Answered by</dt><dd class="answered-by">${record.answeredBy ?? '—'}</dd>
      <dt>Voice, language</dt><dd>${record.voice}, ${record.language}</dd>
      ${record.endReason ? html`<dt>Ended by</dt><dd><code>${record.endReason}</code></dd>` : null}
      ${record.holdSec ? html`<dt>On hold</dt><dd>${seconds(record.holdSec)}</dd>` : null}
      ${record.batchId ? html`<dt>Batch</dt><dd><a href=${`#/batches/${record.batchId}`}>${record.batchId}</a></dd>` : null}
      ${record.error ? html`<dt>Error</dt><dd><code>${record.error}</code></dd>` : null}
      ${record.summary ? html`<dt>Summary</dt><dd>${record.summary}</dd>` : null}
      <dt>Metadata</dt><dd>${
        record.metadata && Object.keys(record.metadata).length > 0 ? html`<dl class="metadata">${Object.entries(record.metadata).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>` : 'none'
      }</dd>
    </dl>
    ${record.transfer || record.transferredTo ? html`<${Transfers} record=${record} />` : null}

    ${
      record.extracted && Object.keys(record.extracted).length > 0
        ? html`
          <h2>Extracted</h2>
          <dl class="extracted">
            ${Object.entries(record.extracted).map(
              ([field, value]) => html`
                <dt>${field}</dt>
                <dd>
                  <strong>${value === null ? '—' : String(value)}</strong>
                  ${evidence[field] ? html` <button type="button" class="link" onClick=${() => seek(evidence[field]!.turn)}>“${evidence[field]!.quote}” (turn ${evidence[field]!.turn + 1})</button>` : null}
                </dd>
              `,
            )}
          </dl>
        `
        : null
    }

    <h2>Conversation</h2>
    ${audioUrl ? html`<audio ref=${audio} controls src=${audioUrl} onTimeUpdate=${follow} aria-label="Recording of the call"></audio>` : null}
    ${
      turns.length === 0
        ? html`<p class="empty">${isLive(record.status) ? 'Nothing said yet.' : 'No conversation: the call was not answered.'}</p>`
        : html`<ol class="turns">
          ${turns.map(
            (t, i) => html`
              <li class=${`turn ${t.speaker}${i === current ? ' current' : ''}`} data-turn=${i}>
                <button type="button" class="turn-button" onClick=${() => seek(i)} aria-current=${i === current ? 'true' : undefined}>
                  <span class="who">${t.speaker === 'agent' ? 'Agent' : 'Callee'} · ${clock(t.startSec)}</span>
                  <span class="said">${marked(t.text, quotesIn(i))}</span>
                </button>
              </li>
            `,
          )}
        </ol>`
    }

    ${record.tools || uses.length > 0 ? html`<${ToolCalls} uses=${uses} live=${isLive(record.status)} />` : null}

    ${record.latency ? html`<${Latency} latency=${record.latency} />` : null}

    <details class="raw">
      <summary>Raw record (JSON)</summary>
      <pre tabindex="0"><code>${JSON.stringify(record, null, 2)}</code></pre>
    </details>
    <${EventLog} source=${{ list: () => svc().listCallEvents(id), redeliver: (eventId: string) => svc().redeliverEvent(id, eventId) }} version=${events} />
    <p><a href="#/calls">All calls</a></p>
  `;
}
