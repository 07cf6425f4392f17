# DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.
"""The request and response bodies of openapi.yaml as TypedDicts: plain dicts at run time, typed for checkers."""
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union

__all__ = ["CallStatus", "LanguageSource", "ErrorToken", "RequestProblem", "ApiError", "ExtractedValues", "FieldDefinition", "VoicemailHangup", "VoicemailLeaveMessage", "RedialPolicy", "Weekday", "CallingWindow", "ClientTool", "Transfer", "HoldPolicy", "PlaceCallRequest", "CallTool", "ToolCall", "CallMetadata", "ToolRequest", "PlaceCallResponse", "NumberType", "PreflightResponseNumber", "PreflightResponse", "DoNotCallRequest", "StopWhen", "CreateBatchRequest", "CreateBatchResponse", "BatchItemError", "InvalidBatchError", "BatchPreflightResponse", "BatchStatus", "BatchCounts", "Batch", "BatchList", "BatchRowState", "BatchRowCallsItem", "BatchRow", "BatchRowList", "DoNotCallEntry", "DoNotCallList", "Turn", "Evidence", "AnsweredBy", "TurnStages", "TurnLatency", "BargeInLatency", "CallLatency", "CallRecord", "DeliveryState", "WebhookAttempt", "CallEventName", "CallInProgressEvent", "CallCompletedEvent", "CallNoAnswerEvent", "CallVoicemailEvent", "CallDeclinedEvent", "CallFailedEvent", "CallCanceledEvent", "CallEvent", "CallEventLogEntry", "CallEventLog", "BatchEventName", "BatchEventCounts", "BatchEvent", "BatchEventLogEntry", "BatchEventLog", "StreamStatus", "StreamTurn", "StreamToolCall", "CallSummary", "PlanUsage", "AccountStatsPerDayItem", "AccountStatsMinutes", "AccountStatsLatency", "AccountStatsWebhooks", "AccountStatsErrorsItem", "AccountStats", "SettingsKey", "SettingsAccount", "Settings", "CallList", "CallEventBase"]


CallStatus = Literal["queued", "dialing", "in_progress", "completed", "no_answer", "voicemail", "declined", "failed", "canceled"]
"""The status of a call. The set may grow; clients must tolerate unknown values."""
CALL_STATUS_VALUES: Tuple[CallStatus, ...] = ("queued", "dialing", "in_progress", "completed", "no_answer", "voicemail", "declined", "failed", "canceled")


LanguageSource = Literal["explicit", "inferred", "auto"]
LANGUAGE_SOURCE_VALUES: Tuple[LanguageSource, ...] = ("explicit", "inferred", "auto")


ErrorToken = Literal["to_required", "objective_required", "invalid_number", "invalid_objective", "invalid_context", "invalid_fields", "invalid_caller_id", "invalid_webhook_url", "invalid_metadata", "invalid_voicemail", "invalid_start_at", "invalid_redial", "invalid_calling_window", "invalid_machine_detection", "invalid_on_behalf_of", "invalid_recording_notice", "invalid_send_digits", "invalid_tools", "invalid_transfer", "invalid_hold", "invalid_batch", "invalid_calls", "invalid_defaults", "invalid_max_concurrency", "invalid_stop_when", "destination_opted_out", "invalid_reason", "invalid_after", "invalid_state", "invalid_voice", "invalid_language", "unknown_field", "destination_blocked", "caller_id_not_owned", "invalid_idempotency_key", "invalid_json", "invalid_body", "invalid_limit", "invalid_batch_id", "invalid_cursor", "invalid_status", "invalid_answered_by", "invalid_period", "invalid_query", "invalid_channels", "malformed_request", "unauthorized", "not_found", "method_not_allowed", "request_timeout", "idempotency_key_in_use", "call_already_ended", "batch_already_ended", "redelivery_pending", "destination_refused", "no_webhook_url", "payload_too_large", "unsupported_media_type", "range_not_satisfiable", "idempotency_key_reused", "rate_limited", "too_many_streams", "over_minute_cap", "headers_too_large", "internal_error", "placement_failed", "store_error", "recording_unavailable"]
"""A machine-readable error token. The set may grow; clients must tolerate unknown values."""
ERROR_TOKEN_VALUES: Tuple[ErrorToken, ...] = ("to_required", "objective_required", "invalid_number", "invalid_objective", "invalid_context", "invalid_fields", "invalid_caller_id", "invalid_webhook_url", "invalid_metadata", "invalid_voicemail", "invalid_start_at", "invalid_redial", "invalid_calling_window", "invalid_machine_detection", "invalid_on_behalf_of", "invalid_recording_notice", "invalid_send_digits", "invalid_tools", "invalid_transfer", "invalid_hold", "invalid_batch", "invalid_calls", "invalid_defaults", "invalid_max_concurrency", "invalid_stop_when", "destination_opted_out", "invalid_reason", "invalid_after", "invalid_state", "invalid_voice", "invalid_language", "unknown_field", "destination_blocked", "caller_id_not_owned", "invalid_idempotency_key", "invalid_json", "invalid_body", "invalid_limit", "invalid_batch_id", "invalid_cursor", "invalid_status", "invalid_answered_by", "invalid_period", "invalid_query", "invalid_channels", "malformed_request", "unauthorized", "not_found", "method_not_allowed", "request_timeout", "idempotency_key_in_use", "call_already_ended", "batch_already_ended", "redelivery_pending", "destination_refused", "no_webhook_url", "payload_too_large", "unsupported_media_type", "range_not_satisfiable", "idempotency_key_reused", "rate_limited", "too_many_streams", "over_minute_cap", "headers_too_large", "internal_error", "placement_failed", "store_error", "recording_unavailable")


class RequestProblem(TypedDict):
    """One problem of a request, as the error's `error` and `message` would name it alone."""
    error: ErrorToken
    message: str
    #: The request's value the problem is about, as a dotted path from the body, as messages name it (`to`,
    #: `transfer.to`, `fields.1.name`, an unknown field's own name); empty for the body as a whole.
    field: str


class _ApiErrorRequired(TypedDict):
    error: ErrorToken


class ApiError(_ApiErrorRequired, total=False):
    """Every error response has this shape."""
    #: Human-readable explanation. Never carries secrets or internals.
    message: str


ExtractedValues = Dict[str, Union[str, bool, float, None]]
"""Extracted values keyed by field name. A field not found in the conversation is null."""


class _FieldDefinitionRequired(TypedDict):
    #: Key of the field in `extracted`. A letter or underscore, then letters, digits or underscores; at most
    #: 64 characters; unique within the request.
    name: str


class FieldDefinition(_FieldDefinitionRequired, total=False):
    type: Literal["string", "boolean", "number"]
    #: Meaning of the field; guides extraction.
    description: str


