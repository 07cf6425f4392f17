// The SDK's client: one method per operation of openapi.yaml over the generated fetch client, typed errors,
// optional retries, and a placement that always carries an Idempotency-Key so that no retry places a second call.
import { createClient, createConfig, type Client } from './generated/client/index.js';
import {
  addDoNotCall,
  cancelBatch,
  cancelCall,
  createBatch,
  getBatch,
  getCall,
  getCallRecording,
  getSettings,
  getStats,
  listBatchEvents,
  listBatchRows,
  listBatches,
  listCallEvents,
  listCalls,
  listDoNotCall,
  placeCall,
  preflightBatch,
  preflightCall,
  redeliverBatchEvent,
  redeliverEvent,
  removeDoNotCall,
} from './generated/sdk.gen.js';
import type {
  AccountStats,
  Batch,
  BatchPreflightResponse,
  BatchEventLog,
  BatchEventLogEntry,
  BatchList,
  BatchRowList,
  BatchRowState,
  CallEventLog,
  CallEventLogEntry,
  CallList,
  CallRecord,
  CreateBatchRequest,
  CreateBatchResponse,
  DoNotCallEntry,
  DoNotCallList,
  GetCallRecordingResponse,
  ListCallsData,
  PlaceCallRequest,
  PlaceCallResponse,
  PreflightResponse,
  Settings,
} from './generated/types.gen.js';
import { rateLimitInfo, SvcApiError, SvcNetworkError, type RateLimitInfo } from './errors.js';
import { realSleep, RetryPolicy, type RequestKind, type RetryOptions, type Sleep } from './retry-policy.js';
import { BATCH_ENDED_STATUSES, waitForTerminal, type WaitForCallOptions } from './wait-for-call.js';
import { endsCall, liveEvents, type LiveEvent, type StreamOptions, type StreamTransport } from './live-stream.js';

export const DEFAULT_BASE_URL = 'http://localhost:8080';

export interface SvcClientOptions {
  /** An agent API key, `svc_ak_…`. */
  apiKey: string;
  /** The service's root address. Default `http://localhost:8080`. */
  baseUrl?: string;
  /** A fetch implementation. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Retries of transient failures; off unless given. */
  retries?: RetryOptions | false;
  /** Waits between retries and polls (tests pass a fake). */
  sleep?: Sleep;
  /** The current time in epoch milliseconds, for waitForCall's deadline (tests pass a fake). */
  now?: () => number;
  /** A number in [0, 1) for retry jitter (tests pass a constant). */
  random?: () => number;
}

/** listCalls' query: its page size, cursor and filters, as openapi.yaml defines them. */
export type ListCallsQuery = NonNullable<ListCallsData['query']>;

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface PlaceCallOptions extends RequestOptions {
  /** Reuse a key to make a retry of your own (a later process, a queue redelivery) safe too. Default: a random UUID. */
  idempotencyKey?: string;
}

export interface RecordingOptions extends RequestOptions {
  /** A single byte range, e.g. `bytes=0-1023`. */
  range?: string;
  /** 2 for the two-channel rendition (agent and callee apart), where the carrier made one; 1, the default, for the one-channel recording. */
  channels?: 1 | 2;
}

export interface Recording {
  /** The audio (`audio/wav`). */
  audio: GetCallRecordingResponse;
  /** 206 for a range, otherwise 200. */
  status: number;
  /** Content-Range of a partial answer, otherwise null. */
  contentRange: string | null;
}

/** A successful answer with the rate-limit headers it carried. */
export interface Answer<T> {
  data: T;
  rateLimit: RateLimitInfo;
  response: Response;
}

type Generated = { data?: unknown; error?: unknown; response?: Response };

export class SvcClient {
  private readonly client: Client;
  private readonly retry: RetryPolicy;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly transport: StreamTransport;
  /** The service's root, named in the error when it cannot be reached. */
  readonly baseUrl: string;

  constructor(options: SvcClientOptions) {
    if (typeof options?.apiKey !== 'string' || options.apiKey === '') {
      throw new TypeError('SvcClient needs an API key: new SvcClient({ apiKey: process.env.SVC_API_KEY }).');
    }
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.client = createClient(createConfig({ baseUrl: this.baseUrl, fetch: options.fetch, auth: options.apiKey }));
    this.retry = new RetryPolicy(options.retries, options.random ?? Math.random);
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? Date.now;
    // Called unbound: a browser's fetch throws "Illegal invocation" when called as a method of another object.
    const fetchFn = options.fetch ?? globalThis.fetch;
    this.transport = { baseUrl: this.baseUrl, apiKey: options.apiKey, fetch: (input, init) => fetchFn(input, init), sleep: this.sleep };
  }

