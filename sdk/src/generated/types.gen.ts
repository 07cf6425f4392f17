// DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.

export type ClientOptions = {
    baseUrl: 'http://localhost:8080' | (string & {});
};

export type Webhooks = CallInProgressEventWebhookRequest | CallCompletedEventWebhookRequest | CallNoAnswerEventWebhookRequest | CallVoicemailEventWebhookRequest | CallDeclinedEventWebhookRequest | CallFailedEventWebhookRequest | CallCanceledEventWebhookRequest | BatchCompletedEventWebhookRequest | BatchCanceledEventWebhookRequest | BatchStoppedEventWebhookRequest;

/**
 * The status of a call. The set may grow; clients must tolerate unknown values.
 */
export type CallStatus = 'queued' | 'dialing' | 'in_progress' | 'completed' | 'no_answer' | 'voicemail' | 'declined' | 'failed' | 'canceled';

export type LanguageSource = 'explicit' | 'inferred' | 'auto';

/**
 * A machine-readable error token. The set may grow; clients must tolerate unknown values.
 */
export type ErrorToken = 'to_required' | 'objective_required' | 'invalid_number' | 'invalid_objective' | 'invalid_context' | 'invalid_fields' | 'invalid_caller_id' | 'invalid_webhook_url' | 'invalid_metadata' | 'invalid_voicemail' | 'invalid_start_at' | 'invalid_redial' | 'invalid_calling_window' | 'invalid_machine_detection' | 'invalid_on_behalf_of' | 'invalid_recording_notice' | 'invalid_send_digits' | 'invalid_tools' | 'invalid_transfer' | 'invalid_hold' | 'invalid_batch' | 'invalid_calls' | 'invalid_defaults' | 'invalid_max_concurrency' | 'invalid_stop_when' | 'destination_opted_out' | 'invalid_reason' | 'invalid_after' | 'invalid_state' | 'invalid_voice' | 'invalid_language' | 'unknown_field' | 'destination_blocked' | 'caller_id_not_owned' | 'invalid_idempotency_key' | 'invalid_json' | 'invalid_body' | 'invalid_limit' | 'invalid_batch_id' | 'invalid_cursor' | 'invalid_status' | 'invalid_answered_by' | 'invalid_period' | 'invalid_query' | 'invalid_channels' | 'malformed_request' | 'unauthorized' | 'not_found' | 'method_not_allowed' | 'request_timeout' | 'idempotency_key_in_use' | 'call_already_ended' | 'batch_already_ended' | 'redelivery_pending' | 'destination_refused' | 'no_webhook_url' | 'payload_too_large' | 'unsupported_media_type' | 'range_not_satisfiable' | 'idempotency_key_reused' | 'rate_limited' | 'too_many_streams' | 'over_minute_cap' | 'headers_too_large' | 'internal_error' | 'placement_failed' | 'store_error' | 'recording_unavailable';

/**
 * One problem of a request, as the error's `error` and `message` would name it alone.
 */
export type RequestProblem = {
    error: ErrorToken;
    message: string;
    /**
     * The request's value the problem is about, as a dotted path from the body, as messages name it (`to`,
     * `transfer.to`, `fields.1.name`, an unknown field's own name); empty for the body as a whole.
     *
     */
    field: string;
};

/**
 * Every error response has this shape.
 */
export type ApiError = {
    error: ErrorToken;
    /**
     * Human-readable explanation. Never carries secrets or internals.
     */
    message?: string;
};

/**
 * Extracted values keyed by field name. A field not found in the conversation is null.
 */
export type ExtractedValues = {
    [key: string]: string | boolean | number | null;
};

export type FieldDefinition = {
    /**
     * Key of the field in `extracted`. A letter or underscore, then letters, digits or underscores; at most 64 characters; unique within the request.
     */
    name: string;
    type?: 'string' | 'boolean' | 'number';
    /**
     * Meaning of the field; guides extraction.
     */
    description?: string;
};

/**
 * Every string (and every key) must be well-formed Unicode without U+0000 (NUL); a string holding U+0000 or a lone surrogate such as `�` gives 400 with its property's token.
 */
export type PlaceCallRequest = {
    /**
     * Destination in E.164 format, for example `+14155550123`; must be a valid number for its country.
     */
    to: string;
    /**
     * What the AI should accomplish; a clear plain-text goal. At most 4000 characters.
     */
    objective: string;
    /**
     * Background for the AI; not shared with the recipient. At most 10000 characters.
     */
    context?: string | null;
    /**
     * Up to 20 fields to extract from the transcript after the call. Names must be unique.
     */
    fields?: Array<FieldDefinition> | null;
    /**
     * Absolute HTTPS URL with a public host and no credentials, receiving signed events. (Plain http and loopback hosts are accepted only when the service runs with SVC_WEBHOOK_ALLOW_PRIVATE=1, for local development.)
     */
    webhookUrl?: string | null;
    /**
     * Caller ID override in E.164; must be a number on the account. Default, the key's caller id, then the account's.
     */
    callerId?: string | null;
    /**
     * Voice name the AI uses. Default, the key's voice, then the platform default (`alloy`). Must be a voice of the configured agent, matched case-insensitively; the agents offer `alloy`, `ash`, `ballad`, `coral`, `echo`, `sage`, `shimmer`, `verse`, `marin` and `cedar` (OpenAI's realtime voices; `marin` and `cedar` sound best on the GA model).
     */
    voice?: string | null;
    /**
     * A BCP-47 code (canonicalised, `en-us` becomes `en-US`), or `auto` to mirror whoever answers. When omitted, inferred from objective and context, falling back to `auto`.
     */
    language?: string | null;
    /**
     * Your own key-value pairs for this call (an order id, a campaign), returned unchanged on the call record, in list items and in every webhook event. At most 50 keys of 1 to 40 characters; each value a string of at most 500 characters. Never sent to the carrier, the voice model or the analyst.
     */
    metadata?: {
        [key: string]: string;
    } | null;
    /**
     * What to do when an answering machine picks up. `hangup` (the default, as in v1): hang up at once. `leave_message`:
     * wait for the greeting to end (the beep), speak `message` in the call's language and voice, then hang up.
     * Either way the call ends `voicemail`; with a message left its record says `voicemailLeft: true`, its turns and
     * recording hold the message, and the time connected to the machine is billed.
     *
     */
    voicemail?: VoicemailHangup | VoicemailLeaveMessage | null;
    /**
     * When to dial, as an ISO 8601 date-time with its offset, at most 30 days ahead; a time already past means now. The call stays `queued` until then (it can be canceled meanwhile, and holds its reserved minute of the plan), and its record shows `scheduledAt`.
     */
    startAt?: string | null;
    /**
     * Try again when nobody takes the call (see RedialPolicy).
     */
    redial?: RedialPolicy | null;
    /**
     * The hours, in the callee's own time, in which the call may be dialled; without it, the key's default window
     * (if it has one) applies, and with neither the call is dialled whenever it is due. Without `timeZone` the
     * window is read in the zones Google's libphonenumber places the number in (by its prefix); for a number
     * spanning several zones (a US toll-free number, parts of Idaho, Western Australia's 08) it is the time the
     * window is open in all of them. The call is dialled only inside the window, checked again just before each
     * dial: outside it, it waits `queued` for the next opening (its `scheduledAt`), and so does a redial. The
     * window bounds when the call is dialled; a call dialled just before the end may run past it (at most the
     * maximum call duration).
     *
     */
    callingWindow?: CallingWindow;
    /**
     * Whether the carrier listens for an answering machine when the call is picked up (`on`, the default, or the
     * key's default when it has one). A machine is hung up on (or left the `voicemail` message) only once it is
     * confirmed: the greeting ended in a beep or silence, or the agent heard a voicemail greeting; a callee who
     * answers the agent is a person whatever the detection guessed. `off`: no detection is asked for, whoever
     * picks up is taken to have answered (`answeredBy: unknown`), and the agent talks to them, for programmes
     * that never meet machines. With `off`, `voicemail` has nothing to act on.
     *
     */
    machineDetection?: 'on' | 'off';
    /**
     * Whom the agent calls for, as it says so to the callee ("I'm calling on behalf of Tony's Pizzeria"), 1 to 200
     * characters. Default, the key's (set with `svc keys update --on-behalf-of`); with neither, the agent says it
     * calls on behalf of a customer. Told to the voice model, never to the carrier.
     *
     */
    onBehalfOf?: string | null;
    /**
     * Whether the agent tells the callee, as it introduces itself, that the call is recorded (every call is).
     * Default, the key's setting (`svc keys update --recording-notice off`), else `true`. Turn it off only where
     * the law allows a recorded call without telling the person called.
     *
     */
    recordingNotice?: boolean | null;
    /**
     * Keys to press as soon as the call is answered, to reach a known extension or get past a menu whose keys
     * you know (`1234#`, `ww2`): `0`-`9`, `*` and `#`, with `w` for a half-second pause and `W` for a whole
     * second; 1 to 32 characters. On Twilio they are its `SendDigits` on the dial; the sandbox accepts and
     * records them without pressing them (its menus are the agent's to answer). Kept on the call record. A
     * menu whose choices must be heard first is the agent's to answer: it presses keys itself as the call goes.
     *
     */
    sendDigits?: string | null;
    /**
     * Up to 10 of your own tools the agent may use during the call, beside svc's own (hanging up, the
     * opt-out, …): each is offered to the voice model by its name, description and parameters, and when the
     * model calls one, svc POSTs a ToolRequest to its `url`, signed as webhooks are (`X-SVC-Signature` with the
     * key's webhook secret), and gives the model your JSON answer as the function's output. An answer that is
     * not a 2xx, not JSON, larger than 16 KiB or later than `timeoutMs` is given to the model as
     * `{ "error": <why> }`, and the call goes on. Every use is on the record (`toolCalls`). Names must differ
     * and must not be one of svc's own tools' names.
     *
     */
    tools?: Array<ClientTool> | null;
    /**
     * Lets the agent hand the call over to a person at another number, when the condition `when` is met: the
     * agent says it is transferring and leaves the call. `cold`: the carrier connects the callee to `to` at once.
     * `warm`: the agent first calls `to` while the callee holds, the person who answers hears a briefing the agent
     * wrote (who is on the line, why, what was learnt) and presses 1 to take the call; the agent then tells the
     * callee it is connecting them, joins the two and leaves. Nobody taking it (no answer, declined, failed): the
     * agent tells the callee and carries on, or ends the call politely. `to` passes the same guardrails as the
     * number called (countries, premium rate and IRSF, the do-not-call list) and is dialled from the call's
     * caller id. A transferred call ends `completed` when the agent leaves; its record says to whom and when
     * (`transferredTo`, `transferredAt`), and `durationSec`, the recording and billing end there.
     *
     */
    transfer?: Transfer | null;
    /**
     * How long the agent waits when it is put on hold (see HoldPolicy); without it, 600 s.
     */
    hold?: HoldPolicy | null;
};