class VoicemailHangup(TypedDict):
    action: Literal["hangup"]


class VoicemailLeaveMessage(TypedDict):
    action: Literal["leave_message"]
    #: What to say after the beep, at most 1000 characters.
    message: str


class _RedialPolicyRequired(TypedDict):
    afterMinutes: int


class RedialPolicy(_RedialPolicyRequired, total=False):
    """Try again when nobody takes the call: up to `onNoAnswer` more calls after a `no_answer` (or a `failed` call
    whose error is transient: `carrier_unreachable`, `carrier_timeout`) and up to `onVoicemail` after a
    `voicemail`, each `afterMinutes` after the previous call ended. A `declined` call is never redialled, nor
    a canceled one, nor one whose number is on the do-not-call list. A redial is a new call with its own id,
    record and events, created `queued` (with `scheduledAt`) in the moment the previous call ends and linked
    both ways (`previousCallId`, `nextCallId`), so it can be canceled before it dials. It does not spend the
    rate-limit window; when it dials, the plan's minutes must not be used up (else it ends `canceled` with error
    `over_minute_cap`, undialled).
    """
    onNoAnswer: int
    onVoicemail: int


Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
WEEKDAY_VALUES: Tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class _CallingWindowRequired(TypedDict):
    #: When the window opens each day, local time, 24-hour `HH:MM`.
    start: str
    #: When it closes, local time, later than `start` on the same day (`24:00` is midnight); a call is dialled
    #: before this minute.
    end: str


class CallingWindow(_CallingWindowRequired, total=False):
    #: The local days on which it opens; every day when absent.
    days: List[Weekday]
    #: An IANA time zone name (`America/New_York`) to read the window in, instead of the number's own zones.
    timeZone: str


class _ClientToolRequired(TypedDict):
    #: The function's name as the model sees it, 1 to 64 letters, digits, `_` or `-`; not one of svc's own
    #: tools (`end_call`, `record_opt_out`, `voicemail_detected`, `press_keys`, `wait_on_hold`,
    #: `keep_listening`, `transfer_call`).
    name: str
    #: What the tool does and when to use it, for the model; 1 to 1024 characters.
    description: str
    #: Where the ToolRequest is POSTed; the same rules as `webhookUrl` (https, a public host, no credentials;
    #: checked again, with the same address rule, at each request). Never shown back.
    url: str


class ClientTool(_ClientToolRequired, total=False):
    """A tool of yours the agent may call during the call (see `tools`)."""
    #: The function's parameters as a JSON Schema (2020-12) of type object, at most 8 KiB as JSON; it must
    #: compile. Without it the tool takes no arguments.
    parameters: Dict[str, Any]
    #: How long svc waits for the whole answer, from 100 to 20000 ms; 5000 when absent.
    timeoutMs: int


class _TransferRequired(TypedDict):
    #: The person's number in E.164, dialled from the call's caller id; not the number called.
    to: str


class Transfer(_TransferRequired, total=False):
    """A transfer to a person the agent may make during the call (see `transfer`)."""
    #: `cold`: the callee is connected to `to` at once. `warm`: the agent calls `to` first and briefs the
    #: person, who takes the call before the callee is joined to them.
    mode: Literal["cold", "warm"]
    #: When the agent transfers, in words, as the agent is told it (`the callee agrees to the offer`).
    #: Default, when the callee asks to speak to a person.
    when: str


class HoldPolicy(TypedDict):
    """Waiting on hold. When the agent hears it is put on hold ("please hold", hold music, a recorded "your call is
    important to us"), it says nothing and its speech model is not driven (no tokens, and for a speech-to-speech
    model no audio sent: svc's own voice activity detection watches the line) until someone speaks; a person is
    answered where the conversation was, a recording is waited through. A hold that lasts longer than
    `maxWaitSec` ends the call: `completed`, `endReason` `hold_timeout`, the summary saying so. The call's
    maximum duration still applies and ends a longer hold first (`endReason` `max_duration`). The record's
    `holdSec` is the time spent on hold.
    """
    #: The longest the agent waits on hold at a time, in seconds of call time (600 when `hold` is absent).
    maxWaitSec: int


class _PlaceCallRequestRequired(TypedDict):
    #: Destination in E.164 format, for example `+14155550123`; must be a valid number for its country.
    to: str
    #: What the AI should accomplish; a clear plain-text goal. At most 4000 characters.
    objective: str