  /** Places a call; resolves with the queued call's id, language and voice. */
  async placeCall(body: PlaceCallRequest, options: PlaceCallOptions = {}): Promise<PlaceCallResponse> {
    // One key for every attempt: a retry after a lost answer replays the first result instead of placing again.
    const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    const { signal } = options;
    const answer = await this.send<PlaceCallResponse>(() => placeCall({ client: this.client, body, headers: { 'Idempotency-Key': key }, signal }), signal, 'placement');
    return answer.data;
  }

  /**
   * Runs every check of placeCall without placing a call (nothing written, no window spent, no minute reserved):
   * resolves with what placing it now would do, or rejects with the SvcApiError placeCall would give. Its 429s
   * are the verdict and are not retried.
   */
  async preflightCall(body: PlaceCallRequest, options: RequestOptions = {}): Promise<PreflightResponse> {
    const { signal } = options;
    return (await this.send<PreflightResponse>(() => preflightCall({ client: this.client, body, signal }), signal, 'preflight')).data;
  }

  /**
   * Cancels a call. Resolves with its record: status `canceled` when it was not yet dialled (or already canceled);
   * `dialing` or `in_progress` when the service is taking the line down (a call still ringing then ends canceled,
   * an answered one completed). Rejects with SvcApiError 409 `call_already_ended` for a call that ended otherwise.
   * Cancelling twice is harmless, so retries need no key; pass `idempotencyKey` to have a retry get the first answer.
   */
  async cancelCall(id: string, options: RequestOptions & { idempotencyKey?: string } = {}): Promise<CallRecord> {
    const { signal, idempotencyKey } = options;
    const headers = idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey };
    return (await this.send<CallRecord>(() => cancelCall({ client: this.client, path: { id }, headers, signal }), signal, 'other')).data;
  }

  /** Puts a number on the account's do-not-call list; resolves with its entry (the existing one when already listed). */
  async addDoNotCall(number: string, options: RequestOptions & { reason?: string } = {}): Promise<DoNotCallEntry> {
    const { signal, reason } = options;
    const body = reason === undefined ? { number } : { number, reason };
    return (await this.send<DoNotCallEntry>(() => addDoNotCall({ client: this.client, body, signal }), signal, 'other')).data;
  }

  /** One page of the account's do-not-call list, in E.164 order; pass `nextAfter` as `after` for the next. */
  async listDoNotCall(options: RequestOptions & { limit?: number; after?: string } = {}): Promise<DoNotCallList> {
    const { signal, limit, after } = options;
    const query = { ...(limit === undefined ? {} : { limit }), ...(after === undefined ? {} : { after }) };
    return (await this.send<DoNotCallList>(() => listDoNotCall({ client: this.client, query, signal }), signal, 'other')).data;
  }

  /** Takes a number off the list; rejects with SvcApiError 404 when it is not on it. */
  async removeDoNotCall(number: string, options: RequestOptions = {}): Promise<void> {
    const { signal } = options;
    await this.send<unknown>(() => removeDoNotCall({ client: this.client, path: { number }, signal }), signal, 'other');
  }

  async getCall(id: string, options: RequestOptions = {}): Promise<CallRecord> {
    return (await this.getCallAnswer(id, options.signal)).data;
  }

  /**
   * Calls of this key, most recent first, a page at a time: `limit` from 1 to 100, default 20; pass the page's
   * `nextCursor` as `cursor` (with the same filters) for the next. Filters: `batchId`, `status` (one or several,
   * comma-separated), `answeredBy` (`none` for nobody), `createdFrom`/`createdTo` (ISO date-times) and `q` (a
   * search of the number, objective and metadata values).
   */
  async listCalls(options: RequestOptions & ListCallsQuery = {}): Promise<CallList> {
    const { signal, ...given } = options;
    const entries = Object.entries(given).filter(([, v]) => v !== undefined);
    const query = entries.length === 0 ? undefined : (Object.fromEntries(entries) as ListCallsQuery);
    return (await this.send<CallList>(() => listCalls({ client: this.client, query, signal }), signal, 'other')).data;
  }

  /**
   * The account's call statistics for a period of creation time (`createdFrom` inclusive, `createdTo` exclusive,
   * ISO date-times; default the 30 days before now): calls per day, by status and answeredBy, the answer and
   * completion rates, minutes billed and the plan's usage, turn latency, failed or gone webhook deliveries and the
   * commonest errors.
   */
  async getStats(options: RequestOptions & { createdFrom?: string; createdTo?: string } = {}): Promise<AccountStats> {
    const { signal, createdFrom, createdTo } = options;
    const query = createdFrom === undefined && createdTo === undefined ? undefined : { ...(createdFrom === undefined ? {} : { createdFrom }), ...(createdTo === undefined ? {} : { createdTo }) };
    return (await this.send<AccountStats>(() => getStats({ client: this.client, query, signal }), signal, 'other')).data;
  }

  /** The key's defaults, name and hint, the account's numbers and plan usage, the webhook secret's fingerprint and the voices offered. */
  async getSettings(options: RequestOptions = {}): Promise<Settings> {
    const { signal } = options;
    return (await this.send<Settings>(() => getSettings({ client: this.client, signal }), signal, 'other')).data;
  }

  /**
   * Places a batch of calls (up to 10,000), paced at `maxConcurrency`; resolves with its id. Rejects with
   * SvcApiError 400 `invalid_batch` (its body's `errors` names every bad call) when any call is bad: nothing is
   * created then. Like placeCall, it always sends an Idempotency-Key, so a retry never creates a second batch.
   */
  async createBatch(body: CreateBatchRequest, options: PlaceCallOptions = {}): Promise<CreateBatchResponse> {
    const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    const { signal } = options;
    return (await this.send<CreateBatchResponse>(() => createBatch({ client: this.client, body, headers: { 'Idempotency-Key': key }, signal }), signal, 'placement')).data;
  }

  /**
   * Checks a batch as createBatch would, creating nothing: `valid`, and every bad call by its index with the error
   * createBatch's `invalid_batch` would name it with. A batch whose own fields are bad rejects as createBatch does.
   * It counts against the key's calls window as createBatch does.
   */
  async preflightBatch(body: CreateBatchRequest, options: RequestOptions = {}): Promise<BatchPreflightResponse> {
    const { signal } = options;
    // Its 429 is its own window being full, not a verdict on the batch: retried as any read is.
    return (await this.send<BatchPreflightResponse>(() => preflightBatch({ client: this.client, body, signal }), signal, 'other')).data;
  }

  /** The batch as it stands: status, its calls counted by status, stopReason. */
  async getBatch(id: string, options: RequestOptions = {}): Promise<Batch> {
    const { signal } = options;
    return (await this.send<Batch>(() => getBatch({ client: this.client, path: { id }, signal }), signal, 'other')).data;
  }

  /** Recent batches of this key, most recent first. */
  async listBatches(options: RequestOptions & { limit?: number } = {}): Promise<BatchList> {
    const { signal, limit } = options;
    const query = limit === undefined ? undefined : { limit };
    return (await this.send<BatchList>(() => listBatches({ client: this.client, query, signal }), signal, 'other')).data;
  }

  /**
   * One page of a batch's rows in index order, from its creation on: each call asked for, `waiting`, `released`
   * (with its `callId` and its calls' statuses), `canceled` or `skipped`; pass `nextAfter` as `after` for the next
   * page, and `state` for the rows in one state alone.
   */
  async listBatchRows(id: string, options: RequestOptions & { limit?: number; after?: number; state?: BatchRowState } = {}): Promise<BatchRowList> {
    const { signal, limit, after, state } = options;
    const query = { ...(limit === undefined ? {} : { limit }), ...(after === undefined ? {} : { after }), ...(state === undefined ? {} : { state }) };
    return (await this.send<BatchRowList>(() => listBatchRows({ client: this.client, path: { id }, query, signal }), signal, 'other')).data;
  }

  /** Cancels a batch: no more calls are released, those not yet dialled end canceled, live ones finish. */
  async cancelBatch(id: string, options: RequestOptions = {}): Promise<Batch> {
    const { signal } = options;
    return (await this.send<Batch>(() => cancelBatch({ client: this.client, path: { id }, signal }), signal, 'other')).data;
  }

  /** Polls getBatch until the batch has ended (completed, canceled or stopped), as waitForCall polls a call. */
  waitForBatch(id: string, options: WaitForCallOptions = {}): Promise<Batch> {
    const poll = (signal?: AbortSignal) => this.send<Batch>(() => getBatch({ client: this.client, path: { id }, signal }), signal, 'other');
    return waitForTerminal<Batch>(id, poll, { sleep: this.sleep, now: this.now }, options, (status) => (BATCH_ENDED_STATUSES as readonly string[]).includes(status));
  }

  /** Every event of the call, oldest first, with its delivery state, each attempt and the payload that was signed. */
  async listCallEvents(id: string, options: RequestOptions = {}): Promise<CallEventLogEntry[]> {
    const { signal } = options;
    return (await this.send<CallEventLog>(() => listCallEvents({ client: this.client, path: { id }, signal }), signal, 'other')).data.events;
  }

  /**
   * Queues one more delivery of an event (same eventId and body, signed afresh): one attempt, shown in the log.
   * Rejects with SvcApiError 409 `redelivery_pending` while a delivery of it is pending or within 10 seconds of its
   * last redelivery (`rateLimit.retryAfterSec` says when to ask again), 400 `destination_refused` or
   * `no_webhook_url` when it cannot be sent. Each request counts against the key's request window.
   */
  async redeliverEvent(id: string, eventId: string, options: RequestOptions = {}): Promise<CallEventLogEntry> {
    const { signal } = options;
    return (await this.send<CallEventLogEntry>(() => redeliverEvent({ client: this.client, path: { id, eventId }, signal }), signal, 'other')).data;
  }

  /** The batch's own events (batch.completed, canceled or stopped, once it ends), as listCallEvents shows a call's. */
  async listBatchEvents(id: string, options: RequestOptions = {}): Promise<BatchEventLogEntry[]> {
    const { signal } = options;
    return (await this.send<BatchEventLog>(() => listBatchEvents({ client: this.client, path: { id }, signal }), signal, 'other')).data.events;
  }

  /** Queues one more delivery of a batch's own event, with redeliverEvent's rules and errors. */
  async redeliverBatchEvent(id: string, eventId: string, options: RequestOptions = {}): Promise<BatchEventLogEntry> {
    const { signal } = options;
    return (await this.send<BatchEventLogEntry>(() => redeliverBatchEvent({ client: this.client, path: { id, eventId }, signal }), signal, 'other')).data;
  }

  /**
   * The call live: each status it reaches and each turn as it is heard, ending after its terminal status. A
   * dropped connection is resumed where it stopped, so `for await (const e of svc.streamCall(id))` sees every
   * event once. Rejects with SvcApiError 404 for a call that is not this key's.
   */
  streamCall(id: string, options: StreamOptions = {}): AsyncGenerator<LiveEvent> {
    return liveEvents(this.transport, `/v1/agent/calls/${encodeURIComponent(id)}/stream`, options, endsCall);
  }

  /**
   * Every call of this key live, until `signal` aborts. Across a reconnect an event near the cut may come twice:
   * deduplicate on `event.data.id`.
   */
  streamEvents(options: StreamOptions = {}): AsyncGenerator<LiveEvent> {
    return liveEvents(this.transport, '/v1/agent/stream', options, () => false);
  }

  async getCallRecording(id: string, options: RecordingOptions = {}): Promise<Recording> {
    const { signal, range, channels } = options;
    const headers = range === undefined ? undefined : { Range: range };
    const query = channels === undefined ? undefined : { channels };
    const answer = await this.send<GetCallRecordingResponse>(() => getCallRecording({ client: this.client, path: { id }, query, headers, signal, parseAs: 'blob' }), signal, 'other');
    return { audio: answer.data, status: answer.response.status, contentRange: answer.response.headers.get('Content-Range') };
  }

  /**
   * Polls getCall until the call reaches a terminal status and resolves with its record. Waits `intervalMs`
   * between polls, longer when the rate-limit window is spent; rejects with SvcTimeoutError after `timeoutMs`,
   * and with the signal's reason when it aborts.
   */
  waitForCall(id: string, options: WaitForCallOptions = {}): Promise<CallRecord> {
    return waitForTerminal(id, (signal) => this.getCallAnswer(id, signal), { sleep: this.sleep, now: this.now }, options);
  }

  private getCallAnswer(id: string, signal: AbortSignal | undefined): Promise<Answer<CallRecord>> {
    return this.send<CallRecord>(() => getCall({ client: this.client, path: { id }, signal }), signal, 'other');
  }

  private async send<T>(attempt: () => Promise<Generated>, signal: AbortSignal | undefined, kind: RequestKind): Promise<Answer<T>> {
    for (let n = 1; ; n++) {
      try {
        return await this.once<T>(attempt, signal);
      } catch (error) {
        const delay = this.retry.delayAfter(error, n, kind);
        if (delay === null) throw error;
        await this.sleep(delay, signal);
      }
    }
  }

  private async once<T>(attempt: () => Promise<Generated>, signal: AbortSignal | undefined): Promise<Answer<T>> {
    const result = await attempt();
    const { response } = result;
    if (!response) {
      // An abort is the caller's decision, not a fault: it surfaces as the signal's own reason.
      if (signal?.aborted) throw signal.reason;
      const cause = result.error;
      const detail = cause instanceof Error ? `${cause.message}${cause.cause instanceof Error ? ` (${cause.cause.message})` : ''}` : String(cause);
      throw new SvcNetworkError(`The request to the service failed before any answer: ${detail}. Is the service running at ${this.baseUrl}?`, { cause });
    }
    if (!response.ok) throw SvcApiError.fromResponse(response, result.error);
    return { data: result.data as T, rateLimit: rateLimitInfo(response.headers), response };
  }
}