/**
 * Waiting on hold. When the agent hears it is put on hold ("please hold", hold music, a recorded "your call is
 * important to us"), it says nothing and its speech model is not driven (no tokens, and for a speech-to-speech
 * model no audio sent: svc's own voice activity detection watches the line) until someone speaks; a person is
 * answered where the conversation was, a recording is waited through. A hold that lasts longer than
 * `maxWaitSec` ends the call: `completed`, `endReason` `hold_timeout`, the summary saying so. The call's
 * maximum duration still applies and ends a longer hold first (`endReason` `max_duration`). The record's
 * `holdSec` is the time spent on hold.
 *
 */
export type HoldPolicy = {
    /**
     * The longest the agent waits on hold at a time, in seconds of call time (600 when `hold` is absent).
     */
    maxWaitSec: number;
};

/**
 * A tool of yours the agent may call during the call (see `tools`).
 */
export type ClientTool = {
    /**
     * The function's name as the model sees it, 1 to 64 letters, digits, `_` or `-`; not one of svc's own tools (`end_call`, `record_opt_out`, `voicemail_detected`, `press_keys`, `wait_on_hold`, `keep_listening`, `transfer_call`).
     */
    name: string;
    /**
     * What the tool does and when to use it, for the model; 1 to 1024 characters.
     */
    description: string;
    /**
     * The function's parameters as a JSON Schema (2020-12) of type object, at most 8 KiB as JSON; it must compile. Without it the tool takes no arguments.
     */
    parameters?: {
        type: 'object';
    };
    /**
     * Where the ToolRequest is POSTed; the same rules as `webhookUrl` (https, a public host, no credentials; checked again, with the same address rule, at each request). Never shown back.
     */
    url: string;
    /**
     * How long svc waits for the whole answer, from 100 to 20000 ms; 5000 when absent.
     */
    timeoutMs?: number;
};

/**
 * A transfer to a person the agent may make during the call (see `transfer`).
 */
export type Transfer = {
    /**
     * The person's number in E.164, dialled from the call's caller id; not the number called.
     */
    to: string;
    /**
     * `cold`: the callee is connected to `to` at once. `warm`: the agent calls `to` first and briefs the person, who takes the call before the callee is joined to them.
     */
    mode?: 'cold' | 'warm';
    /**
     * When the agent transfers, in words, as the agent is told it (`the callee agrees to the offer`). Default, when the callee asks to speak to a person.
     */
    when?: string;
};

/**
 * One of the tools a call was placed with, as the record shows it (its `url` is never shown back).
 */
export type CallTool = {
    name: string;
    description: string;
    /**
     * The JSON Schema the model was offered (`{ "type": "object", "properties": {} }` for a tool placed without).
     */
    parameters: {
        [key: string]: unknown;
    };
    timeoutMs: number;
};

/**
 * One use of a client tool by the agent during the call.
 */
export type ToolCall = {
    /**
     * The tool's name.
     */
    name: string;
    /**
     * The arguments the model called it with (`{}` when what it wrote was not a JSON object).
     */
    arguments: {
        [key: string]: unknown;
    };
    /**
     * `ok`: a 2xx with a JSON answer of at most 16 KiB; `timeout`: no whole answer within the tool's `timeoutMs`; `failed`: anything else (another status, no connection, an answer that is not JSON or is too large, a URL the address rule refuses, the call ending first). The set may grow.
     */
    status: 'ok' | 'failed' | 'timeout';
    /**
     * From the model's call to the answer (or the failure), in ms.
     */
    latencyMs: number;
    /**
     * Why it failed, as the model was told it; null when `ok`. Never names the URL.
     */
    error: string | null;
    /**
     * When the model called it.
     */
    at: string;
};

/**
 * The body svc POSTs to a client tool's `url` when the model calls it, with `Content-Type: application/json`,
 * `User-Agent: svc-tools/1.0` and `X-SVC-Signature` computed exactly as for webhooks (the SDK's verifyWebhook
 * and verifyToolRequest accept it). Answer with a 2xx and a JSON body of at most 16 KiB: an object is given to
 * the model as it is, any other JSON value as `{ "result": <value> }`. Redirects are not followed, and a
 * request is never retried.
 *
 */
export type ToolRequest = {
    event: 'tool.call';
    callId: string;
    /**
     * The tool's name.
     */
    tool: string;
    /**
     * The arguments the model called it with (`{}` when what it wrote was not a JSON object).
     */
    arguments: {
        [key: string]: unknown;
    };
    metadata: CallMetadata | null;
};

export type CallingWindow = {
    /**
     * When the window opens each day, local time, 24-hour `HH:MM`.
     */
    start: string;
    /**
     * When it closes, local time, later than `start` on the same day (`24:00` is midnight); a call is dialled before this minute.
     */
    end: string;
    /**
     * The local days on which it opens; every day when absent.
     */
    days?: Array<Weekday>;
    /**
     * An IANA time zone name (`America/New_York`) to read the window in, instead of the number's own zones.
     */
    timeZone?: string;
};

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export type VoicemailHangup = {
    action: 'hangup';
};

export type VoicemailLeaveMessage = {
    action: 'leave_message';
    /**
     * What to say after the beep, at most 1000 characters.
     */
    message: string;
};

export type PlaceCallResponse = {
    /**
     * A UUIDv7, so call ids sort by the time the call was placed.
     */
    callId: string;
    status: 'queued';
    /**
     * The resolved BCP-47 code.
     */
    language: string;
    languageSource: LanguageSource;
    /**
     * The voice the call will use.
     */
    voice?: string | null;
    /**
     * When the call is to be dialled, for a call placed with `startAt` or under a calling window (`startAt`, or the placement's time when it was past or absent, moved to the window's next opening); absent for a call dialled at once.
     */
    scheduledAt?: string | null;
};

/**
 * What placing this call now would do.
 */
export type PreflightResponse = {
    /**
     * The destination as it would be dialled.
     */
    number: {
        /**
         * The number, E.164.
         */
        e164: string;
        /**
         * The number's country, ISO 3166-1 alpha-2 (by the number's region, so +1 876 is JM).
         */
        country: string;
        type: NumberType;
    };
    /**
     * The number the call would be placed from (the request's, else the key's default, else the account's).
     */
    callerId: string;
    voice: string;
    /**
     * The resolved BCP-47 code.
     */
    language: string;
    languageSource: LanguageSource;
    /**
     * When the call would be dialled, as placeCall would schedule it (under a calling window, its next opening, which is now when it is open); null for at once.
     */
    scheduledAt?: string | null;
    /**
     * The calling window that would apply (the request's, else the key's default), its days in full; null for none.
     */
    callingWindow?: CallingWindow | null;
    /**
     * The zone the calling window would be read in, when it is one zone (the window's `timeZone`, or the number's); null without a window or for a number spanning several zones.
     */
    timeZone?: string | null;
    /**
     * Every zone the calling window would be read in (open in all of them at once); null without a window.
     */
    timeZones?: Array<string> | null;
    /**
     * Minutes of the account's plan left this billing period (the plan less the minutes used and those reserved by calls in flight). Placing the call reserves one of them until it ends.
     */
    minutesRemaining: number;
};

/**
 * The kind of number, by libphonenumber's full metadata. The set may grow; clients must tolerate unknown values.
 */
export type NumberType = 'fixed_line' | 'mobile' | 'fixed_line_or_mobile' | 'toll_free' | 'voip' | 'personal_number' | 'pager' | 'uan' | 'voicemail' | 'unknown';

export type DoNotCallRequest = {
    /**
     * The number never to call, E.164; must be a valid number for its country.
     */
    number: string;
    /**
     * Why, for your own records.
     */
    reason?: string | null;
};

/**
 * Try again when nobody takes the call: up to `onNoAnswer` more calls after a `no_answer` (or a `failed` call
 * whose error is transient: `carrier_unreachable`, `carrier_timeout`) and up to `onVoicemail` after a
 * `voicemail`, each `afterMinutes` after the previous call ended. A `declined` call is never redialled, nor
 * a canceled one, nor one whose number is on the do-not-call list. A redial is a new call with its own id,
 * record and events, created `queued` (with `scheduledAt`) in the moment the previous call ends and linked
 * both ways (`previousCallId`, `nextCallId`), so it can be canceled before it dials. It does not spend the
 * rate-limit window; when it dials, the plan's minutes must not be used up (else it ends `canceled` with error
 * `over_minute_cap`, undialled).
 *
 */
export type RedialPolicy = {
    onNoAnswer?: number;
    onVoicemail?: number;
    afterMinutes: number;
};

export type CreateBatchRequest = {
    /**
     * The calls, each a placeCall body (without `startAt`); `defaults` fills in what a call leaves out.
     */
    calls: Array<{
        [key: string]: unknown;
    }>;
    /**
     * Fields every call takes unless it gives its own (any placeCall field but `startAt`).
     */
    defaults?: {
        [key: string]: unknown;
    };
    /**
     * At most this many of the batch's calls live (queued, dialing or in progress) at once.
     */
    maxConcurrency?: number;
    /**
     * When the batch starts, as placeCall's `startAt` (at most 30 days ahead; past means now); at once when absent.
     */
    startAt?: string;
    /**
     * A calling window for every call that gives none of its own (see placeCall).
     */
    callingWindow?: CallingWindow;
    /**
     * A redial policy for every call that gives none of its own (see placeCall). A redial belongs to the batch.
     */
    redial?: RedialPolicy;
    /**
     * The batch's own pairs, returned on the batch. They are not given to its calls; `defaults.metadata` is.
     */
    metadata?: CallMetadata;
    /**
     * Where the batch's own events go (its calls' events go to each call's `webhookUrl`).
     */
    webhookUrl?: string;
    stopWhen?: StopWhen;
};

export type CreateBatchResponse = {
    batchId: string;
    status: 'queued';
    /**
     * How many calls the batch holds.
     */
    total: number;
    /**
     * When the batch starts, for one created with `startAt`.
     */
    scheduledAt?: string | null;
};

