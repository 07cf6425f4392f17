// The chat-model port of the cascaded agent: a conversation so far (OpenAI's chat message shapes, which every
// OpenAI-compatible server speaks) and the tools on offer in; the reply out as it is written, text and tool calls.
// openai-compatible.ts serves any `POST /v1/chat/completions` with `stream: true`; scripted-chat-model.ts is the
// sandbox's scripted agent behind the same port.
import type { Logger } from 'pino';
import type { LineBrief } from '../conversation/conversation.js';

/** A JSON Schema object (a tool's parameters). */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface ToolCallRequest {
  /** The model's id for the call, echoed back in the tool's answer. */
  id: string;
  name: string;
  /** The arguments as the model wrote them: a JSON object in a string (possibly malformed). */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool as a chat-completions request offers it. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface ChatRequest {
  callId: string;
  /** The call's brief: the scripted model plays its script from it; a real model reads only the messages. */
  brief: LineBrief;
  messages: readonly ChatMessage[];
  tools: readonly ChatTool[];
  logger: Logger;
  /** Aborted when the callee cuts in or the call ends: the request is abandoned and the iterator ends. */
  signal: AbortSignal;
}

/** A piece of the reply, in order. */
export type ChatDelta =
  /** Text as the model writes it (any size, from a character to a paragraph). */
  | { type: 'text'; text: string }
  /** A whole tool call, yielded once its arguments are complete (streamed tool calls are assembled by the adapter). */
  | { type: 'tool_call'; call: ToolCallRequest };

export interface ChatModel {
  /** `openai-compatible`, `scripted`. */
  readonly name: string;
  /**
   * Streams one reply. Throws a ProviderError (provider `chat`) when the server refuses, throttles, fails, drops or
   * stalls (no chunk within the adapter's bound); a server that ignores `tools` simply never yields a tool_call.
   */
  reply(request: ChatRequest): AsyncIterable<ChatDelta>;
}

/** The registry's tools as a chat-completions request offers them. */
export const chatTools = (offered: ReadonlyArray<{ name: string; description: string; parameters: JsonSchema }>): ChatTool[] =>
  offered.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
