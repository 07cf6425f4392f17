// What a realtime session does when the model fails mid-call, read from the server's events (OpenAI's Realtime
// server events and error codes): a response that ends `failed` or `incomplete`, and `error` events.
// - `retry`: the failure is passing (a rate limit, a server error, a reply cut at its token limit): the response
//   is asked for once more. A second failure in a row gives up.
// - `give_up`: it will not pass (the account's quota is spent, the reply was filtered, the key is refused): the
//   callee hears a short apology and the call ends `agent_unavailable`.
// - `ignore`: not a failure of the conversation (a cancelled response: the callee cut in; an error about one of
//   svc's own requests that changes nothing, such as a cancel with nothing to cancel).
type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export type FailureAction = 'retry' | 'give_up' | 'ignore';

/** Error codes and types that pass with time. */
const TRANSIENT = new Set(['rate_limit_exceeded', 'server_error', 'tokens', 'requests', 'service_unavailable', 'overloaded']);
/** Error codes and types that do not. */
const FATAL = new Set(['insufficient_quota', 'invalid_api_key', 'authentication_error', 'permission_error', 'billing_hard_limit_reached']);

function classify(type: string | null, code: string | null): FailureAction {
  if ((code && FATAL.has(code)) || (type && FATAL.has(type))) return 'give_up';
  if ((code && TRANSIENT.has(code)) || (type && TRANSIENT.has(type))) return 'retry';
  return 'ignore';
}

/** A response.done's status read as an action. */
export function responseDoneAction(response: unknown): FailureAction {
  const r = obj(response);
  const details = obj(r.status_details);
  if (r.status === 'failed') {
    const err = obj(details.error);
    const action = classify(str(err.type), str(err.code));
    // A failed response with an error not known to pass is retried once too: the call is worth one more try.
    return action === 'ignore' ? 'retry' : action;
  }
  if (r.status === 'incomplete') return details.reason === 'content_filter' ? 'give_up' : 'retry';
  return 'ignore';
}

/** An `error` event read as an action; the session expiring closes the socket, which is handled as a drop. */
export function errorEventAction(error: unknown): FailureAction {
  const err = obj(error);
  return classify(str(err.type), str(err.code));
}
