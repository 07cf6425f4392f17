// The LLM analyst: one chat-completions request to an OpenAI-compatible endpoint (OpenAI, or a local model
// server), answered through a JSON schema built from the call's fields. Plain fetch rather than the `openai`
// package: the package's current major needs Node 22 (the service runs on 20), and this is a single POST.
//
// A reply that fails (no answer in time, an HTTP error, output that is not the schema's JSON) is tried once
// more; a second failure still completes the call, with nulls for every field and a summary that says the
// analysis was unavailable, and the reason in Analysis.degraded for the engine's log. Never a throw.
import type { ExtractedValues } from '../generated/types.gen.js';
import { analysisMessages } from './analysis-prompt.js';
import { heardOptOut } from './opt-out.js';
import { analysisSchema, checkReply, type ParsedAnalysis } from './analysis-schema.js';
import type { Analysis, AnalysisInput, Analyst, EndReason, Evidence } from './analyst.js';
import { readTranscript } from './transcript-questions.js';
import { LLM_ATTEMPTS } from '../config.js';

export interface LlmAnalystOptions {
  /** The API root, e.g. `https://api.openai.com/v1`; requests go to `<baseUrl>/chat/completions`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Deadline of one request, answer body included. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** Why an attempt failed: the service gave no usable response, or the model's output broke the schema. */
type Failure = { kind: 'unavailable' | 'invalid'; reason: string };
type Attempt = { ok: true; analysis: ParsedAnalysis } | ({ ok: false } & Failure);

const ENDINGS: Record<EndReason, string> = {
  hung_up: 'The call was completed',
  max_duration: 'The call was cut short at the maximum call duration',
  minute_cap: "The call was cut short when the account's minute allowance ran out",
  canceled: 'The client ended the call early (canceled)',
  transferred: 'The agent transferred the call to a person',
  hold_timeout: 'The call was ended after waiting on hold for longer than its hold limit (hold.maxWaitSec)',
};

const UNAVAILABLE: Record<Failure['kind'], string> = {
  unavailable: 'the analysis service did not answer',
  invalid: "the analysis model's answer was not usable",
};

export class LlmAnalyst implements Analyst {
  readonly name = 'openai';
  // Private fields: the key stays out of anything that logs or serialises the analyst.
  readonly #apiKey: string;
  readonly #url: string;
  readonly #model: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: LlmAnalystOptions) {
    this.#apiKey = options.apiKey;
    this.#url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.#model = options.model;
    this.#timeoutMs = options.timeoutMs;
    this.#fetch = options.fetch ?? fetch;
  }

  async analyse(input: AnalysisInput): Promise<Analysis> {
    const { fields } = input.brief;
    const body = JSON.stringify({
      model: this.#model,
      messages: analysisMessages(input),
      response_format: { type: 'json_schema', json_schema: { name: 'call_analysis', strict: true, schema: analysisSchema(fields) } },
    });
    const failures: Failure[] = [];
    for (let i = 0; i < LLM_ATTEMPTS; i++) {
      const attempt = await this.attempt(body, input);
      if (attempt.ok) {
        const checked = withCheckedEvidence(attempt.analysis, readTranscript(input.transcript));
        const analysis = { ...checked, optOut: attempt.analysis.optOut || heardOptOut(input.transcript, input.brief.language) };
        // The model is told the client ended the call, or the hold ran out; the summary says so whatever the model wrote.
        return input.endReason === 'canceled' || input.endReason === 'hold_timeout' ? { ...analysis, summary: `${ENDINGS[input.endReason]}. ${analysis.summary}` } : analysis;
      }
      failures.push({ kind: attempt.kind, reason: attempt.reason });
    }
    return degraded(input, failures);
  }