export type InvalidBatchError = ApiError & {
    error?: 'invalid_batch' | 'invalid_calls' | 'invalid_defaults' | 'invalid_max_concurrency' | 'invalid_start_at' | 'invalid_calling_window' | 'invalid_redial' | 'invalid_metadata' | 'invalid_webhook_url' | 'invalid_stop_when' | 'unknown_field' | 'invalid_idempotency_key' | 'invalid_json' | 'invalid_body';
    /**
     * With `invalid_batch`, every bad call, by index.
     */
    errors?: Array<BatchItemError>;
};

/**
 * Stop the batch once `count` of its calls have completed with `extracted[field]` equal to `equals` (every call
 * must request `field`). The batch then ends `stopped` (`stopReason` `condition_met`) as a cancel would: calls
 * live at that moment finish, and none is dialled after it. Counted exactly, as each call completes.
 *
 */
export type StopWhen = {
    field: string;
    equals: string | number | boolean;
    count: number;
};

export type BatchPreflightResponse = {
    /**
     * Whether createBatch would create the batch now.
     */
    valid: boolean;
    /**
     * How many calls the batch holds.
     */
    total: number;
    /**
     * Every bad call, by index, as createBatch's 400 `invalid_batch` would name it; empty when valid.
     */
    errors: Array<BatchItemError>;
};

export type BatchItemError = {
    /**
     * The call's position in `calls`, from 0.
     */
    index: number;
    error: ErrorToken;
    message: string;
};

/**
 * `queued` until it starts; `running`; `paused` when the plan's minutes are used up (it goes on when they are
 * available); then `completed` (every call ended), `canceled` (cancelBatch) or `stopped` (its `stopWhen` was
 * met). The set may grow; clients must tolerate unknown values.
 *
 */
export type BatchStatus = 'queued' | 'running' | 'paused' | 'completed' | 'canceled' | 'stopped';

export type Batch = {
    id: string;
    status: BatchStatus;
    total: number;
    maxConcurrency?: number;
    /**
     * The batch's calls by status; `queued` includes the calls not yet released.
     */
    counts: {
        queued: number;
        dialing: number;
        in_progress: number;
        completed: number;
        no_answer: number;
        voicemail: number;
        declined: number;
        failed: number;
        canceled: number;
    };
    /**
     * Why the batch is paused (`over_minute_cap`) or stopped (`condition_met`); null otherwise. The set may grow.
     */
    stopReason?: string | null;
    stopWhen?: StopWhen | null;
    /**
     * How many of its completed calls met `stopWhen` (0 without one).
     */
    matched?: number;
    metadata?: CallMetadata | null;
    scheduledAt?: string | null;
    createdAt?: string;
    startedAt?: string | null;
    endedAt?: string | null;
};

export type BatchList = {
    batches: Array<Batch>;
};

/**
 * Where a batch's row stands: `waiting` until the batch releases it; `released` once its call is made;
 * `canceled` when the batch was canceled before releasing it; `skipped` when the batch stopped (its `stopWhen`
 * was met) before releasing it. The set may grow; clients must tolerate unknown values.
 *
 */
export type BatchRowState = 'waiting' | 'released' | 'canceled' | 'skipped';

/**
 * One call of a batch's request, from the batch's creation on.
 */
export type BatchRow = {
    /**
     * The row's position in the request's `calls`, from 0 (as `errors` names a bad call).
     */
    index: number;
    /**
     * The number the row calls, E.164.
     */
    to: string;
    /**
     * The metadata its call is placed with (its own, or the batch's `defaults.metadata`); null for none.
     */
    metadata: CallMetadata | null;
    state: BatchRowState;
    /**
     * Why a row ended unreleased, `batch_canceled` (canceled) or the batch's `stopReason` (skipped); null for a row waiting or released. The set may grow.
     */
    reason: string | null;
    /**
     * The call the row was released as (its record is getCall's); null until it is released.
     */
    callId: string | null;
    /**
     * The row's calls, each with its status as it stands, in the order they were made: the call it was released as, then each redial of it. Empty until it is released.
     */
    calls: Array<{
        id: string;
        status: CallStatus;
    }>;
};

export type BatchRowList = {
    rows: Array<BatchRow>;
    /**
     * Pass as `after` for the next page; null on the last page.
     */
    nextAfter: number | null;
};

export type DoNotCallEntry = {
    number: string;
    reason: string | null;
    /**
     * How it came on the list (`call`, the callee asked in a call not to be called again). The set may grow.
     */
    source: 'api' | 'cli' | 'call';
    addedAt: string;
    /**
     * For source `call`, the call in which the callee asked; null otherwise.
     */
    callId?: string | null;
};

export type DoNotCallList = {
    numbers: Array<DoNotCallEntry>;
    /**
     * Pass as `after` for the next page; null on the last page.
     */
    nextAfter: string | null;
};

export type CallRecord = {
    id: string;
    status: CallStatus;
    /**
     * Destination number, E.164.
     */
    to?: string | null;
    objective?: string | null;
    voice?: string | null;
    /**
     * Language spoken, BCP-47.
     */
    language?: string | null;
    languageSource?: LanguageSource | null;
    /**
     * Plain-English summary; set on completed.
     */
    summary?: string | null;
    /**
     * The whole conversation, one turn per line, `Speaker: text`.
     */
    transcript?: string | null;
    /**
     * The conversation turn by turn, in spoken order, each with its time in seconds from the answer, aligned with the recording (second 0 of the recording is the answer). Null until a call that was answered has ended, and for a call never answered; an answered call in which nothing was said has an empty list. A turn cut by the end of the call ends at the call's end.
     */
    turns?: Array<Turn> | null;
    extracted?: ExtractedValues | null;
    /**
     * For each requested field, where its value was said: `turn`, the index of the turn in `turns` (and of the
     * line in `transcript`), and `quote`, words copied exactly from that turn; null for a field whose value is
     * null. A value the analyst could not point to in what was said is not reported (it is null). Null when no
     * fields were requested or the call did not complete.
     *
     */
    evidence?: {
        [key: string]: Evidence | null;
    } | null;
    /**
     * Authenticated URL of the recording, `{base_url}/v1/agent/calls/<callId>/recording`; null when the call has no recording.
     */
    recordingUrl?: string | null;
    /**
     * When the call was answered.
     */
    startedAt?: string | null;
    endedAt?: string | null;
    /**
     * Seconds connected, from answer to end, in call time (in the sandbox it does not shrink with SVC_SANDBOX_TIME_SCALE, and equals the recording's length); 0 for a call that was never answered. Billing rounds it up to whole minutes per call.
     */
    durationSec?: number | null;
    /**
     * Error token on failed calls, null otherwise. The set may grow; clients must tolerate unknown values.
     * `carrier_unreachable` the network could not reach the number; `carrier_rejected` the carrier refused to
     * place the call; `dial_failed` the carrier's API failed while dialling (whether it dialled is unknown, so the
     * call is not retried); `engine_interrupted` the service stopped between dialling and recording the carrier's
     * reference (the call is never dialled twice); `carrier_timeout` the carrier stopped reporting and the
     * watchdog ended the call; `carrier_throttled` the carrier kept refusing the dial as too many requests
     * (Twilio's 429) for as long as the watchdog waits, and nothing was dialled (safe to place again);
     * `call_dropped` the line dropped after the answer (the transcript and recording of what was said are kept);
     * `agent_unavailable` the AI agent's speech model could not be reached, refused the session or stopped
     * answering, and could not be brought back: the callee heard a short apology and the call was hung up (the
     * transcript of what was said before is kept, the summary says so, no fields are extracted);
     * `engine_error` the service could not step the call (its steps kept failing), so it ended it rather than
     * leave it live; what was said, if anything, is kept. On a `canceled` call, undialled:
     * `destination_opted_out` the number was on the do-not-call list when it was due; `over_minute_cap` a
     * redial found the plan's minutes used up; `outside_calling_window` its calling window no longer opens
     * in all of the number's zones within a week (a DST change can do this to a narrow window across zones).
     *
     */
    error?: string | null;
    /**
     * Who picked the line up; null when nobody did (no answer, declined, failed before the answer, or not yet answered).
     */
    answeredBy?: AnsweredBy | null;
    /**
     * When the call was scheduled to be dialled (`startAt`, or the placement's time when that was past, moved to the calling window's next opening; the engine moves it again when the window has shut by its turn); null for a call placed to be dialled at once.
     */
    scheduledAt?: string | null;
    /**
     * The calling window the call is dialled in (the placement's, else its key's default when placed), its days in full; null for none.
     */
    callingWindow?: CallingWindow | null;
    /**
     * The zone the calling window is read in, when it is one zone (the window's `timeZone`, or the number's); null without a window or for a number spanning several zones (see `timeZones`).
     */
    timeZone?: string | null;
    /**
     * Every zone the calling window is read in; it is open when it is open in all of them. Null without a window.
     */
    timeZones?: Array<string> | null;
    /**
     * For a redial, the call it follows; null otherwise.
     */
    previousCallId?: string | null;
    /**
     * The redial that follows this call, created when it ended; null when none was (or is yet).
     */
    nextCallId?: string | null;
    /**
     * True when the call reached an answering machine and left the placement's voicemail message after the beep; false otherwise.
     */
    voicemailLeft?: boolean;
    /**
     * The keys the call was placed to press once answered (the placement's `sendDigits`); null when none.
     */
    sendDigits?: string | null;
    /**
     * The hold policy the call was placed with (`hold`); null when none was given (the agent waits up to 600 s).
     */
    hold?: HoldPolicy | null;
    /**
     * Seconds the call spent on hold (from the agent starting to wait to someone speaking, or to the end), in call time; 0 for an answered call never put on hold; null until an answered call has ended, and for a call never answered.
     */
    holdSec?: number | null;
    /**
     * Why the conversation of a `completed` call ended; null for every other status and until the call has
     * ended. The set may grow; clients must tolerate unknown values. `hung_up` the agent or the callee hung
     * up; `max_duration` the call reached the service's maximum call duration; `minute_cap` the account's
     * minute allowance ran out; `canceled` the client canceled the call while it was live; `transferred` the
     * agent handed the call over to a person and left (see `transfer`); `hold_timeout` the agent waited on hold
     * longer than the call's `hold.maxWaitSec` and hung up.
     *
     */
    endReason?: string | null;
    /**
     * The batch the call belongs to (see createBatch); null for a call placed on its own.
     */
    batchId?: string | null;
    /**
     * True when the callee asked in the call not to be called again. The agent acknowledges and ends the call, and
     * in the transaction that ends it the number goes on the account's do-not-call list (reason `callee_request`,
     * source `call`, with this call's id), so no later call or redial to it is dialled. False otherwise.
     *
     */
    optOut?: boolean;
    metadata?: CallMetadata | null;
    /**
     * How quickly the live agent answered on the line, measured by svc where it sees the line and the model; null for a call no live agent spoke on (never answered, a sandbox call, a scripted agent), and until the agent's session on the line has ended.
     */
    latency?: CallLatency | null;
    /**
     * The client tools the call was placed with (`tools`), without their URLs; null for none.
     */
    tools?: Array<CallTool> | null;
    /**
     * Each use of a client tool by the agent, in the order the model called them (the first 100 of a call), written as each is answered, and each also sent on the live streams as a `tool_call` event; empty when none was used. svc's own tools (hanging up, the opt-out) are not listed.
     */
    toolCalls?: Array<ToolCall>;
    /**
     * The transfer the call was placed with (`transfer`), its defaults filled in; null for none.
     */
    transfer?: Transfer | null;
    /**
     * The number the agent handed the call over to, once it did (the call then ended `completed` when the agent left); null otherwise.
     */
    transferredTo?: string | null;
    /**
     * When the agent handed the call over and left it (the call's `endedAt`); null when it did not.
     */
    transferredAt?: string | null;
    /**
     * When the call was placed (accepted by placeCall, or released by its batch, or created as a redial).
     */
    createdAt?: string;
    /**
     * The number the call is made from, E.164 (the request's `callerId`, else the key's, else the account's).
     */
    callerId?: string;
    /**
     * Whole minutes billed for the call, its connected time rounded up (0 for a call never connected), set when it ends; null before.
     */
    billedMinutes?: number | null;
};

