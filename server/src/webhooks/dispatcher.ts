// The webhook dispatcher, in named stages: claim (due events, under a lease), prepare (check the endpoint, pick
// the signing secrets), send (sign with a fresh t, POST the stored body bytes), record (success, retry, or a
// final state). tick() runs the stages for whatever is due now; start()/stop() loop it in a worker process.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { signingSecrets } from '../accounts/webhook-secrets.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import { checkEndpoint, RefusedDestination, systemResolver, type CheckedEndpoint, type Resolver } from './endpoint-guard.js';
import { claimDueEvents, loadSigningKeys, recordAttempts, type AttemptRecord, type AttemptToRecord, type ClaimedEvent } from './outbox-leases.js';
import { nextRetryDelayMs, parseRetryAfter } from './retry-schedule.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { defaultRequest, sendDelivery, USER_AGENT, type RequestFn, type SendResult } from './webhook-sender.js';

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
  /**
   * How long a claim is held; must outlast a wait in the local queue (up to two sends, with the prefetch) plus a
   * send. Default: three times the timeout plus 30 s.
   */
  leaseMs?: number;
  /** Deliveries in flight at once, and the size of a claim. */
  concurrency?: number;
  /** The loop's pause when nothing is due. */
  idleMs?: number;
}

export interface WebhookDispatcher {
  /** Delivers everything due now (including immediate retries); resolves with the number of attempts made. */
  tick(): Promise<number>;
  start(): void;
  /** Ends the loop after the deliveries in flight, and closes kept-alive connections. */
  stop(): Promise<void>;
}

type Outcome = Omit<AttemptRecord, 'at' | 'latencyMs'>;
type SigningKey = Awaited<ReturnType<typeof loadSigningKeys>>[number];

