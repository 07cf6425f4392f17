// A local stand-in for an OpenAI-compatible chat-completions endpoint, written from the documented protocol:
// POST <base>/chat/completions with a JSON body, answered with a `chat.completion` object whose first choice
// carries the assistant's message. It records every request and answers from a queue the test fills.
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; `any` so a test reads deep into it and asserts the exact shape. */
  body: any;
}

/** How the fake answers one request. */
export type FakeReply =
  /** 200 with the assistant's message content (finish_reason stop), or a refusal. */
  | { content: string }
  | { refusal: string }
  /** An OpenAI-shaped error; the message echoes the bearer token, as real providers partly do. */
  | { status: number }
  /** Never answers. */
  | 'hang'
  /** Made from the request's body when it arrives (a reply that quotes the transcript it was sent). */
  | ((body: any) => { content: string });

export interface FakeChatCompletions {
  /** The API root to configure, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies, used in order; a request with none queued gets a 500 the test will notice. */
  reply(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

export interface FakeChatCompletionsOptions {
  /** The key GET /models wants as its bearer token; any is taken when unset. */
  apiKey?: string;
  /** The models GET /models lists. */
  models?: string[];
}

export async function startFakeChatCompletions(options: FakeChatCompletionsOptions = {}): Promise<FakeChatCompletions> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url === '/v1/models') {
        // As OpenAI answers a wrong key: 401, the key quoted but for its ends.
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (options.apiKey !== undefined && token !== options.apiKey) {
          return send(401, {
            error: {
              message: `Incorrect API key provided: ${token.slice(0, 3)}*****${token.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
              type: 'invalid_request_error',
              param: null,
              code: 'invalid_api_key',
            },
          });
        }
        return send(200, { object: 'list', data: (options.models ?? ['gpt-4o-mini']).map((id) => ({ id, object: 'model', created: 1_721_172_741, owned_by: 'system' })) });
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: 'Not found', type: 'invalid_request_error', param: null, code: null } });
      const body = JSON.parse(text);
      requests.push({ method: req.method, path: req.url, headers: req.headers, body });
      const queued = queue.shift() ?? { status: 500 };
      const reply = typeof queued === 'function' ? queued(body) : queued;
      if (reply === 'hang') return;
      if ('status' in reply) {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        return send(reply.status, { error: { message: `The server had an error processing your request (key ${token}).`, type: 'server_error', param: null, code: null } });
      }
      const content = 'content' in reply ? reply.content : null;
      const refusal = 'refusal' in reply ? reply.refusal : null;
      send(200, {
        id: `chatcmpl-fake${++served}`,
        object: 'chat.completion',
        created: 1_763_812_800 + served,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal }, logprobs: null, finish_reason: 'stop' }],
        usage: usage(text, content ?? refusal ?? ''),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Rough token counts (four characters a token), shaped as the API reports them. */
function usage(prompt: string, completion: string) {
  const prompt_tokens = Math.ceil(prompt.length / 4);
  const completion_tokens = Math.ceil(completion.length / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}