/**
 * How quickly a live agent answered, in milliseconds of call time: positions on the callee's audio stream from
 * the answer (the moment the carrier's media stream started), the clock the model's `audio_start_ms` and
 * `audio_end_ms` are read on. Each is measured where svc sees it: the agent's audio as svc sends it to the
 * line, the callee's speech as the model reports it. The time includes the model's own (its time to first
 * audio) and the network's.
 *
 */
export type CallLatency = {
    /**
     * From the answer to the agent's first audio sent to the line; null when the agent never spoke.
     */
    firstAudioMs: number | null;
    /**
     * Each agent turn that answered the callee, in order (the first 1,000 of a call).
     */
    turns: Array<TurnLatency>;
    /**
     * The median of the turns' `afterMs` (nearest rank); null without turns.
     */
    p50Ms: number | null;
    /**
     * The 95th percentile of the turns' `afterMs` (nearest rank); null without turns.
     */
    p95Ms: number | null;
    /**
     * Each time the callee talked over the agent and the agent's audio was cleared from the line, in order (the first 1,000 of a call).
     */
    bargeIns: Array<BargeInLatency>;
};

export type TurnLatency = {
    /**
     * When the callee stopped speaking (the model's end of speech), in ms from the answer.
     */
    atMs: number;
    /**
     * From then to the agent's first audio of its answer sent to the line.
     */
    afterMs: number;
    stages?: TurnStages;
};

/**
 * A cascaded agent's answer (`SVC_AGENT=cascaded`), stage by stage, in milliseconds: where `afterMs` went.
 * Absent for the realtime agent, whose model does all of it in one step.
 *
 */
export type TurnStages = {
    /**
     * From the callee's end of speech to the end of their turn decided (the endpointing silence and the recogniser's final words).
     */
    endpointMs: number;
    /**
     * svc's own time from the end of the turn to the chat model's request.
     */
    ownMs: number;
    /**
     * From the chat model's request to its first sentence handed to the voice.
     */
    modelMs: number;
    /**
     * From the first sentence handed to the voice to its first audio sent to the line.
     */
    voiceMs: number;
};

export type BargeInLatency = {
    /**
     * When the callee started speaking over the agent (the model's start of speech), in ms from the answer.
     */
    atMs: number;
    /**
     * From then to the agent's audio being cleared from the line (the model's voice activity detection included).
     */
    clearMs: number;
};

export type Evidence = {
    /**
     * Index into the call's `turns` (the same line of `transcript`).
     */
    turn: number;
    /**
     * Words copied exactly from that turn's text that give the value.
     */
    quote: string;
};

export type Turn = {
    speaker: 'agent' | 'callee';
    /**
     * What was said, as in the transcript.
     */
    text: string;
    /**
     * When the turn starts, in seconds from the answer (millisecond precision).
     */
    startSec: number;
    /**
     * When the turn ends, in seconds from the answer; at most the call's durationSec.
     */
    endSec: number;
};

/**
 * `pending`: being delivered (the next attempt is at `nextAttemptAt`); `delivered`: a 2xx was received;
 * `failed`: the retry schedule (or a redelivery's one attempt) ended without a 2xx; `gone`: the receiver answered
 * 410 Gone, to this event or an earlier one of the call; `refused`: the address rule refused the URL; `none`:
 * the call (or batch) has no webhookUrl, so the event is logged and never sent. The set may grow.
 *
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'gone' | 'refused' | 'none';

export type WebhookAttempt = {
    attempt: number;
    at: string;
    /**
     * The receiver's HTTP status; null when none came (timeout, no connection, refused).
     */
    statusCode: number | null;
    /**
     * Why the attempt failed, if it did; never names the URL or its host.
     */
    error: string | null;
    latencyMs: number;
    /**
     * The attempt was asked for with redeliverEvent (or redeliverBatchEvent).
     */
    redelivery: boolean;
};

export type CallEventLogEntry = {
    eventId: string;
    event: CallEventName;
    /**
     * When the event was built (its payload's timestamp).
     */
    timestamp: string;
    state: DeliveryState;
    /**
     * The attempts kept, oldest first; an event keeps its first attempt and its last 20.
     */
    attempts: Array<WebhookAttempt>;
    /**
     * How many attempts were made between the first and the last 20 that are no longer kept (0 when every attempt is listed).
     */
    attemptsOmitted: number;
    /**
     * When the next attempt is due, while the state is pending.
     */
    nextAttemptAt: string | null;
    /**
     * When a 2xx was last received for it.
     */
    deliveredAt: string | null;
    payload: CallEvent;
};

export type CallEventLog = {
    events: Array<CallEventLogEntry>;
};

/**
 * A batch's own event in its log; the same fields as a call's (CallEventLogEntry).
 */
export type BatchEventLogEntry = {
    eventId: string;
    event: BatchEventName;
    /**
     * When the event was built (its payload's timestamp).
     */
    timestamp: string;
    state: DeliveryState;
    /**
     * The attempts kept, oldest first; an event keeps its first attempt and its last 20.
     */
    attempts: Array<WebhookAttempt>;
    /**
     * How many attempts were made between the first and the last 20 that are no longer kept (0 when every attempt is listed).
     */
    attemptsOmitted: number;
    /**
     * When the next attempt is due, while the state is pending.
     */
    nextAttemptAt: string | null;
    /**
     * When a 2xx was last received for it.
     */
    deliveredAt: string | null;
    payload: BatchEvent;
};

export type BatchEventLog = {
    events: Array<BatchEventLogEntry>;
};

/**
 * The data of a stream's `status` event.
 */
export type StreamStatus = {
    /**
     * `<callId>:status:<status>`; the same on every stream and every reconnect.
     */
    id: string;
    callId: string;
    batchId: string | null;
    status: CallStatus;
    /**
     * When the call reached the status, as its record has it (`startedAt` for in_progress, `endedAt` for a terminal status).
     */
    timestamp: string;
    /**
     * For a terminal status, the call's durationSec; null before.
     */
    durationSec: number | null;
    /**
     * For a terminal status, the call's error; null before.
     */
    error: string | null;
    /**
     * For a terminal status of a call a live agent spoke on, the record's `latency` as it stood when the status was sent; absent otherwise.
     */
    latency?: CallLatency;
};

/**
 * The data of a stream's `turn` event, a turn of the conversation as it is heard.
 */
export type StreamTurn = {
    /**
     * `<callId>:turn:<index>`.
     */
    id: string;
    callId: string;
    batchId: string | null;
    /**
     * The turn's place in the call's turns (0 first), as in the record's `turns`.
     */
    index: number;
    speaker: 'agent' | 'callee';
    text: string;
    /**
     * When the turn starts, in seconds from the answer.
     */
    startSec: number;
    /**
     * When it ends, in seconds from the answer.
     */
    endSec: number;
    /**
     * When it was heard (its end).
     */
    timestamp: string;
};

/**
 * The data of a stream's `tool_call` event: a use of one of the call's client tools, as it is answered, with
 * the fields of the record's ToolCall (its name, arguments, status, latency, error and when the model called
 * it). Never the tool's URL, its answer or a secret.
 *
 */
export type StreamToolCall = ToolCall & {
    /**
     * `<callId>:tool_call:<index>`.
     */
    id: string;
    callId: string;
    batchId: string | null;
    /**
     * The use's place in the record's `toolCalls` (0 first).
     */
    index: number;
    /**
     * When it was answered (or failed); `at` is when the model called it.
     */
    timestamp: string;
};

export type CallSummary = {
    id: string;
    status: CallStatus;
    to?: string | null;
    objective?: string | null;
    summary?: string | null;
    startedAt?: string | null;
    endedAt?: string | null;
    durationSec?: number | null;
    error?: string | null;
    metadata?: CallMetadata | null;
    /**
     * The batch the call belongs to; null for a call placed on its own.
     */
    batchId?: string | null;
    /**
     * When the call was placed (accepted).
     */
    createdAt?: string;
    /**
     * Who picked the line up; null when nobody did (yet).
     */
    answeredBy?: AnsweredBy | null;
    /**
     * The number the call is made from, E.164.
     */
    callerId?: string;
};

/**
 * The account's plan and its use in the current billing period (a calendar month, UTC).
 */
export type PlanUsage = {
    /**
     * Outbound minutes the plan allows per billing period.
     */
    planMinutes: number;
    /**
     * Minutes billed by the period's ended calls.
     */
    usedMinutes: number;
    /**
     * Minutes reserved by calls in flight (one each).
     */
    reservedMinutes: number;
    periodStart: string;
    periodEnd: string;
};