class PlaceCallRequest(_PlaceCallRequestRequired, total=False):
    """Every string (and every key) must be well-formed Unicode without U+0000 (NUL); a string holding U+0000 or a lone surrogate such as `\\ud800` gives 400 with its property's token."""
    #: Background for the AI; not shared with the recipient. At most 10000 characters.
    context: Optional[str]
    #: Up to 20 fields to extract from the transcript after the call. Names must be unique.
    fields: Optional[List[FieldDefinition]]
    #: Absolute HTTPS URL with a public host and no credentials, receiving signed events. (Plain http and
    #: loopback hosts are accepted only when the service runs with SVC_WEBHOOK_ALLOW_PRIVATE=1, for local
    #: development.)
    webhookUrl: Optional[str]
    #: Caller ID override in E.164; must be a number on the account. Default, the key's caller id, then the
    #: account's.
    callerId: Optional[str]
    #: Voice name the AI uses. Default, the key's voice, then the platform default (`alloy`). Must be a voice
    #: of the configured agent, matched case-insensitively; the agents offer `alloy`, `ash`, `ballad`,
    #: `coral`, `echo`, `sage`, `shimmer`, `verse`, `marin` and `cedar` (OpenAI's realtime voices; `marin` and
    #: `cedar` sound best on the GA model).
    voice: Optional[str]
    #: A BCP-47 code (canonicalised, `en-us` becomes `en-US`), or `auto` to mirror whoever answers. When
    #: omitted, inferred from objective and context, falling back to `auto`.
    language: Optional[str]
    #: Your own key-value pairs for this call (an order id, a campaign), returned unchanged on the call
    #: record, in list items and in every webhook event. At most 50 keys of 1 to 40 characters; each value a
    #: string of at most 500 characters. Never sent to the carrier, the voice model or the analyst.
    metadata: Optional[Dict[str, str]]
    #: What to do when an answering machine picks up. `hangup` (the default, as in v1): hang up at once.
    #: `leave_message`: wait for the greeting to end (the beep), speak `message` in the call's language and
    #: voice, then hang up. Either way the call ends `voicemail`; with a message left its record says
    #: `voicemailLeft: true`, its turns and recording hold the message, and the time connected to the machine
    #: is billed.
    voicemail: Union[VoicemailHangup, VoicemailLeaveMessage, None]
    #: When to dial, as an ISO 8601 date-time with its offset, at most 30 days ahead; a time already past
    #: means now. The call stays `queued` until then (it can be canceled meanwhile, and holds its reserved
    #: minute of the plan), and its record shows `scheduledAt`.
    startAt: Optional[str]
    #: Try again when nobody takes the call (see RedialPolicy).
    redial: Optional[RedialPolicy]
    #: The hours, in the callee's own time, in which the call may be dialled; without it, the key's default
    #: window (if it has one) applies, and with neither the call is dialled whenever it is due. Without
    #: `timeZone` the window is read in the zones Google's libphonenumber places the number in (by its
    #: prefix); for a number spanning several zones (a US toll-free number, parts of Idaho, Western
    #: Australia's 08) it is the time the window is open in all of them. The call is dialled only inside the
    #: window, checked again just before each dial: outside it, it waits `queued` for the next opening (its
    #: `scheduledAt`), and so does a redial. The window bounds when the call is dialled; a call dialled just
    #: before the end may run past it (at most the maximum call duration).
    callingWindow: CallingWindow
    #: Whether the carrier listens for an answering machine when the call is picked up (`on`, the default, or
    #: the key's default when it has one). A machine is hung up on (or left the `voicemail` message) only once
    #: it is confirmed: the greeting ended in a beep or silence, or the agent heard a voicemail greeting; a
    #: callee who answers the agent is a person whatever the detection guessed. `off`: no detection is asked
    #: for, whoever picks up is taken to have answered (`answeredBy: unknown`), and the agent talks to them,
    #: for programmes that never meet machines. With `off`, `voicemail` has nothing to act on.
    machineDetection: Literal["on", "off"]
    #: Whom the agent calls for, as it says so to the callee ("I'm calling on behalf of Tony's Pizzeria"), 1
    #: to 200 characters. Default, the key's (set with `svc keys update --on-behalf-of`); with neither, the
    #: agent says it calls on behalf of a customer. Told to the voice model, never to the carrier.
    onBehalfOf: Optional[str]
    #: Whether the agent tells the callee, as it introduces itself, that the call is recorded (every call is).
    #: Default, the key's setting (`svc keys update --recording-notice off`), else `true`. Turn it off only
    #: where the law allows a recorded call without telling the person called.
    recordingNotice: Optional[bool]
    #: Keys to press as soon as the call is answered, to reach a known extension or get past a menu whose keys
    #: you know (`1234#`, `ww2`): `0`-`9`, `*` and `#`, with `w` for a half-second pause and `W` for a whole
    #: second; 1 to 32 characters. On Twilio they are its `SendDigits` on the dial; the sandbox accepts and
    #: records them without pressing them (its menus are the agent's to answer). Kept on the call record. A
    #: menu whose choices must be heard first is the agent's to answer: it presses keys itself as the call
    #: goes.
    sendDigits: Optional[str]
    #: Up to 10 of your own tools the agent may use during the call, beside svc's own (hanging up, the
    #: opt-out, …): each is offered to the voice model by its name, description and parameters, and when the
    #: model calls one, svc POSTs a ToolRequest to its `url`, signed as webhooks are (`X-SVC-Signature` with
    #: the key's webhook secret), and gives the model your JSON answer as the function's output. An answer
    #: that is not a 2xx, not JSON, larger than 16 KiB or later than `timeoutMs` is given to the model as `{
    #: "error": <why> }`, and the call goes on. Every use is on the record (`toolCalls`). Names must differ
    #: and must not be one of svc's own tools' names.
    tools: Optional[List[ClientTool]]
    #: Lets the agent hand the call over to a person at another number, when the condition `when` is met: the
    #: agent says it is transferring and leaves the call. `cold`: the carrier connects the callee to `to` at
    #: once. `warm`: the agent first calls `to` while the callee holds, the person who answers hears a
    #: briefing the agent wrote (who is on the line, why, what was learnt) and presses 1 to take the call; the
    #: agent then tells the callee it is connecting them, joins the two and leaves. Nobody taking it (no
    #: answer, declined, failed): the agent tells the callee and carries on, or ends the call politely. `to`
    #: passes the same guardrails as the number called (countries, premium rate and IRSF, the do-not-call
    #: list) and is dialled from the call's caller id. A transferred call ends `completed` when the agent
    #: leaves; its record says to whom and when (`transferredTo`, `transferredAt`), and `durationSec`, the
    #: recording and billing end there.
    transfer: Optional[Transfer]
    #: How long the agent waits when it is put on hold (see HoldPolicy); without it, 600 s.
    hold: Optional[HoldPolicy]


class CallTool(TypedDict):
    """One of the tools a call was placed with, as the record shows it (its `url` is never shown back)."""
    name: str
    description: str
    #: The JSON Schema the model was offered (`{ "type": "object", "properties": {} }` for a tool placed
    #: without).
    parameters: Dict[str, Any]
    timeoutMs: int


class ToolCall(TypedDict):
    """One use of a client tool by the agent during the call."""
    #: The tool's name.
    name: str
    #: The arguments the model called it with (`{}` when what it wrote was not a JSON object).
    arguments: Dict[str, Any]
    #: `ok`: a 2xx with a JSON answer of at most 16 KiB; `timeout`: no whole answer within the tool's
    #: `timeoutMs`; `failed`: anything else (another status, no connection, an answer that is not JSON or is
    #: too large, a URL the address rule refuses, the call ending first). The set may grow.
    status: Literal["ok", "failed", "timeout"]
    #: From the model's call to the answer (or the failure), in ms.
    latencyMs: int
    #: Why it failed, as the model was told it; null when `ok`. Never names the URL.
    error: Optional[str]
    #: When the model called it.
    at: str


CallMetadata = Dict[str, str]
"""The metadata the call was placed with, exactly as given; null on a call placed without."""


class ToolRequest(TypedDict):
    """The body svc POSTs to a client tool's `url` when the model calls it, with `Content-Type: application/json`,
    `User-Agent: svc-tools/1.0` and `X-SVC-Signature` computed exactly as for webhooks (the SDK's verifyWebhook
    and verifyToolRequest accept it). Answer with a 2xx and a JSON body of at most 16 KiB: an object is given to
    the model as it is, any other JSON value as `{ "result": <value> }`. Redirects are not followed, and a
    request is never retried.
    """
    event: Literal["tool.call"]
    callId: str
    #: The tool's name.
    tool: str
    #: The arguments the model called it with (`{}` when what it wrote was not a JSON object).
    arguments: Dict[str, Any]
    metadata: Optional[CallMetadata]


class _PlaceCallResponseRequired(TypedDict):
    #: A UUIDv7, so call ids sort by the time the call was placed.
    callId: str
    status: Literal["queued"]
    #: The resolved BCP-47 code.
    language: str
    languageSource: LanguageSource


