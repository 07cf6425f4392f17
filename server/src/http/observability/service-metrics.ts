// Prometheus metrics. Request counts and latencies, and the live calls' latencies (call-latency-metrics.ts), are
// this process's own; call, webhook and queue figures are read from the store at scrape time, so every process of a
// scaled-out deployment reports the same values.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/store.js';
import { countCallsByStatus, readDueCalls } from '../../store/calls/call-counts.js';
import { CALL_STATUSES, TERMINAL_STATUSES } from '../../calls/call-status.js';
import { attemptCountsByOutcome } from '../../store/webhooks/attempts.js';
import { callLatencyMetrics } from './call-latency-metrics.js';

const WEBHOOK_OUTCOMES = ['success', 'http_error', 'error'] as const;

// Process metrics (memory, CPU, event loop) are collected once per process, however many apps it builds.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'svc_' });
  }
  return processRegistry;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  /** The series read from the store; left out of a scrape that could not read it, rather than shown stale. */
  private readonly storeRegistry = new Registry();
  private readonly requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by operation (operationId, or the operations route) and response status.',
    labelNames: ['operation', 'status'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request latency by operation, from the first middleware to the response.',
    labelNames: ['operation'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly storeUp = new Gauge({ name: 'svc_store_up', help: '1 when the last scrape could read the store.', registers: [this.registry] });
  private readonly calls = new Gauge({ name: 'svc_calls', help: 'Calls in the store by status.', labelNames: ['status'], registers: [this.storeRegistry] });
  private readonly webhookAttempts = new Counter({
    name: 'svc_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: success (2xx), http_error (any other status), error (no response: timeout, refused, blocked).',
    labelNames: ['outcome'],
    registers: [this.storeRegistry],
  });
  private readonly queueDepth = new Gauge({
    name: 'svc_engine_queue_depth',
    help: 'Calls not yet terminal whose next engine step is due now.',
    registers: [this.storeRegistry],
  });
  private readonly queueLag = new Gauge({
    name: 'svc_engine_queue_lag_seconds',
    help: 'How long the oldest due engine step has waited; 0 when none is due.',
    registers: [this.storeRegistry],
  });

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly includeProcessMetrics = true,
  ) {}

  observeRequest(operation: string, status: number, seconds: number): void {
    this.requests.inc({ operation, status: String(status) });
    this.latency.observe({ operation }, seconds);
  }

  /** The exposition text. A store that cannot be read sets svc_store_up 0 and leaves its series out. */
  async render(): Promise<{ contentType: string; text: string }> {
    const registries = [this.registry, callLatencyMetrics.registry];
    try {
      await this.readStore();
      this.storeUp.set(1);
      registries.push(this.storeRegistry);
    } catch {
      this.storeUp.set(0);
    }
    if (this.includeProcessMetrics) registries.push(processMetrics());
    return { contentType: this.registry.contentType, text: await Registry.merge(registries).metrics() };
  }

  private async readStore(): Promise<void> {
    const db = this.store.db;
    const now = this.clock.now();
    const byStatus = await countCallsByStatus(db);
    const { kept, omitted } = await attemptCountsByOutcome(db);
    const due = await readDueCalls(db, TERMINAL_STATUSES, now);

    this.calls.reset();
    for (const status of CALL_STATUSES) this.calls.set({ status }, 0);
    for (const row of byStatus) this.calls.set({ status: row.status }, Number(row.n));
    // Each attempt is a row, or counted as omitted when its row is deleted, so the sum only grows: a counter.
    this.webhookAttempts.reset();
    for (const outcome of WEBHOOK_OUTCOMES) this.webhookAttempts.inc({ outcome }, 0);
    for (const row of [...kept, ...omitted]) this.webhookAttempts.inc({ outcome: row.outcome }, Number(row.n));
    this.queueDepth.set(Number(due.n));
    this.queueLag.set(due.oldest === null ? 0 : Math.max(0, (now - Number(due.oldest)) / 1000));
  }
}