export type AccountStats = {
    /**
     * The period's start (`createdFrom`), inclusive.
     */
    periodStart: string;
    /**
     * The period's end (`createdTo`), exclusive.
     */
    periodEnd: string;
    /**
     * Calls created in the period.
     */
    calls: number;
    /**
     * Calls created on each UTC day the period touches, in order, days without calls included.
     */
    perDay: Array<{
        date: string;
        calls: number;
    }>;
    /**
     * The period's calls by their status now; every status is present.
     */
    byStatus: {
        [key: string]: number;
    };
    /**
     * The period's calls by who picked the line up; `none` for calls nobody answered (yet).
     */
    byAnsweredBy: {
        [key: string]: number;
    };
    /**
     * Of the period's ended calls (every terminal status but canceled), the share someone answered (0 to 1); null without such calls.
     */
    answerRate: number | null;
    /**
     * Of the same calls, the share that ended completed (0 to 1); null without such calls.
     */
    completionRate: number | null;
    minutes: {
        /**
         * Minutes billed by the period's calls.
         */
        billed: number;
        plan: PlanUsage;
    };
    /**
     * Turn latency of the period's calls a live agent spoke on, from each call's own figures (its `latency`).
     */
    latency: {
        /**
         * Calls with at least one timed turn.
         */
        calls: number;
        /**
         * The median of those calls' median turn latency (nearest rank); null without such calls.
         */
        p50Ms: number | null;
        /**
         * The 95th percentile of those calls' 95th-percentile turn latency (nearest rank); null without such calls.
         */
        p95Ms: number | null;
    };
    /**
     * The account's webhook events made in the period (its calls' and its batches') whose delivery ended failed (retries exhausted) or gone (410).
     */
    webhooks: {
        failed: number;
        gone: number;
    };
    /**
     * The commonest `error` tokens of the period's calls, most frequent first (ties by token), at most 5.
     */
    errors: Array<{
        error: string;
        calls: number;
    }>;
};

export type Settings = {
    /**
     * The key the request was made with, and the defaults its calls start from.
     */
    key: {
        name: string;
        /**
         * The first characters of the key, to tell keys apart.
         */
        hint: string;
        /**
         * The key's default caller id; null to use the account's.
         */
        callerId: string | null;
        /**
         * The key's default voice; null for the service's (`defaultVoice`).
         */
        voice: string | null;
        callingWindow: CallingWindow | null;
        machineDetection: 'on' | 'off';
        onBehalfOf: string | null;
        recordingNotice: boolean;
    };
    account: {
        name: string;
        defaultCallerId: string | null;
        /**
         * The account's numbers, the caller ids its calls may use, in E.164 order.
         */
        numbers: Array<string>;
    };
    plan: PlanUsage;
    /**
     * The first 8 hex digits of the SHA-256 of the key's current webhook signing secret, to tell which secret a receiver holds; the secret itself is never shown.
     */
    webhookSecretFingerprint: string;
    /**
     * The voices a call may use.
     */
    voices: Array<string>;
    /**
     * The voice of a call placed without one, when its key names none.
     */
    defaultVoice: string;
};

export type CallList = {
    calls: Array<CallSummary>;
    /**
     * Pass as `cursor` (with the same filters) for the next page; null on the last page.
     */
    nextCursor?: string | null;
};

/**
 * Who picked the line up. The set may grow; clients must tolerate unknown values.
 *
 */
export type AnsweredBy = 'human' | 'machine' | 'fax' | 'unknown';

/**
 * The metadata the call was placed with, exactly as given; null on a call placed without.
 */
export type CallMetadata = {
    [key: string]: string;
};

/**
 * A batch's own event, sent once as it ends, signed as a call's events are. `counts` are the batch's calls by status at that moment (its calls not released count as canceled).
 */
export type BatchEvent = {
    event: BatchEventName;
    /**
     * `<batchId>:<event>:<epoch ms>`; the same on every retry of the delivery.
     */
    eventId: string;
    timestamp: string;
    batchId: string;
    status: BatchStatus;
    total: number;
    counts: {
        queued: number;
        dialing: number;
        in_progress: number;
        completed: number;
        no_answer: number;
        voicemail: number;
        declined: number;
        failed: number;
        canceled: number;
    };
    stopReason: string | null;
    matched: number;
    metadata: CallMetadata | null;
    endedAt: string;
};

export type CallEventName = 'call.in_progress' | 'call.completed' | 'call.no_answer' | 'call.voicemail' | 'call.declined' | 'call.failed' | 'call.canceled';

export type BatchEventName = 'batch.completed' | 'batch.canceled' | 'batch.stopped';

/**
 * The payload of every event. Fields not yet available when the event is built are null. No transcript and no recording URL; read them with getCall.
 */
export type CallEventBase = {
    event: CallEventName;
    /**
     * `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery. Receivers deduplicate on it.
     */
    eventId: string;
    /**
     * When the event was built. Receivers order by it.
     */
    timestamp: string;
    callId: string;
    status: CallStatus;
    to: string;
    objective: string;
    startedAt: string | null;
    endedAt: string | null;
    durationSec: number | null;
    summary: string | null;
    extracted: ExtractedValues | null;
    error: string | null;
    /**
     * Who picked the line up, as on the call record; null when nobody did.
     */
    answeredBy: AnsweredBy | null;
    /**
     * The call's metadata as placed; null when it was placed without.
     */
    metadata: CallMetadata | null;
    /**
     * On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
     */
    nextCallId: string | null;
    /**
     * The batch the call belongs to; null for a call placed on its own.
     */
    batchId?: string | null;
    /**
     * On a terminal event, whether the callee asked in the call not to be called again (see the record's `optOut`); false otherwise.
     */
    optOut?: boolean;
    /**
     * Only on the `call.completed` of a call the agent handed over to a person (see the record's `transferredTo`); absent otherwise.
     */
    transferredTo?: string;
    /**
     * With `transferredTo`, when the agent handed the call over and left it.
     */
    transferredAt?: string;
};

export type CallInProgressEvent = CallEventBase & {
    event: 'call.in_progress';
    status: 'in_progress';
};

export type CallCompletedEvent = CallEventBase & {
    event: 'call.completed';
    status: 'completed';
};

export type CallNoAnswerEvent = CallEventBase & {
    event: 'call.no_answer';
    status: 'no_answer';
};

export type CallVoicemailEvent = CallEventBase & {
    event: 'call.voicemail';
    status: 'voicemail';
};

export type CallDeclinedEvent = CallEventBase & {
    event: 'call.declined';
    status: 'declined';
};

export type CallFailedEvent = CallEventBase & {
    event: 'call.failed';
    status: 'failed';
};

export type CallCanceledEvent = CallEventBase & {
    event: 'call.canceled';
    status: 'canceled';
};

/**
 * Any webhook event, discriminated by `event`.
 */
export type CallEvent = CallInProgressEvent | CallCompletedEvent | CallNoAnswerEvent | CallVoicemailEvent | CallDeclinedEvent | CallFailedEvent | CallCanceledEvent;

/**
 * The callId returned at placement, in any case (a UUID's hex digits name the same call in capitals). An id that names no call of this key (including one that is not a UUID) gives 404 `not_found`.
 */
export type CallId = string;

/**
 * The batchId returned at creation. An id that names no batch of this key gives 404 `not_found`.
 */
export type BatchId = string;

/**
 * An event's `eventId`, as in its payload and the event log. One the call (or batch) does not have gives 404 `not_found`.
 */
export type EventId = string;

/**
 * The `id` of the last event received, sent by a client reconnecting; the stream resumes after it. An id the stream did not give starts it afresh.
 */
export type LastEventId = string;

/**
 * 1 to 255 printable ASCII characters; the quoted form (`"abc"`) is accepted and means the same key. Scoped to
 * the API key and kept for 24 hours. Retrying with the same key and the same body returns the original status,
 * body and Location with `Idempotent-Replayed: true`, without placing a call or consuming the rate-limit
 * window. The same key with a different body gives 422 `idempotency_key_reused`; while the first request is
 * still running, 409 `idempotency_key_in_use`. A duplicate that reaches the store in the same write batch as
 * the first (sent at the same moment, to the same SQLite process) is taken after the first has finished, so
 * it gets the replay instead of the 409; either way there is one call. Validation and guardrail rejections
 * are stored and replayed; 429 and 5xx responses are not stored, so they can be retried with the same key.
 *
 */
export type IdempotencyKey = string;

/**
 * `t=<unix seconds>,v1=<hex>`: v1 is the lowercase hex HMAC-SHA256, keyed with the webhook secret, of
 * `<t>.<raw body>`. During a secret rotation the header carries one `v1=` per active secret. Receivers verify
 * against the raw body and reject timestamps more than 300 seconds away from their clock.
 *
 */
export type SignatureHeader = string;

export type ListCallsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Maximum number of calls to return. An integer from 1 to 100; anything else gives 400 `invalid_limit`.
         */
        limit?: number;
        /**
         * Only the calls of this batch (released so far; a batch's calls not yet released have no record). A batch that is not this key's lists nothing. Longer than 64 characters, given twice, or not text gives 400 `invalid_batch_id`.
         */
        batchId?: string;
        /**
         * The `nextCursor` of the previous page; the page starts after the last call it held. Send the same filters with it (the cursor holds only a position). A value that is not a cursor this service gave, given twice, or not text gives 400 `invalid_cursor`.
         */
        cursor?: string;
        /**
         * Only calls in these statuses, one or several comma-separated (`no_answer,voicemail`), given once. An unknown status, an empty item, or the parameter given twice gives 400 `invalid_status`.
         */
        status?: string;
        /**
         * Only calls picked up by this (`human`, `machine`, `fax` or `unknown`), or `none` for calls nobody answered. Anything else gives 400 `invalid_answered_by`.
         */
        answeredBy?: 'human' | 'machine' | 'fax' | 'unknown' | 'none';
        /**
         * Only calls created at or after this ISO 8601 date-time with an offset (`2026-11-01T00:00:00Z`). Not such a date-time, or later than `createdTo`, gives 400 `invalid_period`.
         */
        createdFrom?: string;
        /**
         * Only calls created before this ISO 8601 date-time with an offset (exclusive). Not such a date-time, or earlier than `createdFrom`, gives 400 `invalid_period`.
         */
        createdTo?: string;
        /**
         * Only calls whose number, objective or one of its metadata values contains this text, ignoring case (`+1415`, `sunday`, an order id). 1 to 200 characters; blank, longer, given twice, or not text gives 400 `invalid_query`.
         */
        q?: string;
    };
    url: '/v1/agent/calls';
};

