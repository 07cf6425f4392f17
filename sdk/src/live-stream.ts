// The live streams (streamCall, streamEvents) as async iterators. The Server-Sent Events are parsed by
// eventsource-parser; a connection that drops (or a server that ends the stream early) is resumed from the last
// event's id with Last-Event-ID, after the wait the server asked for, so a loop over the stream sees every event
// across reconnects. A call's stream ends after its terminal status; the key's runs until the signal aborts.
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { StreamStatus, StreamToolCall, StreamTurn } from './generated/types.gen.js';
import { SvcApiError, SvcNetworkError } from './errors.js';
import { isTerminal } from './wait-for-call.js';
import type { Sleep } from './retry-policy.js';

/** One event of a live stream: a status the call reached, a turn as it was heard, or a use of a client tool as it was answered. */
export type LiveEvent = { event: 'status'; id: string; data: StreamStatus } | { event: 'turn'; id: string; data: StreamTurn } | { event: 'tool_call'; id: string; data: StreamToolCall };

/** The events this SDK knows; others a newer service may send are skipped. */
const KNOWN = new Set(['status', 'turn', 'tool_call']);

export interface StreamOptions {
  signal?: AbortSignal;
  /** Resume after this event id (a LiveEvent's `id`) instead of from the start. */
  lastEventId?: string;
  /** Reconnections in a row without an event before giving up (default 10). */
  maxReconnects?: number;
}

export interface StreamTransport {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  sleep: Sleep;
}

/** The events of `path`; `ended` says when an event is the last one (the stream is then not resumed). */
export async function* liveEvents(t: StreamTransport, path: string, options: StreamOptions, ended: (e: LiveEvent) => boolean): AsyncGenerator<LiveEvent> {
  const { signal } = options;
  const maxReconnects = options.maxReconnects ?? 10;
  let lastId = options.lastEventId;
  let retryMs = 1000;
  let failures = 0;
  for (;;) {
    const headers: Record<string, string> = { Authorization: `Bearer ${t.apiKey}`, Accept: 'text/event-stream' };
    if (lastId !== undefined) headers['Last-Event-ID'] = lastId;
    let response: Response;
    try {
      response = await t.fetch(`${t.baseUrl}${path}`, { headers, signal });
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      if (++failures > maxReconnects) throw new SvcNetworkError(`The stream ${path} could not be reached at ${t.baseUrl}: ${cause instanceof Error ? cause.message : String(cause)}.`, { cause });
      await t.sleep(retryMs, signal);
      continue;
    }
    if (!response.ok) {
      const body = await response.json().catch(() => undefined);
      throw SvcApiError.fromResponse(response, body);
    }
    const events = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream({ onRetry: (ms) => (retryMs = ms) }));
    try {
      for await (const message of events) {
        if (!KNOWN.has(message.event ?? '')) continue;
        const event = { event: message.event, id: message.id ?? '', data: JSON.parse(message.data) } as LiveEvent;
        if (message.id !== undefined) lastId = message.id;
        failures = 0;
        yield event;
        if (ended(event)) return;
      }
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      // The connection dropped mid-stream: resumed below.
      void cause;
    }
    if (signal?.aborted) throw signal.reason;
    if (++failures > maxReconnects) throw new SvcNetworkError(`The stream ${path} kept ending without its last event.`, { cause: undefined });
    await t.sleep(retryMs, signal);
  }
}

/** A call's stream ends with its terminal status. */
export const endsCall = (e: LiveEvent) => e.event === 'status' && isTerminal(e.data.status);