export function createWebhookDispatcher(deps: WebhookDispatcherDeps): WebhookDispatcher {
  const { store, clock, config, logger } = deps;
  const random = deps.random ?? Math.random;
  const resolver = deps.resolver ?? systemResolver;
  const request = deps.request ?? defaultRequest;
  const owner = deps.owner ?? `webhooks-${randomUUID()}`;
  const leaseMs = deps.leaseMs ?? 3 * config.webhookTimeoutMs + 30_000;
  const concurrency = deps.concurrency ?? 32;
  const idleMs = deps.idleMs ?? 500;
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: concurrency }),
    https: new https.Agent({ keepAlive: true, maxSockets: concurrency }),
  };

  /** What happens to an event after a failed attempt: retried per the schedule, or failed when exhausted. */
  function afterFailure(event: ClaimedEvent, result: SendResult, now: number): Outcome {
    const base = { statusCode: result.status, error: result.error, deliveredAt: null };
    let delay = nextRetryDelayMs(config.webhookRetrySchedule, event.attempts + 1, random);
    if (delay === null) return { ...base, state: 'failed', nextAttemptAt: now };
    // Retry-After can only push the next attempt later: a receiver cannot make us retry faster than the schedule.
    if (result.status === 429 || result.status === 503) delay = Math.max(delay, parseRetryAfter(result.retryAfter, now) ?? 0);
    return { ...base, state: 'pending', nextAttemptAt: now + delay };
  }

  function outcomeOf(event: ClaimedEvent, result: SendResult, now: number): Outcome {
    const s = result.status;
    if (s !== null && s >= 200 && s < 300) return { statusCode: s, error: null, state: 'delivered', nextAttemptAt: now, deliveredAt: now };
    if (s === 410) return { statusCode: s, error: 'HTTP 410 Gone: the receiver asked for no more deliveries', state: 'gone', nextAttemptAt: now, deliveredAt: null };
    return afterFailure(event, result, now);
  }

  async function prepare(event: ClaimedEvent, key: SigningKey | undefined, at: number): Promise<{ endpoint: CheckedEndpoint; secrets: string[] } | Outcome> {
    if (!key) return { statusCode: null, error: 'the API key of this event no longer exists', state: 'failed', nextAttemptAt: at, deliveredAt: null };
    try {
      return { endpoint: await checkEndpoint(event.url, { allowPrivate: config.webhookAllowPrivate, resolver }), secrets: signingSecrets(key, at) };
    } catch (e) {
      if (e instanceof RefusedDestination) return { statusCode: null, error: e.message, state: 'refused', nextAttemptAt: at, deliveredAt: null };
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      return afterFailure(event, { status: null, retryAfter: undefined, error: `DNS lookup failed: ${code}` }, at);
    }
  }

  // Group commit: attempts that finish in the same turn of the event loop, or while a write is under way, are
  // recorded together in one transaction.
  let toRecord: { item: AttemptToRecord; done: (held: boolean) => void; fail: (e: Error) => void }[] = [];
  let writing = false;
  async function flush() {
    writing = true;
    while (toRecord.length > 0) {
      const group = toRecord;
      toRecord = [];
      try {
        const held = await recordAttempts(store, owner, group.map((g) => g.item));
        group.forEach((g, i) => g.done(held[i]));
      } catch (e) {
        group.forEach((g) => g.fail(e as Error));
      }
    }
    writing = false;
  }
  function record(item: AttemptToRecord): Promise<boolean> {
    return new Promise((done, fail) => {
      toRecord.push({ item, done, fail });
      // Wait for the responses of this turn of the event loop, so they share the write.
      if (!writing) {
        writing = true;
        setImmediate(() => void flush());
      }
    });
  }

  /** Prepares, signs and sends one attempt; resolves with what to record. */
  async function attempt(event: ClaimedEvent, key: SigningKey | undefined): Promise<AttemptToRecord> {
    const at = clock.now();
    const started = performance.now();
    const prepared = await prepare(event, key, at);
    let outcome: Outcome;
    if ('state' in prepared) outcome = prepared;
    else {
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        [SIGNATURE_HEADER]: signatureHeader(event.body, prepared.secrets, Math.floor(clock.now() / 1000)),
      };
      const result = await sendDelivery({ endpoint: prepared.endpoint, body: event.body, headers, timeoutMs: config.webhookTimeoutMs, agents, request });
      outcome = outcomeOf(event, result, clock.now());
    }
    return { event, attempt: { ...outcome, at, latencyMs: performance.now() - started } };
  }

  function logged({ event, attempt: a }: AttemptToRecord, recorded: boolean) {
    if (a.state === 'delivered' && recorded) return;
    // The event id and the error only: the URL may carry the receiver's own tokens, and no secret is logged.
    logger?.warn({ eventId: event.event_id, attempt: event.attempts + 1, status: a.statusCode, error: a.error, state: a.state, recorded }, 'webhook attempt');
  }

  let stopping = false;
  /**
   * `concurrency` lanes share a local queue; a lane that finds it empty claims the next batch (one claim at a
   * time), so a slow receiver holds up only its own lane. Lanes idle while others are in flight (a failure may
   * make an immediate retry due) and stop together once nothing is due and nothing is in flight.
   */
  async function tick(): Promise<number> {
    let attempts = 0;
    let inFlight = 0;
    const queue: { event: ClaimedEvent; key: SigningKey | undefined }[] = [];
    let claiming: Promise<void> | null = null;
    let fault: unknown = null;
    let waiting: (() => void)[] = [];
    const nudge = () => {
      const w = waiting;
      waiting = [];
      w.forEach((f) => f());
    };
    let exhausted = false;
    const refill = async () => {
      const events = await claimDueEvents(store, owner, clock.now(), leaseMs, concurrency);
      exhausted = events.length === 0;
      if (exhausted) return;
      const keys = new Map((await loadSigningKeys(store, [...new Set(events.map((e) => e.api_key_id))])).map((k) => [k.id, k]));
      for (const event of events) queue.push({ event, key: keys.get(event.api_key_id) });
    };
    const claim = (): Promise<void> =>
      refill()
        .catch((e: unknown) => void (fault = e))
        .finally(() => {
          claiming = null;
          // Idle lanes pick up what a prefetch brought; an empty claim wakes no one (that would spin).
          if (queue.length > 0) nudge();
        });
    const lane = async () => {
      for (;;) {
        const next = queue.shift();
        if (next) {
          // Claim the next batch while this one is still being sent, unless the last claim found nothing.
          if (queue.length < concurrency / 2 && !claiming && !exhausted && !stopping && !fault) claiming = claim();
          attempts++;
          // In flight until recorded; the lane itself moves on once the response is in.
          inFlight++;
          const settle = () => {
            inFlight--;
            nudge();
          };
          await attempt(next.event, next.key).then(
            (item) =>
              void record(item)
                .then((held) => logged(item, held))
                // A store fault while recording: the lease runs out and the event is delivered again.
                .catch((e: Error) => logger?.error({ eventId: item.event.event_id, err: e.message }, 'webhook attempt not recorded'))
                .finally(settle),
            (e: Error) => {
              logger?.error({ eventId: next.event.event_id, err: e.message }, 'webhook attempt failed');
              settle();
            },
          );
          continue;
        }
        if (!stopping && !fault) {
          claiming ??= claim();
          await claiming;
        }
        if (queue.length > 0) nudge();
        else if (inFlight === 0) return nudge();
        else await idle();
      }
    };
    /** Until an attempt settles (it may have made a retry due) or idleMs passes (new events may be due). */
    const idle = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, idleMs);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    await Promise.all(Array.from({ length: concurrency }, lane));
    if (fault) throw fault;
    return attempts;
  }

  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  return {
    tick,
    start() {
      if (loop) return;
      stopping = false;
      loop = (async () => {
        while (!stopping) {
          let n = 0;
          try {
            n = await tick();
          } catch (e) {
            logger?.error({ err: (e as Error).message }, 'webhook dispatcher tick failed');
          }
          if (n === 0 && !stopping) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, idleMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
        }
      })();
    },
    async stop() {
      stopping = true;
      wake?.();
      await loop;
      loop = null;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