class PlaceCallResponse(_PlaceCallResponseRequired, total=False):
    #: The voice the call will use.
    voice: Optional[str]
    #: When the call is to be dialled, for a call placed with `startAt` or under a calling window (`startAt`,
    #: or the placement's time when it was past or absent, moved to the window's next opening); absent for a
    #: call dialled at once.
    scheduledAt: Optional[str]


NumberType = Literal["fixed_line", "mobile", "fixed_line_or_mobile", "toll_free", "voip", "personal_number", "pager", "uan", "voicemail", "unknown"]
"""The kind of number, by libphonenumber's full metadata. The set may grow; clients must tolerate unknown values."""
NUMBER_TYPE_VALUES: Tuple[NumberType, ...] = ("fixed_line", "mobile", "fixed_line_or_mobile", "toll_free", "voip", "personal_number", "pager", "uan", "voicemail", "unknown")


class PreflightResponseNumber(TypedDict):
    """The destination as it would be dialled."""
    #: The number, E.164.
    e164: str
    #: The number's country, ISO 3166-1 alpha-2 (by the number's region, so +1 876 is JM).
    country: str
    type: NumberType


class _PreflightResponseRequired(TypedDict):
    #: The destination as it would be dialled.
    number: PreflightResponseNumber
    #: The number the call would be placed from (the request's, else the key's default, else the account's).
    callerId: str
    voice: str
    #: The resolved BCP-47 code.
    language: str
    languageSource: LanguageSource
    #: Minutes of the account's plan left this billing period (the plan less the minutes used and those
    #: reserved by calls in flight). Placing the call reserves one of them until it ends.
    minutesRemaining: int


class PreflightResponse(_PreflightResponseRequired, total=False):
    """What placing this call now would do."""
    #: When the call would be dialled, as placeCall would schedule it (under a calling window, its next
    #: opening, which is now when it is open); null for at once.
    scheduledAt: Optional[str]
    #: The calling window that would apply (the request's, else the key's default), its days in full; null for
    #: none.
    callingWindow: Optional[CallingWindow]
    #: The zone the calling window would be read in, when it is one zone (the window's `timeZone`, or the
    #: number's); null without a window or for a number spanning several zones.
    timeZone: Optional[str]
    #: Every zone the calling window would be read in (open in all of them at once); null without a window.
    timeZones: Optional[List[str]]


class _DoNotCallRequestRequired(TypedDict):
    #: The number never to call, E.164; must be a valid number for its country.
    number: str


class DoNotCallRequest(_DoNotCallRequestRequired, total=False):
    #: Why, for your own records.
    reason: Optional[str]


class StopWhen(TypedDict):
    """Stop the batch once `count` of its calls have completed with `extracted[field]` equal to `equals` (every call
    must request `field`). The batch then ends `stopped` (`stopReason` `condition_met`) as a cancel would: calls
    live at that moment finish, and none is dialled after it. Counted exactly, as each call completes.
    """
    field: str
    equals: Union[str, float, bool]
    count: int


class _CreateBatchRequestRequired(TypedDict):
    #: The calls, each a placeCall body (without `startAt`); `defaults` fills in what a call leaves out.
    calls: List[Dict[str, Any]]


class CreateBatchRequest(_CreateBatchRequestRequired, total=False):
    #: Fields every call takes unless it gives its own (any placeCall field but `startAt`).
    defaults: Dict[str, Any]
    #: At most this many of the batch's calls live (queued, dialing or in progress) at once.
    maxConcurrency: int
    #: When the batch starts, as placeCall's `startAt` (at most 30 days ahead; past means now); at once when
    #: absent.
    startAt: str
    #: A calling window for every call that gives none of its own (see placeCall).
    callingWindow: CallingWindow
    #: A redial policy for every call that gives none of its own (see placeCall). A redial belongs to the
    #: batch.
    redial: RedialPolicy
    #: The batch's own pairs, returned on the batch. They are not given to its calls; `defaults.metadata` is.
    metadata: CallMetadata
    #: Where the batch's own events go (its calls' events go to each call's `webhookUrl`).
    webhookUrl: str
    stopWhen: StopWhen


class _CreateBatchResponseRequired(TypedDict):
    batchId: str
    status: Literal["queued"]
    #: How many calls the batch holds.
    total: int


class CreateBatchResponse(_CreateBatchResponseRequired, total=False):
    #: When the batch starts, for one created with `startAt`.
    scheduledAt: Optional[str]


class BatchItemError(TypedDict):
    #: The call's position in `calls`, from 0.
    index: int
    error: ErrorToken
    message: str


class _InvalidBatchErrorRequired(TypedDict):
    error: Literal["invalid_batch", "invalid_calls", "invalid_defaults", "invalid_max_concurrency", "invalid_start_at", "invalid_calling_window", "invalid_redial", "invalid_metadata", "invalid_webhook_url", "invalid_stop_when", "unknown_field", "invalid_idempotency_key", "invalid_json", "invalid_body"]


class InvalidBatchError(_InvalidBatchErrorRequired, total=False):
    #: Human-readable explanation. Never carries secrets or internals.
    message: str
    #: With `invalid_batch`, every bad call, by index.
    errors: List[BatchItemError]


class BatchPreflightResponse(TypedDict):
    #: Whether createBatch would create the batch now.
    valid: bool
    #: How many calls the batch holds.
    total: int
    #: Every bad call, by index, as createBatch's 400 `invalid_batch` would name it; empty when valid.
    errors: List[BatchItemError]


BatchStatus = Literal["queued", "running", "paused", "completed", "canceled", "stopped"]
"""`queued` until it starts; `running`; `paused` when the plan's minutes are used up (it goes on when they are
available); then `completed` (every call ended), `canceled` (cancelBatch) or `stopped` (its `stopWhen` was
met). The set may grow; clients must tolerate unknown values.
"""
BATCH_STATUS_VALUES: Tuple[BatchStatus, ...] = ("queued", "running", "paused", "completed", "canceled", "stopped")


class BatchCounts(TypedDict):
    """The batch's calls by status; `queued` includes the calls not yet released."""
    queued: int
    dialing: int
    in_progress: int
    completed: int
    no_answer: int
    voicemail: int
    declined: int
    failed: int
    canceled: int


class _BatchRequired(TypedDict):
    id: str
    status: BatchStatus
    total: int
    #: The batch's calls by status; `queued` includes the calls not yet released.
    counts: BatchCounts


class Batch(_BatchRequired, total=False):
    maxConcurrency: int
    #: Why the batch is paused (`over_minute_cap`) or stopped (`condition_met`); null otherwise. The set may
    #: grow.
    stopReason: Optional[str]
    stopWhen: Optional[StopWhen]
    #: How many of its completed calls met `stopWhen` (0 without one).
    matched: int
    metadata: Optional[CallMetadata]
    scheduledAt: Optional[str]
    createdAt: str
    startedAt: Optional[str]
    endedAt: Optional[str]


