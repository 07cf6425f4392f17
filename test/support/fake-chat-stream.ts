// A local streaming chat-completions server (`POST /v1/chat/completions`, `stream: true`, server-sent events),
// written from what each server documents and sends:
//   openai    every chunk `chat.completion.chunk` with `usage: null` and an `obfuscation` pad when usage is asked
//             for; the first chunk gives the role; a tool call's first piece has index, id, type, name and
//             arguments "", its later pieces index and an arguments fragment; finish_reason `tool_calls`; then a
//             usage chunk with `choices: []` and `data: [DONE]`.
//   vllm      the same shape (role chunk `content: ""` first, tool ids `chatcmpl-tool-…`, the name on a piece with
//             no arguments, `stop_reason`), and errors inside the 200 stream: `data: {"error": {"object": "error",
//             …}}`, or the older flat `{"object": "error", …}`, then `data: [DONE]`.
//   llamacpp  llama-server: the role chunk with `content: null`, no `logprobs`, a tool call's first piece carrying
//             its first arguments fragment, the usage chunk (with `timings`) sent whether asked for or not; errors
//             as `data: {"error": …}`, or as older builds did, a non-standard `error: {…}` SSE field.
//   text-only a server that takes `tools` and ignores them: OpenAI's shape, text only.
// It checks requests as OpenAI does (400 for an empty `tools`, a `tool_choice` without tools, a tool message that
// answers no call, a call not answered by the tool messages right after it; 401 for a wrong key, the body echoing
// the key sent) and records each one. Bad days per reply:
// an HTTP status (429 with Retry-After), a socket destroyed or a body ended mid-stream, a stall (no bytes until
// the test closes the server), a late first token, an error mid-stream; and chunks paced `paceMs` apart. A reply
// may also wait after a frame until the test lets it go on (`holdAfter` and `until`), so a test can order what the
// client does against the stream; each request records whether its body was sent whole or the client went away.
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

export type Flavour = 'openai' | 'vllm' | 'llamacpp' | 'text-only';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; `any` so a test reads deep into it and asserts the exact shape. */
  body: any;
  /** The server ended the response (whole, or as a plan's `cut: 'end'` ends it). */
  ended: boolean;
  /** The client closed the connection before the response ended (it aborted the request). */
  aborted: boolean;
  /** The client's port: requests on one kept-alive connection share it. */
  clientPort: number;
  /** When the request arrived, and when the last frame of its reply was written (performance.now()), for the benches' timings. */
  at: number;
  endedAt: number | null;
}

export interface PlannedCall {
  id: string;
  name: string;
  /** The arguments as the server streams them, fragment by fragment. */
  arguments: string[];
}

/** One streamed reply, and how it goes wrong. Frames count from the role chunk (frame 0). */
export interface StreamPlan {
  /** Content fragments, in order. */
  text?: string[];
  /** Tool calls after the text (ignored by text-only). */
  calls?: PlannedCall[];
  /** Alternates the calls' argument fragments (harder than OpenAI, which sends one call after the other). */
  interleave?: boolean;
  /** Waits this long after the role chunk before the first token. */
  firstTokenDelayMs?: number;
  /** Waits this long between frames (and between slices, with sliceBytes). */
  paceMs?: number;
  /** Writes each frame in slices of this many bytes (a multi-byte character may be split between two). */
  sliceBytes?: number;
  /** After this many frames: the socket is destroyed, or the body ends as if complete. */
  cutAfter?: number;
  cut?: 'destroy' | 'end';
  /** After this many frames nothing more is sent, the connection held open. */
  stallAfter?: number;
  /**
   * After this many frames the stream waits for `until` and then goes on; if `until` rejects, the socket is
   * destroyed (a test that fails to see what it waited for gets a broken reply, not a hung one).
   */
  holdAfter?: number;
  until?: () => Promise<unknown>;
  /** After this many frames an error is sent in the stream, in the flavour's way, then `data: [DONE]`. */
  errorAfter?: number;
  /** vllm: `wrapped` (default) or `flat`; llamacpp: `field` (default, older builds) or `wrapped`. */
  errorShape?: 'wrapped' | 'flat' | 'field';
}

export type FakeReply = StreamPlan | { status: number; retryAfter?: string } | ((body: any) => StreamPlan);