  private async attempt(body: string, { brief }: AnalysisInput): Promise<Attempt> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let text: string;
    try {
      const res = await this.#fetch(this.#url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.#apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal,
      });
      // The error body is never read into the reason: providers echo (part of) the key in it.
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        return { ok: false, kind: 'unavailable', reason: `HTTP ${res.status}` };
      }
      text = await res.text();
    } catch (err) {
      if (signal.aborted) return { ok: false, kind: 'unavailable', reason: `no answer within ${this.#timeoutMs} ms` };
      return { ok: false, kind: 'unavailable', reason: `the request failed (${errorCode(err)})` };
    }
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      return { ok: false, kind: 'unavailable', reason: 'the response body was not JSON' };
    }
    const content = messageContent(payload);
    if (typeof content !== 'string') return { ok: false, kind: 'invalid', reason: content.problem };
    const check = checkReply(content, brief.fields);
    return check.ok ? { ok: true, analysis: check.analysis } : { ok: false, kind: 'invalid', reason: check.reason };
  }
}

/** The first choice's message content, or what is wrong with the response. */
function messageContent(payload: unknown): string | { problem: string } {
  const choice = (payload as { choices?: unknown[] } | null)?.choices?.[0] as { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown } | undefined;
  if (!choice?.message) return { problem: 'the response had no choices[0].message' };
  if (typeof choice.message.refusal === 'string' && choice.message.refusal) return { problem: 'the model refused to answer' };
  if (choice.finish_reason === 'length') return { problem: 'the reply was cut off at the token limit' };
  if (typeof choice.message.content !== 'string') return { problem: 'the message had no text content' };
  return choice.message.content;
}

/** A short, secret-free name for a network error: its code (ECONNREFUSED…) or its class. */
/**
 * Every value must come with a quote found, exactly, in the turn the model named; a value without one is dropped
 * (made null) rather than reported unchecked, so every value can be checked against what was said. A null value
 * has no evidence, whatever the model gave.
 */
function withCheckedEvidence(analysis: ParsedAnalysis, turns: readonly { text: string }[]): Omit<Analysis, 'optOut'> {
  if (analysis.extracted === null) return { summary: analysis.summary, extracted: null, evidence: null };
  const dropped: string[] = [];
  const extracted: ExtractedValues = {};
  const evidence: Record<string, Evidence | null> = {};
  for (const [name, value] of Object.entries(analysis.extracted)) {
    const claim = analysis.evidence?.[name] ?? null;
    const found = claim !== null && claim.quote.trim() !== '' && turns[claim.turn]?.text.includes(claim.quote) === true;
    if (value !== null && !found) dropped.push(name);
    Object.defineProperty(extracted, name, { value: found ? value : null, enumerable: true, writable: true, configurable: true });
    Object.defineProperty(evidence, name, { value: value !== null && found ? claim : null, enumerable: true, writable: true, configurable: true });
  }
  return { summary: analysis.summary, extracted, evidence, ...(dropped.length > 0 ? { dropped } : {}) };
}

function errorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return err instanceof Error ? err.name : 'unknown error';
}

function degraded({ brief, endReason, transcript }: AnalysisInput, failures: readonly Failure[]): Analysis {
  const objective = brief.objective
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/u, '');
  const last = failures[failures.length - 1];
  const nothing = brief.fields.length > 0 ? 'no summary was written and no fields were extracted' : 'no summary was written';
  const extracted: ExtractedValues | null = brief.fields.length > 0 ? Object.fromEntries(brief.fields.map((f) => [f.name, null])) : null;
  return {
    summary: `Objective: ${objective}. ${ENDINGS[endReason]}, but ${UNAVAILABLE[last.kind]}, so ${nothing}.`,
    extracted,
    evidence: extracted && Object.fromEntries(brief.fields.map((f) => [f.name, null])),
    // With the model out of reach, the opt-out still rests on the callee's words.
    optOut: heardOptOut(transcript, brief.language),
    degraded: failures.map((f, i) => `attempt ${i + 1}: ${f.reason}`).join('; '),
  };
}