class BatchList(TypedDict):
    batches: List[Batch]


BatchRowState = Literal["waiting", "released", "canceled", "skipped"]
"""Where a batch's row stands: `waiting` until the batch releases it; `released` once its call is made;
`canceled` when the batch was canceled before releasing it; `skipped` when the batch stopped (its `stopWhen`
was met) before releasing it. The set may grow; clients must tolerate unknown values.
"""
BATCH_ROW_STATE_VALUES: Tuple[BatchRowState, ...] = ("waiting", "released", "canceled", "skipped")


class BatchRowCallsItem(TypedDict):
    id: str
    status: CallStatus


class BatchRow(TypedDict):
    """One call of a batch's request, from the batch's creation on."""
    #: The row's position in the request's `calls`, from 0 (as `errors` names a bad call).
    index: int
    #: The number the row calls, E.164.
    to: str
    #: The metadata its call is placed with (its own, or the batch's `defaults.metadata`); null for none.
    metadata: Optional[CallMetadata]
    state: BatchRowState
    #: Why a row ended unreleased, `batch_canceled` (canceled) or the batch's `stopReason` (skipped); null for
    #: a row waiting or released. The set may grow.
    reason: Optional[str]
    #: The call the row was released as (its record is getCall's); null until it is released.
    callId: Optional[str]
    #: The row's calls, each with its status as it stands, in the order they were made: the call it was
    #: released as, then each redial of it. Empty until it is released.
    calls: List[BatchRowCallsItem]


class BatchRowList(TypedDict):
    rows: List[BatchRow]
    #: Pass as `after` for the next page; null on the last page.
    nextAfter: Optional[int]


class _DoNotCallEntryRequired(TypedDict):
    number: str
    reason: Optional[str]
    #: How it came on the list (`call`, the callee asked in a call not to be called again). The set may grow.
    source: Literal["api", "cli", "call"]
    addedAt: str


class DoNotCallEntry(_DoNotCallEntryRequired, total=False):
    #: For source `call`, the call in which the callee asked; null otherwise.
    callId: Optional[str]


class DoNotCallList(TypedDict):
    numbers: List[DoNotCallEntry]
    #: Pass as `after` for the next page; null on the last page.
    nextAfter: Optional[str]


class Turn(TypedDict):
    speaker: Literal["agent", "callee"]
    #: What was said, as in the transcript.
    text: str
    #: When the turn starts, in seconds from the answer (millisecond precision).
    startSec: float
    #: When the turn ends, in seconds from the answer; at most the call's durationSec.
    endSec: float


class Evidence(TypedDict):
    #: Index into the call's `turns` (the same line of `transcript`).
    turn: int
    #: Words copied exactly from that turn's text that give the value.
    quote: str


AnsweredBy = Literal["human", "machine", "fax", "unknown"]
"""Who picked the line up. The set may grow; clients must tolerate unknown values."""
ANSWERED_BY_VALUES: Tuple[AnsweredBy, ...] = ("human", "machine", "fax", "unknown")


class TurnStages(TypedDict):
    """A cascaded agent's answer (`SVC_AGENT=cascaded`), stage by stage, in milliseconds: where `afterMs` went.
    Absent for the realtime agent, whose model does all of it in one step.
    """
    #: From the callee's end of speech to the end of their turn decided (the endpointing silence and the
    #: recogniser's final words).
    endpointMs: int
    #: svc's own time from the end of the turn to the chat model's request.
    ownMs: int
    #: From the chat model's request to its first sentence handed to the voice.
    modelMs: int
    #: From the first sentence handed to the voice to its first audio sent to the line.
    voiceMs: int


class _TurnLatencyRequired(TypedDict):
    #: When the callee stopped speaking (the model's end of speech), in ms from the answer.
    atMs: int
    #: From then to the agent's first audio of its answer sent to the line.
    afterMs: int


class TurnLatency(_TurnLatencyRequired, total=False):
    stages: TurnStages


class BargeInLatency(TypedDict):
    #: When the callee started speaking over the agent (the model's start of speech), in ms from the answer.
    atMs: int
    #: From then to the agent's audio being cleared from the line (the model's voice activity detection
    #: included).
    clearMs: int


class CallLatency(TypedDict):
    """How quickly a live agent answered, in milliseconds of call time: positions on the callee's audio stream from
    the answer (the moment the carrier's media stream started), the clock the model's `audio_start_ms` and
    `audio_end_ms` are read on. Each is measured where svc sees it: the agent's audio as svc sends it to the
    line, the callee's speech as the model reports it. The time includes the model's own (its time to first
    audio) and the network's.
    """
    #: From the answer to the agent's first audio sent to the line; null when the agent never spoke.
    firstAudioMs: Optional[int]
    #: Each agent turn that answered the callee, in order (the first 1,000 of a call).
    turns: List[TurnLatency]
    #: The median of the turns' `afterMs` (nearest rank); null without turns.
    p50Ms: Optional[int]
    #: The 95th percentile of the turns' `afterMs` (nearest rank); null without turns.
    p95Ms: Optional[int]
    #: Each time the callee talked over the agent and the agent's audio was cleared from the line, in order
    #: (the first 1,000 of a call).
    bargeIns: List[BargeInLatency]


class _CallRecordRequired(TypedDict):
    id: str
    status: CallStatus