export interface FakeChatStream {
  /** The API root to configure, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies, used in order; a request with none queued gets a 500 the test will notice. */
  reply(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

export interface FakeChatStreamOptions {
  flavour: Flavour;
  /** When set, a request must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Answers each request no queued reply is left for (a bench's many calls); without it, such a request gets a 500. */
  answer?: (body: any) => FakeReply;
}

const CREATED = 1_763_812_800;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export async function startFakeChatStream(options: FakeChatStreamOptions): Promise<FakeChatStream> {
  const { flavour } = options;
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let served = 0;
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => (timers.delete(t), fn()), ms);
    timers.add(t);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return refuse(res, flavour, 404, 'Not found', 'invalid_request_error');
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse(res, flavour, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
      }
      const record: RecordedRequest = {
        method: req.method,
        path: req.url,
        headers: req.headers,
        body,
        ended: false,
        aborted: false,
        clientPort: req.socket.remotePort ?? 0,
        at: performance.now(),
        endedAt: null,
      };
      requests.push(record);
      res.on('finish', () => (record.ended = true));
      res.on('close', () => (record.aborted = !record.ended));
      const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return refuse(res, flavour, 401, `Incorrect API key provided: ${sent}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error');
      }
      const invalid = checkRequest(body);
      if (invalid) return refuse(res, flavour, 400, invalid, 'invalid_request_error');
      const queued = queue.shift() ?? options.answer?.(body) ?? { status: 500 };
      const plan = typeof queued === 'function' ? queued(body) : queued;
      if ('status' in plan) {
        const headers: Record<string, string> = plan.retryAfter === undefined ? {} : { 'retry-after': plan.retryAfter };
        const message = plan.status === 429 ? 'Rate limit reached for requests. Please try again later.' : `The server had an error while processing your request (key ${sent}).`;
        return refuse(res, flavour, plan.status, message, plan.status === 429 ? 'requests' : 'server_error', headers);
      }
      served += 1;
      stream(res, flavour, frames(flavour, served, body, plan), plan, later, () => (record.endedAt = performance.now()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What OpenAI answers 400 for, in its words; null when the request is fine. */
function checkRequest(body: any): string | null {
  if (typeof body?.model !== 'string' || body.model === '') return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "[] is too short - 'messages'";
  if (body.stream !== true) return 'this fake answers streamed requests only';
  if (body.stream_options !== undefined && (typeof body.stream_options !== 'object' || body.stream_options === null)) return "Invalid type for 'stream_options'";
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools) || body.tools.length === 0) return "[] is too short - 'tools'";
    for (const tool of body.tools) {
      if (tool?.type !== 'function' || !TOOL_NAME.test(tool.function?.name ?? '') || typeof tool.function?.parameters !== 'object') return "Invalid value for 'tools'";
    }
  }
  if (body.tool_choice !== undefined && body.tools === undefined) return "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.";
  const called = new Set<string>();
  for (const [i, m] of body.messages.entries()) {
    if (!['system', 'user', 'assistant', 'tool', 'developer'].includes(m?.role)) return "Invalid value for 'messages[].role'";
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) called.add(c.id);
    if (m.role === 'tool' && !called.has(m.tool_call_id)) return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
    // Every call must be answered by the tool messages right after it, before anything else is said.
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      const owed = new Set<string>(m.tool_calls.map((c: { id: string }) => c.id));
      for (let j = i + 1; body.messages[j]?.role === 'tool'; j++) owed.delete(body.messages[j].tool_call_id);
      if (owed.size > 0) {
        return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...owed].join(', ')}`;
      }
    }
  }
  return null;
}

