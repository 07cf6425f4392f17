// Fetch wrappers for the SDK tests: every real answer is checked against openapi.yaml, every request is
// recorded, and a test can put a scripted fault in front of any attempt.
import { expect } from 'chai';
import { SvcApiError } from '../../sdk/src/index.js';
import { assertContract } from '../support/contract.js';

/** Resolves with the SvcApiError the promise rejects with; fails the test when it resolves or rejects otherwise. */
export async function apiError(promise: Promise<unknown>): Promise<SvcApiError> {
  const error = await promise.then(
    () => expect.fail('expected the call to reject'),
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(SvcApiError);
  return error as SvcApiError;
}

export interface SentRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

/** What to do with attempt n (1-based): pass it on, or answer / fail in place of (or after) the server. */
export type Fault =
  | { kind: 'answer'; status: number; body: object; headers?: Record<string, string> } // the server never sees it
  | { kind: 'lose-answer'; status: number; body: object; headers?: Record<string, string> } // the server handled it; the client sees this instead
  | { kind: 'network-before' } // the connection fails before the server sees it
  | { kind: 'network-after' }; // the server handled it, then the connection broke

export interface RecordingFetch {
  fetch: typeof fetch;
  sent: SentRequest[];
}

export function recordingFetch(faults: Record<number, Fault> = {}): RecordingFetch {
  const sent: SentRequest[] = [];
  const jsonAnswer = (f: { status: number; body: object; headers?: Record<string, string> }) =>
    new Response(JSON.stringify(f.body), { status: f.status, headers: { 'content-type': 'application/json; charset=utf-8', ...f.headers } });
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = await request.clone().text();
    sent.push({ method: request.method, path: url.pathname + url.search, headers: new Headers(request.headers), body });
    const fault = faults[sent.length];
    if (fault?.kind === 'answer') return jsonAnswer(fault);
    if (fault?.kind === 'network-before') throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    const response = await fetch(request);
    const text = await response.clone().text();
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
    assertContract(request.method, url.pathname, response.status, response.headers, isJson ? text : '{}');
    if (fault?.kind === 'lose-answer') return jsonAnswer(fault);
    if (fault?.kind === 'network-after') throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
    return response;
  };
  return { fetch: wrapped as typeof fetch, sent };
}