class CallRecord(_CallRecordRequired, total=False):
    #: Destination number, E.164.
    to: Optional[str]
    objective: Optional[str]
    voice: Optional[str]
    #: Language spoken, BCP-47.
    language: Optional[str]
    languageSource: Optional[LanguageSource]
    #: Plain-English summary; set on completed.
    summary: Optional[str]
    #: The whole conversation, one turn per line, `Speaker: text`.
    transcript: Optional[str]
    #: The conversation turn by turn, in spoken order, each with its time in seconds from the answer, aligned
    #: with the recording (second 0 of the recording is the answer). Null until a call that was answered has
    #: ended, and for a call never answered; an answered call in which nothing was said has an empty list. A
    #: turn cut by the end of the call ends at the call's end.
    turns: Optional[List[Turn]]
    extracted: Optional[ExtractedValues]
    #: For each requested field, where its value was said: `turn`, the index of the turn in `turns` (and of
    #: the line in `transcript`), and `quote`, words copied exactly from that turn; null for a field whose
    #: value is null. A value the analyst could not point to in what was said is not reported (it is null).
    #: Null when no fields were requested or the call did not complete.
    evidence: Optional[Dict[str, Optional[Evidence]]]
    #: Authenticated URL of the recording, `{base_url}/v1/agent/calls/<callId>/recording`; null when the call
    #: has no recording.
    recordingUrl: Optional[str]
    #: When the call was answered.
    startedAt: Optional[str]
    endedAt: Optional[str]
    #: Seconds connected, from answer to end, in call time (in the sandbox it does not shrink with
    #: SVC_SANDBOX_TIME_SCALE, and equals the recording's length); 0 for a call that was never answered.
    #: Billing rounds it up to whole minutes per call.
    durationSec: Optional[float]
    #: Error token on failed calls, null otherwise. The set may grow; clients must tolerate unknown values.
    #: `carrier_unreachable` the network could not reach the number; `carrier_rejected` the carrier refused to
    #: place the call; `dial_failed` the carrier's API failed while dialling (whether it dialled is unknown,
    #: so the call is not retried); `engine_interrupted` the service stopped between dialling and recording
    #: the carrier's reference (the call is never dialled twice); `carrier_timeout` the carrier stopped
    #: reporting and the watchdog ended the call; `carrier_throttled` the carrier kept refusing the dial as
    #: too many requests (Twilio's 429) for as long as the watchdog waits, and nothing was dialled (safe to
    #: place again); `call_dropped` the line dropped after the answer (the transcript and recording of what
    #: was said are kept); `agent_unavailable` the AI agent's speech model could not be reached, refused the
    #: session or stopped answering, and could not be brought back: the callee heard a short apology and the
    #: call was hung up (the transcript of what was said before is kept, the summary says so, no fields are
    #: extracted); `engine_error` the service could not step the call (its steps kept failing), so it ended it
    #: rather than leave it live; what was said, if anything, is kept. On a `canceled` call, undialled:
    #: `destination_opted_out` the number was on the do-not-call list when it was due; `over_minute_cap` a
    #: redial found the plan's minutes used up; `outside_calling_window` its calling window no longer opens in
    #: all of the number's zones within a week (a DST change can do this to a narrow window across zones).
    error: Optional[str]
    #: Who picked the line up; null when nobody did (no answer, declined, failed before the answer, or not yet
    #: answered).
    answeredBy: Optional[AnsweredBy]
    #: When the call was scheduled to be dialled (`startAt`, or the placement's time when that was past, moved
    #: to the calling window's next opening; the engine moves it again when the window has shut by its turn);
    #: null for a call placed to be dialled at once.
    scheduledAt: Optional[str]
    #: The calling window the call is dialled in (the placement's, else its key's default when placed), its
    #: days in full; null for none.
    callingWindow: Optional[CallingWindow]
    #: The zone the calling window is read in, when it is one zone (the window's `timeZone`, or the number's);
    #: null without a window or for a number spanning several zones (see `timeZones`).
    timeZone: Optional[str]
    #: Every zone the calling window is read in; it is open when it is open in all of them. Null without a
    #: window.
    timeZones: Optional[List[str]]
    #: For a redial, the call it follows; null otherwise.
    previousCallId: Optional[str]
    #: The redial that follows this call, created when it ended; null when none was (or is yet).
    nextCallId: Optional[str]
    #: True when the call reached an answering machine and left the placement's voicemail message after the
    #: beep; false otherwise.
    voicemailLeft: bool
    #: The keys the call was placed to press once answered (the placement's `sendDigits`); null when none.
    sendDigits: Optional[str]
    #: The hold policy the call was placed with (`hold`); null when none was given (the agent waits up to 600
    #: s).
    hold: Optional[HoldPolicy]
    #: Seconds the call spent on hold (from the agent starting to wait to someone speaking, or to the end), in
    #: call time; 0 for an answered call never put on hold; null until an answered call has ended, and for a
    #: call never answered.
    holdSec: Optional[float]
    #: Why the conversation of a `completed` call ended; null for every other status and until the call has
    #: ended. The set may grow; clients must tolerate unknown values. `hung_up` the agent or the callee hung
    #: up; `max_duration` the call reached the service's maximum call duration; `minute_cap` the account's
    #: minute allowance ran out; `canceled` the client canceled the call while it was live; `transferred` the
    #: agent handed the call over to a person and left (see `transfer`); `hold_timeout` the agent waited on
    #: hold longer than the call's `hold.maxWaitSec` and hung up.
    endReason: Optional[str]
    #: The batch the call belongs to (see createBatch); null for a call placed on its own.
    batchId: Optional[str]
    #: True when the callee asked in the call not to be called again. The agent acknowledges and ends the
    #: call, and in the transaction that ends it the number goes on the account's do-not-call list (reason
    #: `callee_request`, source `call`, with this call's id), so no later call or redial to it is dialled.
    #: False otherwise.
    optOut: bool
    metadata: Optional[CallMetadata]
    #: How quickly the live agent answered on the line, measured by svc where it sees the line and the model;
    #: null for a call no live agent spoke on (never answered, a sandbox call, a scripted agent), and until
    #: the agent's session on the line has ended.
    latency: Optional[CallLatency]
    #: The client tools the call was placed with (`tools`), without their URLs; null for none.
    tools: Optional[List[CallTool]]
    #: Each use of a client tool by the agent, in the order the model called them (the first 100 of a call),
    #: written as each is answered, and each also sent on the live streams as a `tool_call` event; empty when
    #: none was used. svc's own tools (hanging up, the opt-out) are not listed.
    toolCalls: List[ToolCall]
    #: The transfer the call was placed with (`transfer`), its defaults filled in; null for none.
    transfer: Optional[Transfer]
    #: The number the agent handed the call over to, once it did (the call then ended `completed` when the
    #: agent left); null otherwise.
    transferredTo: Optional[str]
    #: When the agent handed the call over and left it (the call's `endedAt`); null when it did not.
    transferredAt: Optional[str]
    #: When the call was placed (accepted by placeCall, or released by its batch, or created as a redial).
    createdAt: str
    #: The number the call is made from, E.164 (the request's `callerId`, else the key's, else the account's).
    callerId: str
    #: Whole minutes billed for the call, its connected time rounded up (0 for a call never connected), set
    #: when it ends; null before.
    billedMinutes: Optional[int]


DeliveryState = Literal["pending", "delivered", "failed", "gone", "refused", "none"]
"""`pending`: being delivered (the next attempt is at `nextAttemptAt`); `delivered`: a 2xx was received;
`failed`: the retry schedule (or a redelivery's one attempt) ended without a 2xx; `gone`: the receiver answered
410 Gone, to this event or an earlier one of the call; `refused`: the address rule refused the URL; `none`:
the call (or batch) has no webhookUrl, so the event is logged and never sent. The set may grow.
"""
DELIVERY_STATE_VALUES: Tuple[DeliveryState, ...] = ("pending", "delivered", "failed", "gone", "refused", "none")


