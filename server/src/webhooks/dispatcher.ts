// The webhook dispatcher: the outbox's events are jobs of the durable queue (jobs/job-queue.ts), run by the
// worker loop (jobs/worker-loop.ts). Each delivery runs in named stages: prepare (the endpoint checked against
// the SSRF guard at send time, the signing secrets picked), send (signed with a fresh t, the stored body bytes
// POSTed), record (the attempt and the event's new state, committed fenced by the lease). What an attempt means
// for its event is delivery-rules.ts. A redelivery (redeliverEvent, webhooks/event-log.ts) is one attempt of an
// event that had ended, sent even to a receiver that answered 410 before.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Selectable } from 'kysely';
import { pino, type Logger } from 'pino';
import { loadSigningKeys, signingSecrets, type SigningKey } from '../accounts/webhook-secrets.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { JobQueue, LeaseLost, type QueueTable } from '../jobs/job-queue.js';
import { WorkerLoop } from '../jobs/worker-loop.js';
import type { WebhookEventsTable } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { omitMiddleAttempts, passesBound } from './attempt-bound.js';
import { afterFailure, goneBefore, outcomeOf, refused, unsignable, type AttemptOutcome, type DeliveryRules } from './delivery-rules.js';
import { checkEndpoint, RefusedDestination, systemResolver, type CheckedEndpoint, type Resolver } from './endpoint-guard.js';
import { goneReceivers, receiverOf } from './outbox.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { defaultRequest, sendDelivery, USER_AGENT, type RequestFn } from './webhook-sender.js';

export interface WebhookDispatcherDeps {
  store: Store;
  clock: Clock;
  config: Pick<Config, 'webhookRetrySchedule' | 'webhookTimeoutMs' | 'webhookAllowPrivate'>;
  logger?: Logger;
  /** Jitter source, in [0, 1). */
  random?: () => number;
  resolver?: Resolver;
  request?: RequestFn;
  /** This worker's lease owner id. */
  owner?: string;
  /** How long a claim is held; must outlast a send. Default: three times the timeout plus 30 s. */
  leaseMs?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** The loop's longest pause when nothing is known to be due. */
  idleMs?: number;
}

export interface WebhookDispatcher {
  /** Delivers everything due now (including immediate retries); resolves with the number of attempts made. */
  tick(): Promise<number>;
  start(): void;
  /** Ends the loop after the deliveries in flight, and closes kept-alive connections. */
  stop(): Promise<void>;
}

type EventRow = Selectable<WebhookEventsTable>;

/** An event to deliver, with the secrets of its key and its receiver's 410, if any (read for the whole claim at once). */
interface Delivery {
  event: EventRow;
  key: SigningKey | undefined;
  /** Its URL answered 410 Gone to an earlier event of the same call. */
  receiverGone: boolean;
}

/** The rules of a redelivery: no retry schedule, so the first failure is final. */
const ONE_ATTEMPT: DeliveryRules = { schedule: [0], random: () => 0 };

/** The outbox as a queue: an event is due at next_attempt_at while it is pending. */
export const OUTBOX: QueueTable = { table: 'webhook_events', key: 'event_id', due: 'next_attempt_at', only: { column: 'state', value: 'pending' } };

