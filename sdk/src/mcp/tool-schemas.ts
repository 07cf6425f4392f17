// The tools' input schemas, derived from the service's OpenAPI document (openapi.yaml, or /openapi.json as the
// service serves it) so they can never drift from the API: $refs are inlined, and the document's own
// extensions (x-error...) and custom formats are dropped, since tool clients only know plain JSON Schema.

type Json = Record<string, unknown>;
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Json>; required?: string[]; additionalProperties?: boolean } & Json;
}

const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'uuid', 'uri', 'email']);
export const WAIT_DEFAULT_TIMEOUT_SEC = 50;
export const WAIT_MAX_TIMEOUT_SEC = 600;

function resolve(doc: Json, ref: string): Json {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (typeof node !== 'object' || node === null) throw new Error(`The OpenAPI document has no ${ref}`);
  return node as Json;
}

/** A copy of `node` with every $ref inlined and every x- extension and custom format removed. */
export function plainSchema(doc: Json, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => plainSchema(doc, n));
  if (typeof node !== 'object' || node === null) return node;
  const obj = node as Json;
  if (typeof obj.$ref === 'string') {
    // OpenAPI 3.1 lets keywords sit beside a $ref (a property's own description): they are kept, over the target's.
    const { $ref, ...beside } = obj;
    return { ...(plainSchema(doc, resolve(doc, $ref as string)) as Json), ...(plainSchema(doc, beside) as Json) };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith('x-') || (k === 'format' && !STANDARD_FORMATS.has(String(v)))) continue;
    // Under `properties` the keys are field names, never keywords: keep them all.
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, plainSchema(doc, s)])) : plainSchema(doc, v);
  }
  return out;
}

function operation(doc: Json, operationId: string): Json {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const op of Object.values(item)) {
      if (typeof op === 'object' && op !== null && (op as Json).operationId === operationId) return op as Json;
    }
  }
  throw new Error(`The OpenAPI document has no operation ${operationId}`);
}

function parameter(doc: Json, operationId: string, name: string): Json {
  const params = ((operation(doc, operationId).parameters ?? []) as Json[]).map((p) => (typeof p.$ref === 'string' ? resolve(doc, p.$ref) : p));
  const found = params.find((p) => p.name === name);
  if (!found) throw new Error(`The OpenAPI document's ${operationId} has no parameter ${name}`);
  return { ...(plainSchema(doc, found.schema) as Json), description: found.description };
}

function requestBody(doc: Json, operationId: string): Json {
  const body = operation(doc, operationId).requestBody as Json;
  const schema = ((body.content as Json)['application/json'] as Json).schema;
  return plainSchema(doc, schema) as Json;
}

function summary(doc: Json, operationId: string): string {
  const op = operation(doc, operationId);
  return [op.summary, op.description].filter((s) => typeof s === 'string').join('. ');
}