/** An HTTP error in the flavour's body shape (vLLM's key check answers a bare string). */
function refuse(res: ServerResponse, flavour: Flavour, status: number, message: string, type: string, headers: Record<string, string> = {}): void {
  const body =
    flavour === 'vllm' && status === 401
      ? { error: 'Unauthorized' }
      : flavour === 'llamacpp'
        ? { error: { code: status, message, type: status === 401 ? 'authentication_error' : type } }
        : { error: { message, type, param: null, code: status === 401 ? 'invalid_api_key' : null } };
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The reply as SSE frames, in the flavour's shapes. */
function frames(flavour: Flavour, n: number, body: any, plan: StreamPlan): string[] {
  const usageAsked = body.stream_options?.include_usage === true;
  const id = flavour === 'vllm' ? `chatcmpl-${'a'.repeat(24)}${n.toString(16).padStart(8, '0')}` : flavour === 'llamacpp' ? `chatcmpl-Ca3q6j8NlTmm9h34TBbwr3wjgO47${n}` : `chatcmpl-Bx${n}fake`;
  const text = plan.text ?? [];
  const calls = flavour === 'text-only' ? [] : (plan.calls ?? []);
  let pad = 0;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string => {
    const choice =
      flavour === 'llamacpp'
        ? { finish_reason: finish, index: 0, delta }
        : flavour === 'vllm'
          ? { index: 0, delta, logprobs: null, finish_reason: finish, ...(finish ? { stop_reason: null } : {}) }
          : { index: 0, delta, logprobs: null, finish_reason: finish };
    if (flavour === 'llamacpp') return sse({ choices: [choice], created: CREATED, id, model: body.model, system_fingerprint: 'b6497-cd08fc3e', object: 'chat.completion.chunk' });
    if (flavour === 'vllm') return sse({ id, object: 'chat.completion.chunk', created: CREATED, model: body.model, choices: [choice] });
    pad += 1;
    return sse({
      id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model: `${body.model}-2024-07-18`,
      service_tier: 'default',
      system_fingerprint: 'fp_560af6e559',
      choices: [choice],
      ...(usageAsked ? { usage: null, obfuscation: 'x'.repeat(pad % 7) } : {}),
    });
  };
  const out: string[] = [];
  out.push(
    chunk(
      flavour === 'llamacpp'
        ? { role: 'assistant', content: null }
        : flavour === 'vllm'
          ? { role: 'assistant', content: '' }
          : { role: 'assistant', content: calls.length > 0 && text.length === 0 ? null : '', refusal: null },
    ),
  );
  for (const t of text) out.push(chunk({ content: t }));
  // Each call's pieces: its first (id and name), then its arguments fragments; `rank` is a piece's place in its call.
  const pieces: Array<{ call: number; rank: number; first: boolean; args: string }> = [];
  calls.forEach((c, i) => {
    pieces.push({ call: i, rank: 0, first: true, args: '' });
    c.arguments.forEach((a, k) => void pieces.push({ call: i, rank: k + 1, first: false, args: a }));
  });
  // Interleaved: every call's k-th piece before any call's (k+1)-th.
  if (plan.interleave) pieces.sort((a, b) => a.rank - b.rank || a.call - b.call);
  for (let p = 0; p < pieces.length; p += 1) {
    const { call, first, args } = pieces[p];
    const c = calls[call];
    if (first && flavour === 'llamacpp') {
      // llama-server sends the name with whatever arguments it has parsed so far.
      const next = pieces[p + 1];
      const firstArgs = next && next.call === call && !next.first ? (pieces.splice(p + 1, 1)[0].args ?? '') : '';
      out.push(chunk({ tool_calls: [{ index: call, id: c.id, type: 'function', function: { name: c.name, arguments: firstArgs } }] }));
    } else if (first && flavour === 'vllm') {
      out.push(chunk({ tool_calls: [{ id: c.id, type: 'function', index: call, function: { name: c.name } }] }));
    } else if (first) {
      out.push(chunk({ tool_calls: [{ index: call, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    } else {
      out.push(chunk({ tool_calls: [{ index: call, function: { arguments: args } }] }));
    }
  }
  out.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  const completion = text.join('').length + calls.reduce((sum, c) => sum + c.arguments.join('').length, 0);
  const usage = { prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), completion_tokens: Math.ceil(completion / 4) };
  const total = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
  if (flavour === 'llamacpp') {
    out.push(
      sse({
        choices: [],
        created: CREATED,
        id,
        model: body.model,
        system_fingerprint: 'b6497-cd08fc3e',
        object: 'chat.completion.chunk',
        usage: total,
        timings: { prompt_n: usage.prompt_tokens, prompt_ms: 180.025, predicted_n: usage.completion_tokens, predicted_ms: 875.429 },
      }),
    );
  } else if (usageAsked) {
    out.push(sse({ id, object: 'chat.completion.chunk', created: CREATED, model: body.model, choices: [], usage: total }));
  }
  out.push('data: [DONE]\n\n');
  return out;
}

/** The flavour's way of failing inside a 200 stream. */
function errorFrame(flavour: Flavour, shape: StreamPlan['errorShape']): string {
  const message = 'the request exceeds the available context size, try increasing it';
  if (flavour === 'llamacpp') {
    const error = { code: 500, message, type: 'server_error' };
    return shape === 'wrapped' ? sse({ error }) : `error: ${JSON.stringify(error)}\n\n`;
  }
  const error = { object: 'error', message, type: 'InternalServerError', param: null, code: 500 };
  return shape === 'flat' ? sse(error) : sse({ error });
}

function stream(res: ServerResponse, flavour: Flavour, out: string[], plan: StreamPlan, later: (ms: number, fn: () => void) => void, written: () => void): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  const pace = plan.paceMs ?? 0;
  let held = false;
  /** Writes a frame, in slices when asked, then goes on. */
  const write = (frame: string, then: () => void): void => {
    const bytes = Buffer.from(frame, 'utf8');
    const size = plan.sliceBytes ?? bytes.length;
    // Each write goes on once its bytes are with the OS, so a cut after it cannot lose them.
    const slice = (at: number): void => {
      if (res.destroyed) return;
      const last = at + size >= bytes.length;
      res.write(bytes.subarray(at, at + size), () => (last ? then() : later(pace, () => slice(at + size))));
    };
    slice(0);
  };
  const step = (i: number): void => {
    if (res.destroyed) return;
    if (plan.stallAfter === i) return;
    if (plan.holdAfter === i && plan.until && !held) {
      held = true;
      plan.until().then(
        () => step(i),
        () => res.socket?.destroy(),
      );
      return;
    }
    if (plan.cutAfter === i) {
      if (plan.cut === 'end') res.end();
      else res.socket?.destroy();
      return;
    }
    if (plan.errorAfter === i) {
      res.write(errorFrame(flavour, plan.errorShape));
      res.end('data: [DONE]\n\n');
      return;
    }
    if (i === out.length) return void res.end();
    write(out[i], () => {
      if (i === out.length - 1) written();
      const wait = i === 0 && plan.firstTokenDelayMs ? plan.firstTokenDelayMs : pace;
      if (wait > 0) later(wait, () => step(i + 1));
      else step(i + 1);
    });
  };
  step(0);
}

const sse = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