class WebhookAttempt(TypedDict):
    attempt: int
    at: str
    #: The receiver's HTTP status; null when none came (timeout, no connection, refused).
    statusCode: Optional[int]
    #: Why the attempt failed, if it did; never names the URL or its host.
    error: Optional[str]
    latencyMs: int
    #: The attempt was asked for with redeliverEvent (or redeliverBatchEvent).
    redelivery: bool


CallEventName = Literal["call.in_progress", "call.completed", "call.no_answer", "call.voicemail", "call.declined", "call.failed", "call.canceled"]
CALL_EVENT_NAME_VALUES: Tuple[CallEventName, ...] = ("call.in_progress", "call.completed", "call.no_answer", "call.voicemail", "call.declined", "call.failed", "call.canceled")


class _CallInProgressEventRequired(TypedDict):
    event: Literal["call.in_progress"]
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: Literal["in_progress"]
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallInProgressEvent(_CallInProgressEventRequired, total=False):
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str


class _CallCompletedEventRequired(TypedDict):
    event: Literal["call.completed"]
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: Literal["completed"]
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallCompletedEvent(_CallCompletedEventRequired, total=False):
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str


class _CallNoAnswerEventRequired(TypedDict):
    event: Literal["call.no_answer"]
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: Literal["no_answer"]
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallNoAnswerEvent(_CallNoAnswerEventRequired, total=False):
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str


class _CallVoicemailEventRequired(TypedDict):
    event: Literal["call.voicemail"]
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: Literal["voicemail"]
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallVoicemailEvent(_CallVoicemailEventRequired, total=False):
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str


class _CallDeclinedEventRequired(TypedDict):
    event: Literal["call.declined"]
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: Literal["declined"]
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallDeclinedEvent(_CallDeclinedEventRequired, total=False):
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str


class _CallFailedEventRequired(TypedDict):
    event: Literal["call.failed"]
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: Literal["failed"]
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallFailedEvent(_CallFailedEventRequired, total=False):
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str


class _CallCanceledEventRequired(TypedDict):
    event: Literal["call.canceled"]
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: Literal["canceled"]
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallCanceledEvent(_CallCanceledEventRequired, total=False):
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str


CallEvent = Union[CallInProgressEvent, CallCompletedEvent, CallNoAnswerEvent, CallVoicemailEvent, CallDeclinedEvent, CallFailedEvent, CallCanceledEvent]
"""Any webhook event, discriminated by `event`."""


class CallEventLogEntry(TypedDict):
    eventId: str
    event: CallEventName
    #: When the event was built (its payload's timestamp).
    timestamp: str
    state: DeliveryState
    #: The attempts kept, oldest first; an event keeps its first attempt and its last 20.
    attempts: List[WebhookAttempt]
    #: How many attempts were made between the first and the last 20 that are no longer kept (0 when every
    #: attempt is listed).
    attemptsOmitted: int
    #: When the next attempt is due, while the state is pending.
    nextAttemptAt: Optional[str]
    #: When a 2xx was last received for it.
    deliveredAt: Optional[str]
    payload: CallEvent


class CallEventLog(TypedDict):
    events: List[CallEventLogEntry]


BatchEventName = Literal["batch.completed", "batch.canceled", "batch.stopped"]
BATCH_EVENT_NAME_VALUES: Tuple[BatchEventName, ...] = ("batch.completed", "batch.canceled", "batch.stopped")


class BatchEventCounts(TypedDict):
    queued: int
    dialing: int
    in_progress: int
    completed: int
    no_answer: int
    voicemail: int
    declined: int
    failed: int
    canceled: int


class BatchEvent(TypedDict):
    """A batch's own event, sent once as it ends, signed as a call's events are. `counts` are the batch's calls by status at that moment (its calls not released count as canceled)."""
    event: BatchEventName
    #: `<batchId>:<event>:<epoch ms>`; the same on every retry of the delivery.
    eventId: str
    timestamp: str
    batchId: str
    status: BatchStatus
    total: int
    counts: BatchEventCounts
    stopReason: Optional[str]
    matched: int
    metadata: Optional[CallMetadata]
    endedAt: str


class BatchEventLogEntry(TypedDict):
    """A batch's own event in its log; the same fields as a call's (CallEventLogEntry)."""
    eventId: str
    event: BatchEventName
    #: When the event was built (its payload's timestamp).
    timestamp: str
    state: DeliveryState
    #: The attempts kept, oldest first; an event keeps its first attempt and its last 20.
    attempts: List[WebhookAttempt]
    #: How many attempts were made between the first and the last 20 that are no longer kept (0 when every
    #: attempt is listed).
    attemptsOmitted: int
    #: When the next attempt is due, while the state is pending.
    nextAttemptAt: Optional[str]
    #: When a 2xx was last received for it.
    deliveredAt: Optional[str]
    payload: BatchEvent


class BatchEventLog(TypedDict):
    events: List[BatchEventLogEntry]


class _StreamStatusRequired(TypedDict):
    #: `<callId>:status:<status>`; the same on every stream and every reconnect.
    id: str
    callId: str
    batchId: Optional[str]
    status: CallStatus
    #: When the call reached the status, as its record has it (`startedAt` for in_progress, `endedAt` for a
    #: terminal status).
    timestamp: str
    #: For a terminal status, the call's durationSec; null before.
    durationSec: Optional[float]
    #: For a terminal status, the call's error; null before.
    error: Optional[str]


class StreamStatus(_StreamStatusRequired, total=False):
    """The data of a stream's `status` event."""
    #: For a terminal status of a call a live agent spoke on, the record's `latency` as it stood when the
    #: status was sent; absent otherwise.
    latency: CallLatency


class StreamTurn(TypedDict):
    """The data of a stream's `turn` event, a turn of the conversation as it is heard."""
    #: `<callId>:turn:<index>`.
    id: str
    callId: str
    batchId: Optional[str]
    #: The turn's place in the call's turns (0 first), as in the record's `turns`.
    index: int
    speaker: Literal["agent", "callee"]
    text: str
    #: When the turn starts, in seconds from the answer.
    startSec: float
    #: When it ends, in seconds from the answer.
    endSec: float
    #: When it was heard (its end).
    timestamp: str