export function toolDefinitions(doc: Json): ToolDefinition[] {
  const place = requestBody(doc, 'placeCall');
  const preflight = requestBody(doc, 'preflightCall');
  const dnc = requestBody(doc, 'addDoNotCall');
  const batch = requestBody(doc, 'createBatch');
  const batchId = parameter(doc, 'getBatch', 'id');
  const id = parameter(doc, 'getCall', 'id');
  return [
    {
      name: 'place_call',
      description:
        `${summary(doc, 'placeCall')} Returns the callId; the call then runs on its own: use wait_for_call to get its outcome. ` +
        'Pass the same idempotencyKey when retrying, so the retry cannot place a second call. ' +
        "With tools, the agent may call your own endpoints during the call (each use is POSTed to the tool's url, signed as webhooks are, and listed in the record's toolCalls).",
      inputSchema: {
        ...place,
        type: 'object',
        properties: { ...(place.properties as Record<string, Json>), idempotencyKey: parameter(doc, 'placeCall', 'Idempotency-Key') },
      },
    },
    {
      name: 'get_call',
      description: `${summary(doc, 'getCall')}: its status and, once it has ended, summary, transcript, extracted fields and who answered (answeredBy: human, machine, fax or unknown), for a call a live agent spoke on how quickly it answered (latency, in ms), and each use the agent made of the call's own tools (toolCalls: name, arguments, status, latencyMs, error) as it is answered.`,
      inputSchema: { type: 'object', properties: { id }, required: ['id'], additionalProperties: false },
    },
    {
      name: 'list_calls',
      description: summary(doc, 'listCalls'),
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(['limit', 'cursor', 'status', 'answeredBy', 'createdFrom', 'createdTo', 'q', 'batchId'].map((p) => [p, parameter(doc, 'listCalls', p)])),
        additionalProperties: false,
      },
    },
    {
      name: 'wait_for_call',
      description:
        'Waits until a call has ended (completed, no_answer, voicemail, declined, failed or canceled) and returns its record with summary, ' +
        "transcript, extracted fields, answeredBy (human, machine, fax or unknown; null when nobody answered) and the uses of the call's own tools (toolCalls). If it has not ended within timeoutSec, returns a wait_timeout error: call again to keep waiting.",
      inputSchema: {
        type: 'object',
        properties: {
          id,
          timeoutSec: { type: 'number', minimum: 0, maximum: WAIT_MAX_TIMEOUT_SEC, default: WAIT_DEFAULT_TIMEOUT_SEC, description: 'How long to wait, in seconds.' },
          intervalSec: { type: 'number', minimum: 0.1, maximum: 60, default: 2, description: 'Pause between polls, in seconds.' },
        },
        required: ['id'],
        additionalProperties: false,
      },
    },
    {
      name: 'preflight_call',
      description: `${summary(doc, 'preflightCall')} Use it to check a call before place_call: an error here is the error place_call would give.`,
      inputSchema: { ...preflight, type: 'object', properties: preflight.properties as Record<string, Json> },
    },
    {
      name: 'cancel_call',
      description:
        `${summary(doc, 'cancelCall')} Returns the call's record: canceled at once when it was not yet dialled; ` +
        'when it was ringing or live, the service takes the line down (use wait_for_call for how it ended).',
      inputSchema: { type: 'object', properties: { id }, required: ['id'], additionalProperties: false },
    },
    {
      name: 'add_do_not_call',
      description: `${summary(doc, 'addDoNotCall')} Use it when someone asks not to be called again.`,
      inputSchema: { ...dnc, type: 'object', properties: dnc.properties as Record<string, Json> },
    },
    {
      name: 'create_batch',
      description: `${summary(doc, 'createBatch')} Returns the batchId; use get_batch to follow it. Pass the same idempotencyKey when retrying, so the retry cannot create a second batch.`,
      inputSchema: {
        ...batch,
        type: 'object',
        properties: { ...(batch.properties as Record<string, Json>), idempotencyKey: parameter(doc, 'createBatch', 'Idempotency-Key') },
      },
    },
    {
      name: 'preflight_batch',
      description: `${summary(doc, 'preflightBatch')} Use it to check a batch before create_batch: valid, or every bad call by its index with the error create_batch would name it with.`,
      inputSchema: { ...batch, type: 'object', properties: batch.properties as Record<string, Json> },
    },
    {
      name: 'get_batch',
      description: `${summary(doc, 'getBatch')} Its status (queued, running, paused, completed, canceled, stopped) and its calls counted by status.`,
      inputSchema: { type: 'object', properties: { id: batchId }, required: ['id'], additionalProperties: false },
    },
    {
      name: 'cancel_batch',
      description: summary(doc, 'cancelBatch'),
      inputSchema: { type: 'object', properties: { id: batchId }, required: ['id'], additionalProperties: false },
    },
    {
      name: 'list_call_events',
      description: `${summary(doc, 'listCallEvents')} Use it to answer whether a call's webhooks arrived.`,
      inputSchema: { type: 'object', properties: { id }, required: ['id'], additionalProperties: false },
    },
    {
      name: 'redeliver_event',
      description: summary(doc, 'redeliverEvent'),
      inputSchema: { type: 'object', properties: { id, eventId: parameter(doc, 'redeliverEvent', 'eventId') }, required: ['id', 'eventId'], additionalProperties: false },
    },
    {
      name: 'list_batch_events',
      description: `${summary(doc, 'listBatchEvents')} Use it to answer whether a batch's own webhook (its ending) arrived.`,
      inputSchema: { type: 'object', properties: { id: batchId }, required: ['id'], additionalProperties: false },
    },
    {
      name: 'redeliver_batch_event',
      description: summary(doc, 'redeliverBatchEvent'),
      inputSchema: { type: 'object', properties: { id: batchId, eventId: parameter(doc, 'redeliverBatchEvent', 'eventId') }, required: ['id', 'eventId'], additionalProperties: false },
    },
    {
      name: 'list_batch_rows',
      description: `${summary(doc, 'listBatchRows')} Use it to answer which of a batch's calls were made, which wait, and which never will, and why.`,
      inputSchema: {
        type: 'object',
        properties: { id: batchId, limit: parameter(doc, 'listBatchRows', 'limit'), after: parameter(doc, 'listBatchRows', 'after'), state: parameter(doc, 'listBatchRows', 'state') },
        required: ['id'],
        additionalProperties: false,
      },
    },
    {
      name: 'get_stats',
      description: `${summary(doc, 'getStats')} Use it to answer how the calls went over a period (answer rate, outcomes, minutes against the plan, errors).`,
      inputSchema: { type: 'object', properties: { createdFrom: parameter(doc, 'getStats', 'createdFrom'), createdTo: parameter(doc, 'getStats', 'createdTo') }, additionalProperties: false },
    },
    {
      name: 'get_settings',
      description: `${summary(doc, 'getSettings')} Use it to learn the caller id, voice and calling window a call starts from, the voices to choose from, and the minutes left on the plan.`,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    },
  ];
}
