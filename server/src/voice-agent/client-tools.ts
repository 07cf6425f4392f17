// The client's own tools on a call (the placement's `tools`): at join each session's registry is svc's tools and
// these (registry), each offered to the model as placed. When the model calls one, the ToolRequest
// (`{ event: "tool.call", callId, tool, arguments, metadata }`) goes to its url signed as a webhook is, with the
// key's signing secrets as the store has them (read at most once a second per key, so a burst of calls reads
// them once and a rotation signs with both secrets within a second), through the webhook SSRF guard, within the
// tool's timeout (webhooks/tool-request.ts). The JSON answer is the function's output; a failure
// is answered `{ error }`, so the model can say so and go on. Every use is written on the call's record as the model
// is given the answer (ToolContext.recordToolCall), by the process that holds the line: the model never waits on
// the store, and the line is recorded closed only once the uses are written (line-records.ts).
import http from 'node:http';
import https from 'node:https';
import type { Kysely } from 'kysely';
import { loadSigningKeys, signingSecrets, type SigningKey } from '../accounts/webhook-secrets.js';
import type { ClientToolsBrief, LineBrief } from '../conversation/conversation.js';
import type { ToolCall } from '../generated/types.gen.js';
import type { StoredTool } from '../store/calls-repo.js';
import type { Database } from '../store/schema.js';
import { systemResolver, type Resolver } from '../webhooks/endpoint-guard.js';
import { requestTool, type ToolAnswer } from '../webhooks/tool-request.js';
import { defaultRequest, type RequestFn } from '../webhooks/webhook-sender.js';
import type { Tool, ToolContext, ToolOutput, ToolRegistry } from './tools.js';

export interface ClientToolsOptions {
  /** SVC_WEBHOOK_ALLOW_PRIVATE: http and loopback or private hosts are allowed (local development only). */
  allowPrivate: boolean;
  resolver?: Resolver;
  request?: RequestFn;
  /** The connections kept alive between requests (an https agent that trusts a test's own certificate, say). */
  agents?: { http: http.Agent; https: https.Agent };
}

/** How long a key's signing secrets, once read, sign requests before they are read again. */
const SECRETS_FRESH_MS = 1000;

export class ClientTools {
  private readonly agents: { http: http.Agent; https: https.Agent };
  /** Each key's signing secrets as last read, and when (a read in flight is shared). */
  private readonly keys = new Map<string, { readAt: number; key: Promise<SigningKey | undefined> }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: ClientToolsOptions,
  ) {
    this.agents = options.agents ?? { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  }

  /** The call's registry: `base` (svc's tools), and the call's own tools after them; `base` itself for a call without. */
  registry(brief: LineBrief, base: ToolRegistry): ToolRegistry {
    const own = brief.clientTools;
    if (!own || own.tools.length === 0) return base;
    return base.with(own.tools.map((t) => this.tool(brief.callId, t, own)));
  }

  /** Closes the connections kept alive. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private tool(callId: string, placed: StoredTool, own: ClientToolsBrief): Tool {
    return {
      name: placed.name,
      description: placed.description,
      parameters: placed.parameters,
      remote: true,
      run: async (args, ctx) => {
        const { call, output } = await this.use(callId, placed, own, args, ctx);
        void ctx.recordToolCall?.(call).catch((err: Error) => ctx.logger.error({ callId, tool: placed.name, err: err.message }, 'could not record the tool call'));
        return output;
      },
    };
  }

  /**
   * Asks one of the call's tools, as the model's call of it does: the use as the record keeps it, and the output the
   * model is given (the tool's answer, or `{ error }`). Never throws.
   */
  async use(callId: string, placed: StoredTool, own: ClientToolsBrief, args: Record<string, unknown>, ctx: Pick<ToolContext, 'logger' | 'signal'>): Promise<{ call: ToolCall; output: ToolOutput }> {
    const at = Date.now();
    const started = performance.now();
    const answer = await this.ask(callId, placed, own, args, ctx.signal).catch((err: Error): ToolAnswer => {
      // The store could not give the signing secrets: the tool is not asked, and the model is told it failed.
      ctx.logger.error({ callId, tool: placed.name, err: err.message }, 'could not ask the client tool');
      return { status: 'failed', error: 'the tool could not be asked' };
    });
    const latencyMs = Math.round(performance.now() - started);
    const call: ToolCall = { name: placed.name, arguments: args, status: answer.status, latencyMs, error: answer.status === 'ok' ? null : answer.error, at: new Date(at).toISOString() };
    // The tool's name, the outcome and the time: never its url (it may carry the receiver's token) nor any secret.
    const fields = { callId, tool: placed.name, status: call.status, latencyMs };
    if (answer.status === 'ok') ctx.logger.info(fields, 'client tool answered');
    else ctx.logger.warn({ ...fields, error: answer.error }, 'client tool failed');
    if (answer.status !== 'ok') return { call, output: { error: answer.error } };
    const output = answer.answer;
    return { call, output: typeof output === 'object' && output !== null && !Array.isArray(output) ? (output as ToolOutput) : { result: output } };
  }

  /** The key's signing secrets, read again once they are older than SECRETS_FRESH_MS. */
  private signingKey(apiKeyId: string, now: number): Promise<SigningKey | undefined> {
    const known = this.keys.get(apiKeyId);
    if (known && now - known.readAt < SECRETS_FRESH_MS) return known.key;
    const key = loadSigningKeys(this.db, [apiKeyId]).then((rows) => rows[0]);
    // Kept only while fresh; a failed read is not kept at all.
    this.keys.set(apiKeyId, { readAt: now, key });
    key.catch(() => {
      if (this.keys.get(apiKeyId)?.key === key) this.keys.delete(apiKeyId);
    });
    if (this.keys.size > 1000) for (const [id, k] of this.keys) if (now - k.readAt >= SECRETS_FRESH_MS) this.keys.delete(id);
    return key;
  }

  private async ask(callId: string, placed: StoredTool, own: ClientToolsBrief, args: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ToolAnswer> {
    const now = Date.now();
    const key = await this.signingKey(own.apiKeyId, now);
    if (!key) return { status: 'failed', error: "the call's API key no longer exists, so the request cannot be signed" };
    const body = JSON.stringify({ event: 'tool.call', callId, tool: placed.name, arguments: args, metadata: own.metadata });
    return requestTool({
      url: placed.url,
      body,
      secrets: signingSecrets(key, now),
      timestampSec: Math.floor(now / 1000),
      timeoutMs: placed.timeoutMs,
      allowPrivate: this.options.allowPrivate,
      resolver: this.options.resolver ?? systemResolver,
      agents: this.agents,
      request: this.options.request ?? defaultRequest,
      signal,
    });
  }
}
