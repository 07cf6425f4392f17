// The tool (MCP) server: place_call, get_call, list_calls and wait_for_call over an SvcClient. The same server
// runs over stdio (the svc-mcp command) and inside the service at /mcp. Every failure is a tool result with
// isError and the API's error token, so an assistant sees what went wrong and the session carries on.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SvcApiError, SvcNetworkError, SvcTimeoutError } from '../errors.js';
import type { BatchRowState, CreateBatchRequest, PlaceCallRequest } from '../generated/types.gen.js';
import type { ListCallsQuery, SvcClient } from '../svc-client.js';
import { toolDefinitions, WAIT_DEFAULT_TIMEOUT_SEC, WAIT_MAX_TIMEOUT_SEC, type ToolDefinition } from './tool-schemas.js';

export interface ToolServerOptions {
  /** The client the tools act through; its API key decides whose calls they see. */
  client: SvcClient;
  /** The service's OpenAPI document (as served at /openapi.json), read once when the tools are first listed. */
  document: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

type Args = Record<string, unknown>;

function result(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}

function toolError(error: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  const body = { error, message, ...extra };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body, null, 2) }], structuredContent: body };
}

class ArgumentError extends Error {}

function stringArg(args: Args, name: string, required: boolean): string | undefined {
  const value = args[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value === '') throw new ArgumentError(`${name} must be a non-empty string`);
  return value;
}

function numberArg(args: Args, name: string, min: number, max: number, fallback: number): number {
  const value = args[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw new ArgumentError(`${name} must be a number from ${min} to ${max}`);
  return value;
}

async function run(client: SvcClient, name: string, args: Args, signal: AbortSignal): Promise<CallToolResult> {
  switch (name) {
    case 'place_call': {
      const { idempotencyKey, ...body } = args;
      // The body goes to the API as given: its validation, and its error tokens, are the API's own.
      return result(await client.placeCall(body as unknown as PlaceCallRequest, { idempotencyKey: stringArg(args, 'idempotencyKey', false), signal }));
    }
    case 'get_call':
      return result(await client.getCall(stringArg(args, 'id', true)!, { signal }));
    case 'list_calls':
      // The query goes to the API as given: its validation, and its error tokens, are the API's own.
      return result(
        await client.listCalls({
          limit: args.limit as number | undefined,
          cursor: args.cursor as string | undefined,
          status: args.status as string | undefined,
          answeredBy: args.answeredBy as ListCallsQuery['answeredBy'],
          createdFrom: args.createdFrom as string | undefined,
          createdTo: args.createdTo as string | undefined,
          q: args.q as string | undefined,
          batchId: args.batchId as string | undefined,
          signal,
        }),
      );
    case 'get_stats':
      return result(await client.getStats({ createdFrom: args.createdFrom as string | undefined, createdTo: args.createdTo as string | undefined, signal }));
    case 'get_settings':
      return result(await client.getSettings({ signal }));
    case 'wait_for_call': {
      const id = stringArg(args, 'id', true)!;
      const timeoutMs = numberArg(args, 'timeoutSec', 0, WAIT_MAX_TIMEOUT_SEC, WAIT_DEFAULT_TIMEOUT_SEC) * 1000;
      const intervalMs = numberArg(args, 'intervalSec', 0.1, 60, 2) * 1000;
      return result(await client.waitForCall(id, { timeoutMs, intervalMs, signal }));
    }
    case 'preflight_call':
      return result(await client.preflightCall(args as unknown as PlaceCallRequest, { signal }));
    case 'cancel_call':
      return result(await client.cancelCall(stringArg(args, 'id', true)!, { signal }));
    case 'add_do_not_call': {
      const reason = args.reason === undefined || args.reason === null ? undefined : (args.reason as string);
      return result(await client.addDoNotCall(args.number as string, { reason, signal }));
    }
    case 'create_batch': {
      const { idempotencyKey, ...body } = args;
      return result(await client.createBatch(body as unknown as CreateBatchRequest, { idempotencyKey: stringArg(args, 'idempotencyKey', false), signal }));
    }
    case 'preflight_batch':
      return result(await client.preflightBatch(args as unknown as CreateBatchRequest, { signal }));
    case 'get_batch':
      return result(await client.getBatch(stringArg(args, 'id', true)!, { signal }));
    case 'cancel_batch':
      return result(await client.cancelBatch(stringArg(args, 'id', true)!, { signal }));
    case 'list_call_events':
      return result({ events: await client.listCallEvents(stringArg(args, 'id', true)!, { signal }) });
    case 'redeliver_event':
      return result(await client.redeliverEvent(stringArg(args, 'id', true)!, stringArg(args, 'eventId', true)!, { signal }));
    case 'list_batch_events':
      return result({ events: await client.listBatchEvents(stringArg(args, 'id', true)!, { signal }) });
    case 'redeliver_batch_event':
      return result(await client.redeliverBatchEvent(stringArg(args, 'id', true)!, stringArg(args, 'eventId', true)!, { signal }));
    case 'list_batch_rows':
      // limit, after and state go to the API as given: its validation, and its error tokens, are the API's own.
      return result(
        await client.listBatchRows(stringArg(args, 'id', true)!, {
          limit: args.limit as number | undefined,
          after: args.after as number | undefined,
          state: args.state as BatchRowState | undefined,
          signal,
        }),
      );
    default:
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${name}; the tools are place_call, get_call, list_calls, wait_for_call, preflight_call, cancel_call, add_do_not_call, create_batch, preflight_batch, get_batch, cancel_batch, list_call_events, redeliver_event, list_batch_events, redeliver_batch_event, list_batch_rows, get_stats and get_settings.`,
      );
  }
}

function failure(error: unknown): CallToolResult {
  if (error instanceof SvcApiError) {
    const { retryAfterSec } = error.rateLimit;
    return toolError(error.token, error.message, { status: error.status, ...(retryAfterSec === null ? {} : { retryAfterSec }), ...(error.errors === null ? {} : { errors: error.errors }) });
  }
  if (error instanceof ArgumentError) return toolError('invalid_arguments', error.message);
  if (error instanceof SvcTimeoutError) {
    return toolError('wait_timeout', `The call is still ${error.lastStatus ?? 'running'}; call wait_for_call again to keep waiting.`, { lastStatus: error.lastStatus });
  }
  if (error instanceof SvcNetworkError) return toolError('service_unreachable', error.message);
  return toolError('internal_error', 'The tool failed unexpectedly.');
}

export function createToolServer(options: ToolServerOptions): Server {
  const server = new Server({ name: 'svc', version: '1.0.0' }, { capabilities: { tools: {} } });
  let tools: ToolDefinition[] | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    tools ??= toolDefinitions(await options.document());
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      return await run(options.client, request.params.name, request.params.arguments ?? {}, extra.signal);
    } catch (error) {
      if (error instanceof McpError || extra.signal.aborted) throw error;
      return failure(error);
    }
  });
  return server;
}