class StreamToolCall(TypedDict):
    """The data of a stream's `tool_call` event: a use of one of the call's client tools, as it is answered, with
    the fields of the record's ToolCall (its name, arguments, status, latency, error and when the model called
    it). Never the tool's URL, its answer or a secret.
    """
    #: The tool's name.
    name: str
    #: The arguments the model called it with (`{}` when what it wrote was not a JSON object).
    arguments: Dict[str, Any]
    #: `ok`: a 2xx with a JSON answer of at most 16 KiB; `timeout`: no whole answer within the tool's
    #: `timeoutMs`; `failed`: anything else (another status, no connection, an answer that is not JSON or is
    #: too large, a URL the address rule refuses, the call ending first). The set may grow.
    status: Literal["ok", "failed", "timeout"]
    #: From the model's call to the answer (or the failure), in ms.
    latencyMs: int
    #: Why it failed, as the model was told it; null when `ok`. Never names the URL.
    error: Optional[str]
    #: When the model called it.
    at: str
    #: `<callId>:tool_call:<index>`.
    id: str
    callId: str
    batchId: Optional[str]
    #: The use's place in the record's `toolCalls` (0 first).
    index: int
    #: When it was answered (or failed); `at` is when the model called it.
    timestamp: str


class _CallSummaryRequired(TypedDict):
    id: str
    status: CallStatus


class CallSummary(_CallSummaryRequired, total=False):
    to: Optional[str]
    objective: Optional[str]
    summary: Optional[str]
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    error: Optional[str]
    metadata: Optional[CallMetadata]
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: When the call was placed (accepted).
    createdAt: str
    #: Who picked the line up; null when nobody did (yet).
    answeredBy: Optional[AnsweredBy]
    #: The number the call is made from, E.164.
    callerId: str


class PlanUsage(TypedDict):
    """The account's plan and its use in the current billing period (a calendar month, UTC)."""
    #: Outbound minutes the plan allows per billing period.
    planMinutes: int
    #: Minutes billed by the period's ended calls.
    usedMinutes: int
    #: Minutes reserved by calls in flight (one each).
    reservedMinutes: int
    periodStart: str
    periodEnd: str


class AccountStatsPerDayItem(TypedDict):
    date: str
    calls: int


class AccountStatsMinutes(TypedDict):
    #: Minutes billed by the period's calls.
    billed: int
    plan: PlanUsage


class AccountStatsLatency(TypedDict):
    """Turn latency of the period's calls a live agent spoke on, from each call's own figures (its `latency`)."""
    #: Calls with at least one timed turn.
    calls: int
    #: The median of those calls' median turn latency (nearest rank); null without such calls.
    p50Ms: Optional[int]
    #: The 95th percentile of those calls' 95th-percentile turn latency (nearest rank); null without such
    #: calls.
    p95Ms: Optional[int]


class AccountStatsWebhooks(TypedDict):
    """The account's webhook events made in the period (its calls' and its batches') whose delivery ended failed (retries exhausted) or gone (410)."""
    failed: int
    gone: int


class AccountStatsErrorsItem(TypedDict):
    error: str
    calls: int


class AccountStats(TypedDict):
    #: The period's start (`createdFrom`), inclusive.
    periodStart: str
    #: The period's end (`createdTo`), exclusive.
    periodEnd: str
    #: Calls created in the period.
    calls: int
    #: Calls created on each UTC day the period touches, in order, days without calls included.
    perDay: List[AccountStatsPerDayItem]
    #: The period's calls by their status now; every status is present.
    byStatus: Dict[str, int]
    #: The period's calls by who picked the line up; `none` for calls nobody answered (yet).
    byAnsweredBy: Dict[str, int]
    #: Of the period's ended calls (every terminal status but canceled), the share someone answered (0 to 1);
    #: null without such calls.
    answerRate: Optional[float]
    #: Of the same calls, the share that ended completed (0 to 1); null without such calls.
    completionRate: Optional[float]
    minutes: AccountStatsMinutes
    #: Turn latency of the period's calls a live agent spoke on, from each call's own figures (its `latency`).
    latency: AccountStatsLatency
    #: The account's webhook events made in the period (its calls' and its batches') whose delivery ended
    #: failed (retries exhausted) or gone (410).
    webhooks: AccountStatsWebhooks
    #: The commonest `error` tokens of the period's calls, most frequent first (ties by token), at most 5.
    errors: List[AccountStatsErrorsItem]


class SettingsKey(TypedDict):
    """The key the request was made with, and the defaults its calls start from."""
    name: str
    #: The first characters of the key, to tell keys apart.
    hint: str
    #: The key's default caller id; null to use the account's.
    callerId: Optional[str]
    #: The key's default voice; null for the service's (`defaultVoice`).
    voice: Optional[str]
    callingWindow: Optional[CallingWindow]
    machineDetection: Literal["on", "off"]
    onBehalfOf: Optional[str]
    recordingNotice: bool


class SettingsAccount(TypedDict):
    name: str
    defaultCallerId: Optional[str]
    #: The account's numbers, the caller ids its calls may use, in E.164 order.
    numbers: List[str]


class Settings(TypedDict):
    #: The key the request was made with, and the defaults its calls start from.
    key: SettingsKey
    account: SettingsAccount
    plan: PlanUsage
    #: The first 8 hex digits of the SHA-256 of the key's current webhook signing secret, to tell which secret
    #: a receiver holds; the secret itself is never shown.
    webhookSecretFingerprint: str
    #: The voices a call may use.
    voices: List[str]
    #: The voice of a call placed without one, when its key names none.
    defaultVoice: str


class _CallListRequired(TypedDict):
    calls: List[CallSummary]


class CallList(_CallListRequired, total=False):
    #: Pass as `cursor` (with the same filters) for the next page; null on the last page.
    nextCursor: Optional[str]


class _CallEventBaseRequired(TypedDict):
    event: CallEventName
    #: `<callId>:<event name>:<epoch milliseconds>`; unique per event, reused by every retry of its delivery.
    #: Receivers deduplicate on it.
    eventId: str
    #: When the event was built. Receivers order by it.
    timestamp: str
    callId: str
    status: CallStatus
    to: str
    objective: str
    startedAt: Optional[str]
    endedAt: Optional[str]
    durationSec: Optional[float]
    summary: Optional[str]
    extracted: Optional[ExtractedValues]
    error: Optional[str]
    #: Who picked the line up, as on the call record; null when nobody did.
    answeredBy: Optional[AnsweredBy]
    #: The call's metadata as placed; null when it was placed without.
    metadata: Optional[CallMetadata]
    #: On a terminal event, the redial created as this call ended (see placeCall's `redial`); null otherwise.
    nextCallId: Optional[str]


class CallEventBase(_CallEventBaseRequired, total=False):
    """The payload of every event. Fields not yet available when the event is built are null. No transcript and no recording URL; read them with getCall."""
    #: The batch the call belongs to; null for a call placed on its own.
    batchId: Optional[str]
    #: On a terminal event, whether the callee asked in the call not to be called again (see the record's
    #: `optOut`); false otherwise.
    optOut: bool
    #: Only on the `call.completed` of a call the agent handed over to a person (see the record's
    #: `transferredTo`); absent otherwise.
    transferredTo: str
    #: With `transferredTo`, when the agent handed the call over and left it.
    transferredAt: str
