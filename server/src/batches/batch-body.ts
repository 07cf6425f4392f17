// A batch's body checked as far as it can be without the store: its bytes decoded and parsed (415, invalid_json),
// its depth (json-nesting.ts) and schema with the batch's own tokens, its startAt and calling window, then every
// call as placeCall checks one, its schema and its guardrails (check-batch.ts's checkBatchCalls). What is left needs
// the store: the account's do-not-call list and numbers (create-batch.ts). Nothing here awaits anything but the
// language detector's load, and all of it is pure, so it runs on the batch thread (batch-body-worker.ts): a body of
// 16 MiB takes the better part of a second, which the event loop spends serving everyone else. What the thread
// answers is rendered there too where it is large: the errors of the calls, and a refusal's body.
import type { ApiKeyRow } from '../accounts/accounts-repo.js';
import type { AgentCatalogue } from '../placement/agent-catalogue.js';
import { checkWindow } from '../schedule/calling-window.js';
import { IrsfList } from '../numbers/irsf.js';
import { languageDetectorReady } from '../placement/language.js';
import { scheduledAt } from '../schedule/start-at.js';
import { ApiError, errorBody } from '../errors/api-error.js';
import type { CallMetadata, CreateBatchRequest, StopWhen } from '../generated/types.gen.js';
import { requestFingerprint } from '../contract/idempotency-key.js';
import { parseJsonBytes } from '../contract/json-body.js';
import { shippedDocument } from '../contract/openapi-document.js';
import { compileBodyCheck } from '../contract/request-validator.js';
import { ajvFor, formatReasons } from '../contract/schema-ajv.js';
import { checkBatchCalls, type BatchCheckPorts, type CheckedCall } from './check-batch.js';

/** What the check depends on besides the request: the service's settings, as plain data a thread can be sent. */
export interface BatchBodySettings {
  allowPrivateWebhooks: boolean;
  catalogue: AgentCatalogue;
  /** The IRSF list's prefixes. */
  irsf: string[];
}

export interface BatchBodyInput {
  bytes: Uint8Array;
  key: ApiKeyRow;
  now: number;
  /** Take the body's fingerprint (an Idempotency-Key guards the request). */
  fingerprint: boolean;
  settings: BatchBodySettings;
}

/** A batch whose body is sound, with its calls checked as far as the store. */
export interface BatchBody {
  total: number;
  maxConcurrency: number;
  webhookUrl: string | null;
  metadata: CallMetadata | null;
  /** When the batch starts; null for at once. */
  scheduledAt: number | null;
  stopWhen: StopWhen | null;
  /** The calls that passed, in order. */
  passed: CheckedCall[];
  /**
   * How many calls failed, and their errors (BatchItemError[], in index order) as JSON: rendered here, as a batch
   * of 10,000 bad calls answers megabytes of them.
   */
  failed: number;
  errorsJson: Uint8Array;
  /** requestFingerprint of the body, when asked for; '' otherwise. */
  fingerprint: string;
}

/** The batch's body checked; throws the ApiError the whole batch is refused with. */
export async function checkBatchBody({ bytes, key, now, fingerprint, settings }: BatchBodyInput): Promise<BatchBody> {
  const ports = portsFor(settings);
  const parsed = parseJsonBytes(bytes);
  if (parsed === undefined) throw new ApiError(400, 'invalid_body', 'The request body must be a JSON object.');
  const problem = ports.checkBody(parsed);
  if (problem) throw problem;
  const body = parsed as CreateBatchRequest;
  const start = scheduledAt(body.startAt, now);
  const window = body.callingWindow ? checkWindow(body.callingWindow) : undefined;
  // The batch's window and redial are defaults of its calls, under the batch's own `defaults`.
  const defaults = { ...(window ? { callingWindow: window } : {}), ...(body.redial ? { redial: body.redial } : {}), ...body.defaults };
  // preparePlacement infers a call's language with the detector, which loads once, asynchronously.
  await languageDetectorReady();
  const { passed, errors } = checkBatchCalls(ports, key, body.calls, defaults, start ?? now);
  return {
    total: body.calls.length,
    maxConcurrency: body.maxConcurrency ?? 5,
    webhookUrl: body.webhookUrl ?? null,
    metadata: body.metadata ?? null,
    scheduledAt: start,
    stopWhen: body.stopWhen ?? null,
    passed,
    failed: errors.length,
    errorsJson: new TextEncoder().encode(JSON.stringify(errors)),
    fingerprint: fingerprint ? requestFingerprint(body) : '',
  };
}

/**
 * A refusal as the batch thread answers it: its status, token, message and headers, and its body rendered there (an
 * invalid_batch names up to 10,000 calls: some megabytes of JSON the event loop need not build).
 */
export function refusal(err: ApiError): { status: number; token: string; message: string; headers: Record<string, string>; body: Uint8Array } {
  return { status: err.status, token: err.token, message: err.message, headers: err.headers, body: new TextEncoder().encode(JSON.stringify(errorBody(err))) };
}

type Ports = BatchCheckPorts & { checkBody(body: unknown): ApiError | null };

/** The checks for each set of settings, compiled once (a process has one; a test process has a few). */
const compiled = new Map<string, Ports>();

function portsFor(settings: BatchBodySettings): Ports {
  const id = JSON.stringify(settings);
  let ports = compiled.get(id);
  if (!ports) {
    const doc = shippedDocument();
    const options = { allowPrivateWebhooks: settings.allowPrivateWebhooks };
    const ajv = ajvFor(doc, options);
    const reasons = formatReasons(options);
    ports = {
      catalogue: settings.catalogue,
      irsf: IrsfList.parse(settings.irsf.join('\n')),
      checkBody: compileBodyCheck(doc, ajv, ['components', 'schemas', 'CreateBatchRequest'], reasons),
      // Each call of a batch is checked against placeCall's own schema, tokens and order.
      checkCall: compileBodyCheck(doc, ajv, ['components', 'schemas', 'PlaceCallRequest'], reasons),
    };
    compiled.set(id, ports);
  }
  return ports;
}