export type ListCallsErrors = {
    /**
     * A query parameter (`limit`, `batchId`, `cursor`, `status`, `answeredBy`, `createdFrom`, `createdTo`, `q`) is malformed, or the period is empty.
     */
    400: ApiError & {
        error?: 'invalid_limit' | 'invalid_batch_id' | 'invalid_cursor' | 'invalid_status' | 'invalid_answered_by' | 'invalid_period' | 'invalid_query';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type ListCallsError = ListCallsErrors[keyof ListCallsErrors];

export type ListCallsResponses = {
    /**
     * The calls, most recent first.
     */
    200: CallList;
};

export type ListCallsResponse = ListCallsResponses[keyof ListCallsResponses];

export type PlaceCallData = {
    body: PlaceCallRequest;
    headers?: {
        /**
         * 1 to 255 printable ASCII characters; the quoted form (`"abc"`) is accepted and means the same key. Scoped to
         * the API key and kept for 24 hours. Retrying with the same key and the same body returns the original status,
         * body and Location with `Idempotent-Replayed: true`, without placing a call or consuming the rate-limit
         * window. The same key with a different body gives 422 `idempotency_key_reused`; while the first request is
         * still running, 409 `idempotency_key_in_use`. A duplicate that reaches the store in the same write batch as
         * the first (sent at the same moment, to the same SQLite process) is taken after the first has finished, so
         * it gets the replay instead of the 409; either way there is one call. Validation and guardrail rejections
         * are stored and replayed; 429 and 5xx responses are not stored, so they can be retried with the same key.
         *
         */
        'Idempotency-Key'?: string;
    };
    path?: never;
    query?: never;
    url: '/v1/agent/calls';
};

export type PlaceCallErrors = {
    /**
     * The request was rejected by validation or a guardrail; no call was placed.
     */
    400: ApiError & {
        /**
         * Every problem of the request at once, the first being `error` and `message` above. Each
         * top-level property of the body is named at most once (its first problem, as it would be
         * named alone), then every guardrail whose inputs passed the schema, then the account's checks
         * (`destination_opted_out`, `caller_id_not_owned`) for the numbers that passed theirs: a check
         * that needs a value the request got wrong is not run on it. Present on every 400 of the body's
         * checks; absent for `invalid_json`, a body nesting too deep and `invalid_idempotency_key`,
         * which are refused before the body is checked.
         *
         */
        errors?: Array<RequestProblem>;
        error?: 'to_required' | 'objective_required' | 'invalid_number' | 'invalid_objective' | 'invalid_context' | 'invalid_fields' | 'invalid_caller_id' | 'invalid_webhook_url' | 'invalid_metadata' | 'invalid_voicemail' | 'invalid_start_at' | 'invalid_redial' | 'invalid_calling_window' | 'invalid_machine_detection' | 'invalid_on_behalf_of' | 'invalid_recording_notice' | 'invalid_send_digits' | 'invalid_tools' | 'invalid_transfer' | 'invalid_hold' | 'invalid_voice' | 'invalid_language' | 'unknown_field' | 'destination_blocked' | 'destination_opted_out' | 'caller_id_not_owned' | 'invalid_idempotency_key' | 'invalid_json' | 'invalid_body';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * A request with this Idempotency-Key is still being processed; retry later. No call was placed by this request.
     */
    409: ApiError & {
        error?: 'idempotency_key_in_use';
    };
    /**
     * The request body is larger than 64 KiB.
     */
    413: ApiError & {
        error?: 'payload_too_large';
    };
    /**
     * The request body is not sent as `application/json`.
     */
    415: ApiError & {
        error?: 'unsupported_media_type';
    };
    /**
     * This Idempotency-Key was already used with a different request body.
     */
    422: ApiError & {
        error?: 'idempotency_key_reused';
    };
    /**
     * `rate_limited`: the key has placed as many calls as its window allows (only accepted placements count; a
     * rejected request spends nothing); Retry-After equals RateLimit-Reset (at least 1).
     * `over_minute_cap`: the account's outbound minutes for the billing period are used up (minutes used plus
     * minutes reserved by calls in flight); Retry-After is the number of seconds until the next period.
     *
     */
    429: ApiError & {
        error?: 'rate_limited' | 'over_minute_cap';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The carrier or trunk refused the call; retry shortly.
     */
    502: ApiError & {
        error?: 'placement_failed';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type PlaceCallError = PlaceCallErrors[keyof PlaceCallErrors];

export type PlaceCallResponses = {
    /**
     * Accepted; the call is queued.
     */
    202: PlaceCallResponse;
};

export type PlaceCallResponse2 = PlaceCallResponses[keyof PlaceCallResponses];

export type PreflightCallData = {
    body: PlaceCallRequest;
    path?: never;
    query?: never;
    url: '/v1/agent/calls/preflight';
};

export type PreflightCallErrors = {
    /**
     * The request was rejected by validation or a guardrail; no call was placed.
     */
    400: ApiError & {
        /**
         * Every problem of the request at once, the first being `error` and `message` above. Each
         * top-level property of the body is named at most once (its first problem, as it would be
         * named alone), then every guardrail whose inputs passed the schema, then the account's checks
         * (`destination_opted_out`, `caller_id_not_owned`) for the numbers that passed theirs: a check
         * that needs a value the request got wrong is not run on it. Present on every 400 of the body's
         * checks; absent for `invalid_json`, a body nesting too deep and `invalid_idempotency_key`,
         * which are refused before the body is checked.
         *
         */
        errors?: Array<RequestProblem>;
        error?: 'to_required' | 'objective_required' | 'invalid_number' | 'invalid_objective' | 'invalid_context' | 'invalid_fields' | 'invalid_caller_id' | 'invalid_webhook_url' | 'invalid_metadata' | 'invalid_voicemail' | 'invalid_start_at' | 'invalid_redial' | 'invalid_calling_window' | 'invalid_machine_detection' | 'invalid_on_behalf_of' | 'invalid_recording_notice' | 'invalid_send_digits' | 'invalid_tools' | 'invalid_transfer' | 'invalid_hold' | 'invalid_voice' | 'invalid_language' | 'unknown_field' | 'destination_blocked' | 'destination_opted_out' | 'caller_id_not_owned' | 'invalid_idempotency_key' | 'invalid_json' | 'invalid_body';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * The request body is larger than 64 KiB.
     */
    413: ApiError & {
        error?: 'payload_too_large';
    };
    /**
     * The request body is not sent as `application/json`.
     */
    415: ApiError & {
        error?: 'unsupported_media_type';
    };
    /**
     * `rate_limited`: the key has placed as many calls as its window allows (only accepted placements count; a
     * rejected request spends nothing); Retry-After equals RateLimit-Reset (at least 1).
     * `over_minute_cap`: the account's outbound minutes for the billing period are used up (minutes used plus
     * minutes reserved by calls in flight); Retry-After is the number of seconds until the next period.
     *
     */
    429: ApiError & {
        error?: 'rate_limited' | 'over_minute_cap';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type PreflightCallError = PreflightCallErrors[keyof PreflightCallErrors];

export type PreflightCallResponses = {
    /**
     * The call would be placed; this is what would happen.
     */
    200: PreflightResponse;
};

export type PreflightCallResponse = PreflightCallResponses[keyof PreflightCallResponses];

export type ListBatchesData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Maximum number of batches to return. An integer from 1 to 100; anything else gives 400 `invalid_limit`.
         */
        limit?: number;
    };
    url: '/v1/agent/batches';
};

export type ListBatchesErrors = {
    /**
     * The `limit` query parameter is not an integer from 1 to 100.
     */
    400: ApiError & {
        error?: 'invalid_limit';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type ListBatchesError = ListBatchesErrors[keyof ListBatchesErrors];

export type ListBatchesResponses = {
    /**
     * The batches, most recent first.
     */
    200: BatchList;
};

export type ListBatchesResponse = ListBatchesResponses[keyof ListBatchesResponses];

export type CreateBatchData = {
    body: CreateBatchRequest;
    headers?: {
        /**
         * 1 to 255 printable ASCII characters; the quoted form (`"abc"`) is accepted and means the same key. Scoped to
         * the API key and kept for 24 hours. Retrying with the same key and the same body returns the original status,
         * body and Location with `Idempotent-Replayed: true`, without placing a call or consuming the rate-limit
         * window. The same key with a different body gives 422 `idempotency_key_reused`; while the first request is
         * still running, 409 `idempotency_key_in_use`. A duplicate that reaches the store in the same write batch as
         * the first (sent at the same moment, to the same SQLite process) is taken after the first has finished, so
         * it gets the replay instead of the 409; either way there is one call. Validation and guardrail rejections
         * are stored and replayed; 429 and 5xx responses are not stored, so they can be retried with the same key.
         *
         */
        'Idempotency-Key'?: string;
    };
    path?: never;
    query?: never;
    url: '/v1/agent/batches';
};

export type CreateBatchErrors = {
    /**
     * The batch is not created. `invalid_batch`: some calls are bad; `errors` names each by its index with the error
     * placeCall would give it. Otherwise the batch's own fields are malformed (their token), or the body is.
     *
     */
    400: InvalidBatchError;
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * A request with this Idempotency-Key is still being processed; retry later. No call was placed by this request.
     */
    409: ApiError & {
        error?: 'idempotency_key_in_use';
    };
    /**
     * The request body is larger than 64 KiB.
     */
    413: ApiError & {
        error?: 'payload_too_large';
    };
    /**
     * The request body is not sent as `application/json`.
     */
    415: ApiError & {
        error?: 'unsupported_media_type';
    };
    /**
     * This Idempotency-Key was already used with a different request body.
     */
    422: ApiError & {
        error?: 'idempotency_key_reused';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type CreateBatchError = CreateBatchErrors[keyof CreateBatchErrors];

export type CreateBatchResponses = {
    /**
     * The batch is created, `queued`; its calls are released as it runs.
     */
    202: CreateBatchResponse;
};

export type CreateBatchResponse2 = CreateBatchResponses[keyof CreateBatchResponses];

export type PreflightBatchData = {
    body: CreateBatchRequest;
    path?: never;
    query?: never;
    url: '/v1/agent/batches/preflight';
};

export type PreflightBatchErrors = {
    /**
     * The batch is not created. `invalid_batch`: some calls are bad; `errors` names each by its index with the error
     * placeCall would give it. Otherwise the batch's own fields are malformed (their token), or the body is.
     *
     */
    400: InvalidBatchError;
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * The request body is larger than 64 KiB.
     */
    413: ApiError & {
        error?: 'payload_too_large';
    };
    /**
     * The request body is not sent as `application/json`.
     */
    415: ApiError & {
        error?: 'unsupported_media_type';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type PreflightBatchError = PreflightBatchErrors[keyof PreflightBatchErrors];

export type PreflightBatchResponses = {
    /**
     * The batch's calls, checked; nothing was created.
     */
    200: BatchPreflightResponse;
};

export type PreflightBatchResponse = PreflightBatchResponses[keyof PreflightBatchResponses];

export type GetBatchData = {
    body?: never;
    path: {
        /**
         * The batchId returned at creation. An id that names no batch of this key gives 404 `not_found`.
         */
        id: string;
    };
    query?: never;
    url: '/v1/agent/batches/{id}';
};

export type GetBatchErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type GetBatchError = GetBatchErrors[keyof GetBatchErrors];

export type GetBatchResponses = {
    /**
     * The batch.
     */
    200: Batch;
};

export type GetBatchResponse = GetBatchResponses[keyof GetBatchResponses];

export type CancelBatchData = {
    body?: never;
    path: {
        /**
         * The batchId returned at creation. An id that names no batch of this key gives 404 `not_found`.
         */
        id: string;
    };
    query?: never;
    url: '/v1/agent/batches/{id}/cancel';
};

export type CancelBatchErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * `batch_already_ended`: the batch completed (or stopped) before the cancel.
     */
    409: ApiError & {
        error?: 'batch_already_ended';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type CancelBatchError = CancelBatchErrors[keyof CancelBatchErrors];

export type CancelBatchResponses = {
    /**
     * The batch is canceled (now, or it already was).
     */
    200: Batch;
};

export type CancelBatchResponse = CancelBatchResponses[keyof CancelBatchResponses];

export type ListBatchRowsData = {
    body?: never;
    path: {
        /**
         * The batchId returned at creation. An id that names no batch of this key gives 404 `not_found`.
         */
        id: string;
    };
    query?: {
        /**
         * Rows per page, an integer from 1 to 100; anything else gives 400 `invalid_limit`.
         */
        limit?: number;
        /**
         * The `nextAfter` of the previous page (the index of the last row it held); the page starts after it. An integer from 0 to 9999; anything else gives 400 `invalid_after`.
         */
        after?: number;
        /**
         * Only the rows in this state. Anything but `waiting`, `released`, `canceled` or `skipped` gives 400 `invalid_state`.
         */
        state?: 'waiting' | 'released' | 'canceled' | 'skipped';
    };
    url: '/v1/agent/batches/{id}/rows';
};

export type ListBatchRowsErrors = {
    /**
     * The `limit`, `after` or `state` query parameter is malformed.
     */
    400: ApiError & {
        error?: 'invalid_limit' | 'invalid_after' | 'invalid_state';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type ListBatchRowsError = ListBatchRowsErrors[keyof ListBatchRowsErrors];

export type ListBatchRowsResponses = {
    /**
     * One page of the batch's rows.
     */
    200: BatchRowList;
};

export type ListBatchRowsResponse = ListBatchRowsResponses[keyof ListBatchRowsResponses];

export type GetStatsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * The period's start, an ISO 8601 date-time with an offset (inclusive); default `createdTo` less 30 days. Anything else gives 400 `invalid_period`.
         */
        createdFrom?: string;
        /**
         * The period's end (exclusive); default now (a millisecond after, so a call created this moment counts). It must be after `createdFrom`, and the period at most 366 days, else 400 `invalid_period`.
         */
        createdTo?: string;
    };
    url: '/v1/agent/stats';
};

export type GetStatsErrors = {
    /**
     * The `createdFrom` or `createdTo` query parameter is malformed, or the period is empty or too long.
     */
    400: ApiError & {
        error?: 'invalid_period';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type GetStatsError = GetStatsErrors[keyof GetStatsErrors];

export type GetStatsResponses = {
    /**
     * The period's statistics.
     */
    200: AccountStats;
};

export type GetStatsResponse = GetStatsResponses[keyof GetStatsResponses];

export type GetSettingsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/agent/settings';
};

export type GetSettingsErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type GetSettingsError = GetSettingsErrors[keyof GetSettingsErrors];

export type GetSettingsResponses = {
    /**
     * The settings.
     */
    200: Settings;
};

export type GetSettingsResponse = GetSettingsResponses[keyof GetSettingsResponses];

export type ListDoNotCallData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Entries per page, an integer from 1 to 100; anything else gives 400 `invalid_limit`.
         */
        limit?: number;
        /**
         * The `nextAfter` of the previous page (the last number it held); the page starts after it.
         */
        after?: string;
    };
    url: '/v1/agent/do-not-call';
};

export type ListDoNotCallErrors = {
    /**
     * The `limit` or `after` query parameter is malformed.
     */
    400: ApiError & {
        error?: 'invalid_limit' | 'invalid_after';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type ListDoNotCallError = ListDoNotCallErrors[keyof ListDoNotCallErrors];

export type ListDoNotCallResponses = {
    /**
     * One page of the list.
     */
    200: DoNotCallList;
};

export type ListDoNotCallResponse = ListDoNotCallResponses[keyof ListDoNotCallResponses];

export type AddDoNotCallData = {
    body: DoNotCallRequest;
    path?: never;
    query?: never;
    url: '/v1/agent/do-not-call';
};

export type AddDoNotCallErrors = {
    /**
     * The body is not a valid do-not-call entry.
     */
    400: ApiError & {
        error?: 'invalid_number' | 'invalid_reason' | 'unknown_field' | 'invalid_json' | 'invalid_body';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * The request body is larger than 64 KiB.
     */
    413: ApiError & {
        error?: 'payload_too_large';
    };
    /**
     * The request body is not sent as `application/json`.
     */
    415: ApiError & {
        error?: 'unsupported_media_type';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type AddDoNotCallError = AddDoNotCallErrors[keyof AddDoNotCallErrors];

export type AddDoNotCallResponses = {
    /**
     * The number was already on the list.
     */
    200: DoNotCallEntry;
    /**
     * The number was added.
     */
    201: DoNotCallEntry;
};

export type AddDoNotCallResponse = AddDoNotCallResponses[keyof AddDoNotCallResponses];

export type RemoveDoNotCallData = {
    body?: never;
    path: {
        /**
         * The number in E.164 (`+` may be sent as `%2B`).
         */
        number: string;
    };
    query?: never;
    url: '/v1/agent/do-not-call/{number}';
};

export type RemoveDoNotCallErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type RemoveDoNotCallError = RemoveDoNotCallErrors[keyof RemoveDoNotCallErrors];

export type RemoveDoNotCallResponses = {
    /**
     * Removed.
     */
    204: void;
};

export type RemoveDoNotCallResponse = RemoveDoNotCallResponses[keyof RemoveDoNotCallResponses];

export type GetCallData = {
    body?: never;
    path: {
        /**
         * The callId returned at placement, in any case (a UUID's hex digits name the same call in capitals). An id that names no call of this key (including one that is not a UUID) gives 404 `not_found`.
         */
        id: string;
    };
    query?: never;
    url: '/v1/agent/calls/{id}';
};

export type GetCallErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type GetCallError = GetCallErrors[keyof GetCallErrors];

export type GetCallResponses = {
    /**
     * The call record.
     */
    200: CallRecord;
};

export type GetCallResponse = GetCallResponses[keyof GetCallResponses];

export type CancelCallData = {
    body?: never;
    headers?: {
        /**
         * 1 to 255 printable ASCII characters; the quoted form (`"abc"`) is accepted and means the same key. Scoped to
         * the API key and kept for 24 hours. Retrying with the same key and the same body returns the original status,
         * body and Location with `Idempotent-Replayed: true`, without placing a call or consuming the rate-limit
         * window. The same key with a different body gives 422 `idempotency_key_reused`; while the first request is
         * still running, 409 `idempotency_key_in_use`. A duplicate that reaches the store in the same write batch as
         * the first (sent at the same moment, to the same SQLite process) is taken after the first has finished, so
         * it gets the replay instead of the 409; either way there is one call. Validation and guardrail rejections
         * are stored and replayed; 429 and 5xx responses are not stored, so they can be retried with the same key.
         *
         */
        'Idempotency-Key'?: string;
    };
    path: {
        /**
         * The callId returned at placement, in any case (a UUID's hex digits name the same call in capitals). An id that names no call of this key (including one that is not a UUID) gives 404 `not_found`.
         */
        id: string;
    };
    query?: never;
    url: '/v1/agent/calls/{id}/cancel';
};

export type CancelCallErrors = {
    /**
     * The Idempotency-Key header is malformed.
     */
    400: ApiError & {
        error?: 'invalid_idempotency_key';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * `call_already_ended`: the call ended (other than canceled) before the cancel; the body's message names how.
     * `idempotency_key_in_use`: a request with this Idempotency-Key is still running; retry after Retry-After.
     *
     */
    409: ApiError & {
        error?: 'call_already_ended' | 'idempotency_key_in_use';
    };
    /**
     * This Idempotency-Key was already used with a different request body.
     */
    422: ApiError & {
        error?: 'idempotency_key_reused';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type CancelCallError = CancelCallErrors[keyof CancelCallErrors];

export type CancelCallResponses = {
    /**
     * The call is canceled (now, or it already was).
     */
    200: CallRecord;
    /**
     * The call was being dialled or was live; the engine is taking it down. Poll getCall (or wait for its event) for how it ended.
     */
    202: CallRecord;
};

export type CancelCallResponse = CancelCallResponses[keyof CancelCallResponses];

export type GetCallRecordingData = {
    body?: never;
    headers?: {
        /**
         * A single byte range, `bytes=<first>-<last>`, `bytes=<first>-` or `bytes=-<suffix length>`.
         */
        Range?: string;
    };
    path: {
        /**
         * The callId returned at placement, in any case (a UUID's hex digits name the same call in capitals). An id that names no call of this key (including one that is not a UUID) gives 404 `not_found`.
         */
        id: string;
    };
    query?: {
        /**
         * `1` (the default) for the one-channel recording, both parties mixed; `2` for the two-channel rendition, each party on its own channel, where the carrier made one. Anything else gives 400 `invalid_channels`.
         */
        channels?: 1 | 2;
    };
    url: '/v1/agent/calls/{id}/recording';
};

export type GetCallRecordingErrors = {
    /**
     * The `channels` query parameter is not 1 or 2.
     */
    400: ApiError & {
        error?: 'invalid_channels';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * The Range header does not fit the recording.
     */
    416: ApiError & {
        error?: 'range_not_satisfiable';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy (`store_error`, without the RateLimit-* headers, as everywhere), or the recording could not be made ready just now (`recording_unavailable`); retry after Retry-After seconds.
     */
    503: ApiError & {
        error?: 'store_error' | 'recording_unavailable';
    };
};

export type GetCallRecordingError = GetCallRecordingErrors[keyof GetCallRecordingErrors];

export type GetCallRecordingResponses = {
    /**
     * The whole recording.
     */
    200: Blob | File;
    /**
     * The requested byte range of the recording.
     */
    206: Blob | File;
};

export type GetCallRecordingResponse = GetCallRecordingResponses[keyof GetCallRecordingResponses];

export type ListCallEventsData = {
    body?: never;
    path: {
        /**
         * The callId returned at placement, in any case (a UUID's hex digits name the same call in capitals). An id that names no call of this key (including one that is not a UUID) gives 404 `not_found`.
         */
        id: string;
    };
    query?: never;
    url: '/v1/agent/calls/{id}/events';
};

export type ListCallEventsErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type ListCallEventsError = ListCallEventsErrors[keyof ListCallEventsErrors];

export type ListCallEventsResponses = {
    /**
     * The call's events.
     */
    200: CallEventLog;
};

export type ListCallEventsResponse = ListCallEventsResponses[keyof ListCallEventsResponses];

export type RedeliverEventData = {
    body?: never;
    path: {
        /**
         * The callId returned at placement, in any case (a UUID's hex digits name the same call in capitals). An id that names no call of this key (including one that is not a UUID) gives 404 `not_found`.
         */
        id: string;
        /**
         * An event's `eventId`, as in its payload and the event log. One the call (or batch) does not have gives 404 `not_found`.
         */
        eventId: string;
    };
    query?: never;
    url: '/v1/agent/calls/{id}/events/{eventId}/redeliver';
};

export type RedeliverEventErrors = {
    /**
     * `destination_refused`: the event was refused by the address rule when it was sent, and would be again.
     * `no_webhook_url`: the call (or batch) has no webhookUrl; its events are logged, never sent.
     *
     */
    400: ApiError & {
        error?: 'destination_refused' | 'no_webhook_url';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * `redelivery_pending`: a delivery of this event is pending (an attempt in flight, its retries not over, or a
     * redelivery queued), or its last redelivery was asked for less than 10 seconds ago. Retry-After is the
     * seconds until it may be asked again: the rest of those 10 seconds, the time to its next scheduled attempt,
     * or 1 while an attempt is in flight.
     *
     */
    409: ApiError & {
        error?: 'redelivery_pending';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type RedeliverEventError = RedeliverEventErrors[keyof RedeliverEventErrors];

export type RedeliverEventResponses = {
    /**
     * The redelivery is queued.
     */
    202: CallEventLogEntry;
};

export type RedeliverEventResponse = RedeliverEventResponses[keyof RedeliverEventResponses];

export type ListBatchEventsData = {
    body?: never;
    path: {
        /**
         * The batchId returned at creation. An id that names no batch of this key gives 404 `not_found`.
         */
        id: string;
    };
    query?: never;
    url: '/v1/agent/batches/{id}/events';
};

export type ListBatchEventsErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type ListBatchEventsError = ListBatchEventsErrors[keyof ListBatchEventsErrors];

export type ListBatchEventsResponses = {
    /**
     * The batch's events.
     */
    200: BatchEventLog;
};

export type ListBatchEventsResponse = ListBatchEventsResponses[keyof ListBatchEventsResponses];

export type RedeliverBatchEventData = {
    body?: never;
    path: {
        /**
         * The batchId returned at creation. An id that names no batch of this key gives 404 `not_found`.
         */
        id: string;
        /**
         * An event's `eventId`, as in its payload and the event log. One the call (or batch) does not have gives 404 `not_found`.
         */
        eventId: string;
    };
    query?: never;
    url: '/v1/agent/batches/{id}/events/{eventId}/redeliver';
};

export type RedeliverBatchEventErrors = {
    /**
     * `destination_refused`: the event was refused by the address rule when it was sent, and would be again.
     * `no_webhook_url`: the call (or batch) has no webhookUrl; its events are logged, never sent.
     *
     */
    400: ApiError & {
        error?: 'destination_refused' | 'no_webhook_url';
    };
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * `redelivery_pending`: a delivery of this event is pending (an attempt in flight, its retries not over, or a
     * redelivery queued), or its last redelivery was asked for less than 10 seconds ago. Retry-After is the
     * seconds until it may be asked again: the rest of those 10 seconds, the time to its next scheduled attempt,
     * or 1 while an attempt is in flight.
     *
     */
    409: ApiError & {
        error?: 'redelivery_pending';
    };
    /**
     * Too many requests in the window; wait Retry-After seconds.
     */
    429: ApiError & {
        error?: 'rate_limited';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type RedeliverBatchEventError = RedeliverBatchEventErrors[keyof RedeliverBatchEventErrors];

export type RedeliverBatchEventResponses = {
    /**
     * The redelivery is queued.
     */
    202: BatchEventLogEntry;
};

export type RedeliverBatchEventResponse = RedeliverBatchEventResponses[keyof RedeliverBatchEventResponses];

export type StreamCallData = {
    body?: never;
    headers?: {
        /**
         * The `id` of the last event received, sent by a client reconnecting; the stream resumes after it. An id the stream did not give starts it afresh.
         */
        'Last-Event-ID'?: string;
    };
    path: {
        /**
         * The callId returned at placement, in any case (a UUID's hex digits name the same call in capitals). An id that names no call of this key (including one that is not a UUID) gives 404 `not_found`.
         */
        id: string;
    };
    query?: never;
    url: '/v1/agent/calls/{id}/stream';
};

export type StreamCallErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * No such call for this key. A call placed with another key is reported exactly like one that does not exist.
     */
    404: ApiError & {
        error?: 'not_found';
    };
    /**
     * `rate_limited`: the key's request window is full (streams opened and redeliveries asked for, SVC_KEY_REQUEST_LIMIT
     * per window, 600 a minute by default; apart from the calls the key places); Retry-After equals RateLimit-Reset.
     * `too_many_streams`: the key already holds its cap of open live streams (SVC_STREAMS_PER_KEY, 100 by default,
     * counted across every process of the deployment); Retry-After is 10 seconds. The RateLimit-* headers report
     * the request window.
     *
     */
    429: ApiError & {
        error?: 'rate_limited' | 'too_many_streams';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type StreamCallError = StreamCallErrors[keyof StreamCallErrors];

export type StreamCallResponses = {
    /**
     * Events of the form `id: <position>`, `event: status|turn|tool_call`, `data: <JSON>`.
     */
    200: string;
};

export type StreamCallResponse = StreamCallResponses[keyof StreamCallResponses];

export type StreamEventsData = {
    body?: never;
    headers?: {
        /**
         * The `id` of the last event received, sent by a client reconnecting; the stream resumes after it. An id the stream did not give starts it afresh.
         */
        'Last-Event-ID'?: string;
    };
    path?: never;
    query?: never;
    url: '/v1/agent/stream';
};

export type StreamEventsErrors = {
    /**
     * The Authorization header is missing, malformed, or names no active key. Carries the rate-limit headers of the client address's window.
     */
    401: ApiError & {
        error?: 'unauthorized';
    };
    /**
     * `rate_limited`: the key's request window is full (streams opened and redeliveries asked for, SVC_KEY_REQUEST_LIMIT
     * per window, 600 a minute by default; apart from the calls the key places); Retry-After equals RateLimit-Reset.
     * `too_many_streams`: the key already holds its cap of open live streams (SVC_STREAMS_PER_KEY, 100 by default,
     * counted across every process of the deployment); Retry-After is 10 seconds. The RateLimit-* headers report
     * the request window.
     *
     */
    429: ApiError & {
        error?: 'rate_limited' | 'too_many_streams';
    };
    /**
     * An unexpected fault. The message never carries internals; the X-Request-Id header identifies the request in the logs.
     */
    500: ApiError & {
        error?: 'internal_error';
    };
    /**
     * The store is unreachable or busy; retry after Retry-After seconds. This is the one API response without the RateLimit-* headers, since the key and its window are kept in the store that could not be read.
     */
    503: ApiError & {
        error?: 'store_error';
    };
};

export type StreamEventsError = StreamEventsErrors[keyof StreamEventsErrors];

export type StreamEventsResponses = {
    /**
     * Events of the form `id: <epoch ms>`, `event: status|turn|tool_call`, `data: <JSON>`.
     */
    200: string;
};

export type StreamEventsResponse = StreamEventsResponses[keyof StreamEventsResponses];

export type CallInProgressEventWebhookPayload = CallInProgressEvent;

export type CallInProgressEventWebhookRequest = {
    body: CallInProgressEventWebhookPayload;
    key: 'call.in_progress';
    path?: never;
    query?: never;
};

export type CallCompletedEventWebhookPayload = CallCompletedEvent;

export type CallCompletedEventWebhookRequest = {
    body: CallCompletedEventWebhookPayload;
    key: 'call.completed';
    path?: never;
    query?: never;
};

export type CallNoAnswerEventWebhookPayload = CallNoAnswerEvent;

export type CallNoAnswerEventWebhookRequest = {
    body: CallNoAnswerEventWebhookPayload;
    key: 'call.no_answer';
    path?: never;
    query?: never;
};

export type CallVoicemailEventWebhookPayload = CallVoicemailEvent;

export type CallVoicemailEventWebhookRequest = {
    body: CallVoicemailEventWebhookPayload;
    key: 'call.voicemail';
    path?: never;
    query?: never;
};

export type CallDeclinedEventWebhookPayload = CallDeclinedEvent;

export type CallDeclinedEventWebhookRequest = {
    body: CallDeclinedEventWebhookPayload;
    key: 'call.declined';
    path?: never;
    query?: never;
};

export type CallFailedEventWebhookPayload = CallFailedEvent;

export type CallFailedEventWebhookRequest = {
    body: CallFailedEventWebhookPayload;
    key: 'call.failed';
    path?: never;
    query?: never;
};

export type CallCanceledEventWebhookPayload = CallCanceledEvent;

export type CallCanceledEventWebhookRequest = {
    body: CallCanceledEventWebhookPayload;
    key: 'call.canceled';
    path?: never;
    query?: never;
};

export type BatchCompletedEventWebhookPayload = BatchEvent;

export type BatchCompletedEventWebhookRequest = {
    body: BatchCompletedEventWebhookPayload;
    key: 'batch.completed';
    path?: never;
    query?: never;
};

export type BatchCanceledEventWebhookPayload = BatchEvent;

export type BatchCanceledEventWebhookRequest = {
    body: BatchCanceledEventWebhookPayload;
    key: 'batch.canceled';
    path?: never;
    query?: never;
};

export type BatchStoppedEventWebhookPayload = BatchEvent;

export type BatchStoppedEventWebhookRequest = {
    body: BatchStoppedEventWebhookPayload;
    key: 'batch.stopped';
    path?: never;
    query?: never;
};