export function createWebhookDispatcher(deps: WebhookDispatcherDeps): WebhookDispatcher {
  const { store, clock, config } = deps;
  const logger = deps.logger ?? pino({ level: 'silent' });
  const rules: DeliveryRules = { schedule: config.webhookRetrySchedule, random: deps.random ?? Math.random };
  // A redelivery is one attempt: a failure ends it failed, with no retries.
  const rulesFor = (event: EventRow) => (event.redelivery_requested_at === null ? rules : ONE_ATTEMPT);
  const resolver = deps.resolver ?? systemResolver;
  const request = deps.request ?? defaultRequest;
  const concurrency = deps.concurrency ?? 32;
  const queue = new JobQueue<EventRow>(store, OUTBOX, deps.owner ?? `webhooks-${randomUUID()}`, deps.leaseMs ?? 3 * config.webhookTimeoutMs + 30_000);
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: concurrency }),
    https: new https.Agent({ keepAlive: true, maxSockets: concurrency }),
  };

  async function prepare({ event, key, receiverGone }: Delivery, at: number): Promise<{ endpoint: CheckedEndpoint; secrets: string[] } | AttemptOutcome> {
    // A redelivery is asked for by the user, whatever the receiver answered before.
    if (receiverGone && event.redelivery_requested_at === null) return goneBefore(at);
    if (!key) return unsignable(at);
    try {
      return { endpoint: await checkEndpoint(event.url, { allowPrivate: config.webhookAllowPrivate, resolver }), secrets: signingSecrets(key, at) };
    } catch (e) {
      if (e instanceof RefusedDestination) return refused(e.message, at);
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      return afterFailure(rulesFor(event), event.attempts + 1, { status: null, retryAfter: undefined, error: `DNS lookup failed: ${code}` }, at);
    }
  }

  /** Prepares, signs and sends one attempt; resolves with what happened. */
  async function send(delivery: Delivery, at: number): Promise<AttemptOutcome> {
    const { event } = delivery;
    const prepared = await prepare(delivery, at);
    if ('state' in prepared) return prepared;
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader(event.body, prepared.secrets, Math.floor(clock.now() / 1000)),
    };
    const result = await sendDelivery({ endpoint: prepared.endpoint, body: event.body, headers, timeoutMs: config.webhookTimeoutMs, agents, request });
    return outcomeOf(rulesFor(event), event.attempts + 1, result, clock.now());
  }

  /**
   * The attempt and the event's new state, in one transaction (with the attempts it takes past the bound deleted,
   * attempt-bound.ts); false when another worker took the event over.
   */
  async function record(event: EventRow, a: AttemptOutcome, at: number, latencyMs: number): Promise<boolean> {
    const attempt = event.attempts + 1;
    try {
      await queue.commit(event, {
        set: {
          attempts: attempt,
          state: a.state,
          next_attempt_at: a.nextAttemptAt,
          last_status: a.statusCode,
          last_error: a.error,
          delivered_at: a.deliveredAt ?? event.delivered_at,
          redelivery_requested_at: null,
        },
        insert: () => ({
          into: 'webhook_attempts',
          values: {
            event_id: event.event_id,
            attempt,
            at,
            status_code: a.statusCode,
            latency_ms: Math.round(latencyMs),
            error: a.error,
            redelivery: event.redelivery_requested_at === null ? 0 : 1,
          },
        }),
        ...(passesBound(attempt) ? { alsoRun: (ex) => omitMiddleAttempts(ex, event.event_id, attempt) } : {}),
      });
      return true;
    } catch (err) {
      if (err instanceof LeaseLost) return false;
      throw err;
    }
  }

  /**
   * Sends one attempt; its slot is free again once the response is in, while the record is written with the
   * others of its group (the event's lease keeps it from being claimed again until then).
   */
  async function deliver(delivery: Delivery): Promise<void> {
    const { event } = delivery;
    const at = clock.now();
    const started = performance.now();
    let outcome: AttemptOutcome;
    try {
      outcome = await send(delivery, at);
    } catch (e) {
      logger.error({ eventId: event.event_id, err: (e as Error).message }, 'webhook attempt failed');
      return;
    }
    const attempt = outcome;
    void record(event, attempt, at, performance.now() - started).then(
      (recorded) => {
        if (attempt.state === 'delivered' && recorded) return;
        // The event id and the error only: the URL may carry the receiver's own tokens, and no secret is logged.
        logger.warn({ eventId: event.event_id, attempt: event.attempts + 1, status: attempt.statusCode, error: attempt.error, state: attempt.state, recorded }, 'webhook attempt');
      },
      // A store fault while recording: the lease runs out and the event is delivered again.
      (e: Error) => logger.error({ eventId: event.event_id, err: e.message }, 'webhook attempt not recorded'),
    );
  }

  const loop = new WorkerLoop<Delivery>(
    {
      async claim(limit, running) {
        const events = await queue.claim(clock.now(), limit, running);
        if (events.length === 0) return [];
        const [signing, gone] = await Promise.all([loadSigningKeys(store.db, [...new Set(events.map((e) => e.api_key_id))]), goneReceivers(store.db, events)]);
        const keys = new Map(signing.map((k) => [k.id, k]));
        return events.map((event) => ({ event, key: keys.get(event.api_key_id), receiverGone: gone.has(receiverOf(event)) }));
      },
      key: (d) => d.event.event_id,
      run: deliver,
      nextDueAt: (running) => queue.nextDueAt(running),
      release: () => queue.releaseAll(),
      settled: () => queue.idle(),
    },
    // A batch is claimed ahead while the current one is being sent, so a slot that frees is filled at once; a
    // failed attempt due again at once (an immediate retry) is made within the same tick.
    { concurrency, idleMs: deps.idleMs ?? 500, prefetch: concurrency, rerunInTick: true, wakeOn: { store, topic: 'webhooks' } },
    clock,
    logger,
  );

  return {
    tick: () => loop.tick(),
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
