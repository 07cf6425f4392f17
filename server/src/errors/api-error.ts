// The one error type of the API: a status, a token from openapi.yaml's ErrorToken, a message for people, any
// headers the response must carry (Retry-After, Allow, Content-Range), and any fields the body adds beside error
// and message (a batch's `errors`, a placement's `errors`). Any layer throws it (placement, limits,
// handlers), as Koa's HttpError is thrown; http/error-middleware.ts renders it, and only there.
import type { ErrorToken, RequestProblem } from '../generated/types.gen.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly token: ErrorToken,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly fields: Record<string, unknown> = {},
    /** The body already rendered as JSON (errorBody), by a thread that refused a batch naming thousands of calls. */
    readonly body?: Uint8Array,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The body of every error response: the token, the message, and the fields the error adds. */
export function errorBody(e: ApiError): Record<string, unknown> {
  return { error: e.token, message: e.message, ...e.fields };
}

/**
 * The 400 of a request with these problems (at least one): the first is its `error` and `message`, as when it was
 * the only one, and `errors` lists them all (placeCall and preflightCall).
 */
export function problemsError(problems: readonly RequestProblem[]): ApiError {
  const [first] = problems;
  return new ApiError(400, first.error, first.message, {}, { errors: problems });
}

/** A problem of a request from the ApiError a check threw, about the request's value at `field`. */
export const problemOf = (e: ApiError, field: string): RequestProblem => ({ error: e.token, message: e.message, field });

/** A call that is not this key's: missing, or another key's, answered alike (getCall, the recording, cancelCall). */
export function callNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No call ${id} for this API key.`);
}

/** A batch that is not this key's: missing, or another key's, answered alike. */
export function batchNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No batch ${id} for this API key.`);
}
