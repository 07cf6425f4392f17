# DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.
"""One method per operation of openapi.yaml. The class holds no transport: SvcClient supplies `_call`."""
from __future__ import annotations

from typing import Any, Iterator, Literal, Mapping, Optional, cast

from ..download import Download
from ..live_stream import LiveEvent
from .models import PlaceCallRequest, PlaceCallResponse, PreflightResponse, DoNotCallRequest, CreateBatchRequest, CreateBatchResponse, BatchPreflightResponse, Batch, BatchList, BatchRowList, DoNotCallEntry, DoNotCallList, CallRecord, CallEventLogEntry, CallEventLog, BatchEventLogEntry, BatchEventLog, AccountStats, Settings, CallList


class Operations:
    def _call(
        self,
        operation_id: str,
        method: str,
        path: str,
        path_params: Mapping[str, Any],
        query: Mapping[str, Any],
        headers: Mapping[str, Optional[str]],
        body: Any,
        answer: Literal["json", "none", "binary", "stream"],
    ) -> Any:
        raise NotImplementedError

    def list_calls(self, *, limit: Optional[int] = None, batch_id: Optional[str] = None, cursor: Optional[str] = None, status: Optional[str] = None, answered_by: Optional[Literal["human", "machine", "fax", "unknown", "none"]] = None, created_from: Optional[str] = None, created_to: Optional[str] = None, q: Optional[str] = None) -> CallList:
        """List recent calls

        Calls placed with this key, most recent first (by creation time, then id), a page at a time: pass the page's
        `nextCursor` as `cursor` for the next, with the same filters; `nextCursor` is null on the last page. With
        filters, only the calls matching all of them: `batchId`, `status`, `answeredBy`, `createdFrom` and
        `createdTo`, and `q`, a search of the number, objective and metadata values.
        """
        return cast("CallList", self._call("listCalls", "GET", "/v1/agent/calls", {}, {"limit": limit, "batchId": batch_id, "cursor": cursor, "status": status, "answeredBy": answered_by, "createdFrom": created_from, "createdTo": created_to, "q": q}, {}, None, "json"))

    def place_call(self, body: PlaceCallRequest, *, idempotency_key: Optional[str] = None) -> PlaceCallResponse:
        """Place a call

        Validates the request, applies the guardrails, creates a call record with status `queued` and returns at
        once. No call is placed when validation or a guardrail fails.

        The key's rate-limit window counts calls placed: only an accepted placement (202) spends it, and a request
        made while it is full gets 429 `rate_limited` before anything else is checked. Otherwise the error's
        `error` is the first that applies, in this order:
        `to_required`, `objective_required`, `invalid_number`, `invalid_objective`, `invalid_context`,
        `invalid_fields`, `invalid_caller_id`, `invalid_webhook_url`, `invalid_metadata`, `invalid_voicemail`, `invalid_start_at`, `invalid_redial`, `invalid_calling_window` (its shape), `invalid_machine_detection`, `invalid_on_behalf_of`, `invalid_recording_notice`, `invalid_send_digits`, `invalid_tools`, `invalid_transfer`, `invalid_hold`, `unknown_field`, `invalid_voice`,
        `invalid_language`, `destination_blocked` (`to`, then `transfer.to`), `invalid_calling_window` (its zone, and whether it ever opens in the number's zones), `destination_opted_out` (`to`, then `transfer.to`), `caller_id_not_owned`, and last the minute cap (429
        `over_minute_cap`). A 400 also lists every problem of the request in `errors`
        (the first is `error` and `message`), so a client can fix them all at once. Malformed JSON (400 `invalid_json`), a body nesting more than 32 levels deep (400 with the
        token of the property holding it), a body over 64 KiB (413) and a non-JSON body (415) are refused before any
        of this and count against nothing.
        """
        return cast("PlaceCallResponse", self._call("placeCall", "POST", "/v1/agent/calls", {}, {}, {"Idempotency-Key": idempotency_key}, body, "json"))

    def preflight_call(self, body: PlaceCallRequest) -> PreflightResponse:
        """Check a call without placing it

        Takes the body of placeCall and runs every check placeCall runs, in the same order, without placing a call:
        nothing is written, the key's rate-limit window is not spent, no minute is reserved and no Idempotency-Key
        is read or claimed. A call placeCall would refuse gets the same status and token (`rate_limited` when the
        key's window is full, the 400s of validation and the guardrails with the same `errors`, 429
        `over_minute_cap`); one it would place
        gets 200 with what would happen: the number as dialled, the caller id, voice and language the call would
        use, and the minutes left on the plan. The answer holds for that moment: the window, the plan and the
        account's numbers may change before the call is placed.
        """
        return cast("PreflightResponse", self._call("preflightCall", "POST", "/v1/agent/calls/preflight", {}, {}, {}, body, "json"))

    def list_batches(self, *, limit: Optional[int] = None) -> BatchList:
        """List recent batches

        Batches created with this key, most recent first.
        """
        return cast("BatchList", self._call("listBatches", "GET", "/v1/agent/batches", {}, {"limit": limit}, {}, None, "json"))

    def create_batch(self, body: CreateBatchRequest, *, idempotency_key: Optional[str] = None) -> CreateBatchResponse:
        """Place a batch of calls

        Places up to 10,000 calls from one request. Each call is a placeCall body; `defaults` holds fields shared by
        every call (a call's own fields replace them). Every call is checked as placeCall checks one, and the batch
        is all or nothing: if any call is bad, nothing is created and the answer is 400 `invalid_batch` with
        `errors`, naming every bad call by its index with the error placeCall would give it (its guardrails and the
        do-not-call list included). A call does not take `startAt`: the batch's own `startAt` starts it.

        The batch then releases its calls in order, never more than `maxConcurrency` of them live (queued, dialing
        or in progress) at once, across every worker process. Each is a call of its own (its id, record and events,
        to its own `webhookUrl`), carrying `batchId`. Its calls reserve minutes of the plan as they are released,
        and when the plan is used up the batch is `paused` (`stopReason` `over_minute_cap`) rather than failing
        calls, and goes on when minutes are available again. It completes when its last call ends.

        A batch request counts once against the key's per-minute calls window whether it is created or refused
        after its body was read (invalid JSON, a body nested too deep, a bad field, a bad call, a reused
        Idempotency-Key): checking up to 16 MiB costs the service, so it costs the sender. A replay of its stored
        answer spends nothing, nor does a refusal made before the body is read (the Idempotency-Key header, the
        media type, the size, no body). A batch sent while the window is full is 429 `rate_limited` before its
        body is read, with `Connection: close`: the connection is closed and the rest of the body is not read.

        The body may be up to 16 MiB (413 above). An `Idempotency-Key` is accepted, as on placeCall.
        """
        return cast("CreateBatchResponse", self._call("createBatch", "POST", "/v1/agent/batches", {}, {}, {"Idempotency-Key": idempotency_key}, body, "json"))

    def preflight_batch(self, body: CreateBatchRequest) -> BatchPreflightResponse:
        """Check a batch without creating it

        Takes the body of createBatch and runs every check createBatch runs, in the same order, without creating
        anything: every call is checked as placeCall checks one (its schema, its guardrails, the do-not-call list
        and the caller ids). A batch whose calls createBatch would refuse with 400 `invalid_batch` gets 200 with
        `valid: false` and `errors`, exactly the `errors` that refusal would carry (every bad call by its index);
        one it would create gets 200 with `valid: true` and no errors. A batch whose own fields are malformed gets
        the 400 createBatch would give it (its token). Checking up to 16 MiB costs the service as creating does, so
        a preflight counts once against the key's calls window as createBatch does (429 `rate_limited` before its
        body is read when the window is full). No Idempotency-Key is read. The answer holds for that moment.
        """
        return cast("BatchPreflightResponse", self._call("preflightBatch", "POST", "/v1/agent/batches/preflight", {}, {}, {}, body, "json"))

    def get_batch(self, id: str) -> Batch:
        """Get a batch

        The batch as it stands, with its calls counted by status. Another key's batch is 404 `not_found`, as a call is.
        """
        return cast("Batch", self._call("getBatch", "GET", "/v1/agent/batches/{id}", {"id": id}, {}, {}, None, "json"))

    def cancel_batch(self, id: str) -> Batch:
        """Cancel a batch

        The batch ends `canceled` and releases no more calls. Its calls not yet dialled end `canceled` at once (each
        with its `call.canceled` event, never dialled, nothing billed); its calls being dialled or live finish as they
        would have. 200 with the batch; cancelling a canceled batch is 200 again; a batch that ended otherwise is 409
        `batch_already_ended`; another key's batch is 404 `not_found`. The request has no body.
        """
        return cast("Batch", self._call("cancelBatch", "POST", "/v1/agent/batches/{id}/cancel", {"id": id}, {}, {}, None, "json"))

    def list_batch_rows(self, id: str, *, limit: Optional[int] = None, after: Optional[int] = None, state: Optional[Literal["waiting", "released", "canceled", "skipped"]] = None) -> BatchRowList:
        """List a batch's rows

        Every row of the batch, from its creation on, in index order, a page at a time: each call of the request's
        `calls` as checked (its `index`, `to` and `metadata`) and where it stands. A row is `waiting` until the batch
        releases it; `released` once it has, with the `callId` of its call and, in `calls`, that call and each redial
        of it with its status; `canceled` (reason `batch_canceled`) or `skipped` (reason the batch's `stopReason`,
        `condition_met`) when the batch ended before releasing it. The rows add up to the batch's `counts`: their
        `calls` by status, with the waiting rows under `queued` and the canceled and skipped rows under `canceled`.
        Pass a page's `nextAfter` as `after` for the next; `state` lists the rows in that state alone. Another
        key's batch is 404 `not_found`.
        """
        return cast("BatchRowList", self._call("listBatchRows", "GET", "/v1/agent/batches/{id}/rows", {"id": id}, {"limit": limit, "after": after, "state": state}, {}, None, "json"))

    def get_stats(self, *, created_from: Optional[str] = None, created_to: Optional[str] = None) -> AccountStats:
        """Read the account's call statistics for a period

        What the account's calls (every key's) did in a period, by the calls' creation time: calls per day (UTC
        days), counts by status and by who answered, the answer and completion rates, the minutes they billed and
        the plan's usage this billing period, turn latency, webhook deliveries that failed or were gone, and the
        commonest errors. Another account's calls never count. The period (`createdFrom`, `createdTo`: the same filters listCalls takes) defaults to the 30 days before now.
        """
        return cast("AccountStats", self._call("getStats", "GET", "/v1/agent/stats", {}, {"createdFrom": created_from, "createdTo": created_to}, {}, None, "json"))

    def get_settings(self) -> Settings:
        """Read the key's settings and the account's plan

        What a call placed with this key starts from: the key's defaults (caller id, voice, calling window,
        answering-machine detection, on whose behalf, the recording notice), its name and hint; the account's
        numbers and plan with its usage this billing period; the fingerprint of the key's webhook signing secret
        (never the secret); and the voices the service offers. Keys and their settings are changed with the CLI
        (`svc keys ...`), not through the API.
        """
        return cast("Settings", self._call("getSettings", "GET", "/v1/agent/settings", {}, {}, {}, None, "json"))

    def list_do_not_call(self, *, limit: Optional[int] = None, after: Optional[str] = None) -> DoNotCallList:
        """List the account's do-not-call list

        The account's numbers in E.164 order, a page at a time; pass the page's `nextAfter` as `after` for the next. Only this account's list is ever shown.
        """
        return cast("DoNotCallList", self._call("listDoNotCall", "GET", "/v1/agent/do-not-call", {}, {"limit": limit, "after": after}, {}, None, "json"))

    def add_do_not_call(self, body: DoNotCallRequest) -> DoNotCallEntry:
        """Add a number to the account's do-not-call list

        The number is never called again by any key of the account: a placement to it is 400
        `destination_opted_out`, and a call to it not yet dialled (scheduled, queued) ends `canceled` with error
        `destination_opted_out` when its time comes, undialled. 201 when added; 200 with the entry as it stands when
        the number was already listed (its reason is kept).
        """
        return cast("DoNotCallEntry", self._call("addDoNotCall", "POST", "/v1/agent/do-not-call", {}, {}, {}, body, "json"))

    def remove_do_not_call(self, number: str) -> None:
        """Remove a number from the account's do-not-call list

        The number may be called again. A number not on this account's list (another account's included) is 404 `not_found`.
        """
        self._call("removeDoNotCall", "DELETE", "/v1/agent/do-not-call/{number}", {"number": number}, {}, {}, None, "none")

    def get_call(self, id: str) -> CallRecord:
        """Get a call"""
        return cast("CallRecord", self._call("getCall", "GET", "/v1/agent/calls/{id}", {"id": id}, {}, {}, None, "json"))

    def cancel_call(self, id: str, *, idempotency_key: Optional[str] = None) -> CallRecord:
        """Cancel a call

        Ends a call the client no longer wants.

        - A call not yet dialled (`queued`, or `dialing` while the carrier has not taken the dial) is never dialled:
          it ends `canceled` at once, with one `call.canceled` event, no minute billed. The answer is 200 with the
          record, status `canceled`.
        - A call being dialled or live (`dialing`, `in_progress`) is taken down by the engine within moments: the
          answer is 202 with the record as it stands, and the call then ends. A line not yet answered ends
          `canceled` (never connected, nothing billed); an answered call is hung up and ends `completed` with what was
          said, its summary saying that the client ended it. What happened on the line before the cancel stands: a
          call answered before it is a completed call, and one the carrier had already ended keeps that ending.
        - Cancelling a call already `canceled` is 200 with its record (the request is idempotent); a call that
          ended otherwise is 409 `call_already_ended`; another key's call is 404 `not_found`.

        An `Idempotency-Key` is accepted: a retry with the same key returns the first answer with
        `Idempotent-Replayed: true`. The request has no body.
        """
        return cast("CallRecord", self._call("cancelCall", "POST", "/v1/agent/calls/{id}/cancel", {"id": id}, {}, {"Idempotency-Key": idempotency_key}, None, "json"))

    def get_call_recording(self, id: str, *, channels: Optional[Literal[1, 2]] = None, range: Optional[str] = None) -> Download:
        """Download a call's recording

        The recording of an answered call as `audio/wav`. Supports single byte ranges (`Range: bytes=a-b`), answered
        with 206 and `Content-Range`; an unsatisfiable range gives 416 `range_not_satisfiable`. A call that does not
        exist, belongs to another key, or has no recording (never answered, or not ready yet) gives 404 `not_found`.
        A sandbox call's recording is rendered from its conversation the first time it is asked for (that request
        takes longer, about a tenth of a second for a short call), then kept. When that cannot be done just now (the
        disk is full, the renderer failed) the answer is 503 `recording_unavailable` with Retry-After; the call keeps
        what its recording is made from, so a later request gets it.

        `channels=2` asks for the two-channel rendition instead: the agent and the callee each on a channel of their
        own, where the carrier made one (Twilio: the channel order is Twilio's dual-channel recording's). A call with
        none (a sandbox call, a Twilio call recorded before it was offered) gives 404 `not_found`. Without
        `channels`, or with `channels=1`, the recording is the one-channel file `recordingUrl` has always served.
        """
        return cast("Download", self._call("getCallRecording", "GET", "/v1/agent/calls/{id}/recording", {"id": id}, {"channels": channels}, {"Range": range}, None, "binary"))

    def list_call_events(self, id: str) -> CallEventLog:
        """List a call's events and their deliveries

        Every event of the call, oldest first: its `eventId`, name and time, its delivery `state`, its attempts (time,
        HTTP status or error, latency; the first and the last 20, with `attemptsOmitted` counting those between),
        when the next attempt is due while it is pending, and the exact `payload` that was signed
        (`JSON.stringify(payload)` is the body that was sent, byte for byte). A call placed without a `webhookUrl` has
        its events too, in state `none`. The receiver's URL and the signing secrets are never shown, and an attempt's
        error never names the URL or its host. Another key's call is 404 `not_found`.
        """
        return cast("CallEventLog", self._call("listCallEvents", "GET", "/v1/agent/calls/{id}/events", {"id": id}, {}, {}, None, "json"))

    def redeliver_event(self, id: str, event_id: str) -> CallEventLogEntry:
        """Deliver an event once more

        Queues one more delivery of the event: the same `eventId` and body, signed afresh (a new `t`) with the key's
        current secrets, to the call's `webhookUrl`, through the same address rule as every delivery. It is one
        attempt, made within moments by a worker: a failure ends it `failed` with no retries, and it is sent even to a
        receiver that answered 410 Gone before. The attempt appears in the event's log marked `redelivery: true`.

        Allowed for an event `delivered` (a receiver that lost its data), `failed` or `gone`: 202 with the event's log
        entry, now `pending`. An event still `pending` (an attempt in flight, its retries not over, or a redelivery
        queued) is 409 `redelivery_pending`, and so is an event whose last redelivery was asked for less than 10
        seconds ago; its `Retry-After` is the seconds until it may be asked again. An event `refused` by the address
        rule stays refused: 400 `destination_refused`; an event of a call with no `webhookUrl` (state `none`) is 400
        `no_webhook_url`. Another key's call, or an event the call does not have, is 404 `not_found`. The request
        has no body.

        Every request, whatever its answer, counts against the key's request window (`SVC_KEY_REQUEST_LIMIT`, 600
        per minute by default), which its RateLimit-* headers report; it never spends the calls the key may place.
        A full window is 429 `rate_limited` with Retry-After.
        """
        return cast("CallEventLogEntry", self._call("redeliverEvent", "POST", "/v1/agent/calls/{id}/events/{eventId}/redeliver", {"id": id, "eventId": event_id}, {}, {}, None, "json"))

    def list_batch_events(self, id: str) -> BatchEventLog:
        """List a batch's own events and their deliveries

        The batch's own events (`batch.completed`, `batch.canceled` or `batch.stopped`, once, as it ends; its calls'
        events are each call's, listed by listCallEvents), in the same shape as a call's event log: `eventId`, name
        and time, delivery `state`, its attempts (the first and the last 20, with `attemptsOmitted` counting those
        between), `nextAttemptAt` while pending, `deliveredAt`, and the exact `payload` that was signed. A batch
        created without a `webhookUrl` has its event too, in state `none`; a batch that has not ended has none yet.
        The receiver's URL and the signing secrets are never shown. Another key's batch is 404 `not_found`.
        """
        return cast("BatchEventLog", self._call("listBatchEvents", "GET", "/v1/agent/batches/{id}/events", {"id": id}, {}, {}, None, "json"))

    def redeliver_batch_event(self, id: str, event_id: str) -> BatchEventLogEntry:
        """Deliver a batch's event once more

        redeliverEvent for a batch's own event, with the same rules: one attempt, the same `eventId` and body signed
        afresh, to the batch's `webhookUrl`, marked `redelivery: true` in the log; 202 with the event's log entry for
        an event `delivered`, `failed` or `gone`; 409 `redelivery_pending` with Retry-After while it is pending or
        within 10 seconds of its last redelivery; 400 `destination_refused` or `no_webhook_url` for one that cannot
        be sent. Another key's batch, or an event the batch does not have (a call's event among them), is 404
        `not_found`. Every request counts against the key's request window, as a redelivery of a call's event does.
        The request has no body.
        """
        return cast("BatchEventLogEntry", self._call("redeliverBatchEvent", "POST", "/v1/agent/batches/{id}/events/{eventId}/redeliver", {"id": id, "eventId": event_id}, {}, {}, None, "json"))

    def stream_call(self, id: str, *, last_event_id: Optional[str] = None) -> Iterator[LiveEvent]:
        """Follow a call live (Server-Sent Events)

        A `text/event-stream` of the call as it happens: a `status` event for each status it reaches (`queued`,
        `dialing`, `in_progress`, then its terminal status), a `turn` event for each turn of the conversation as
        it is heard, with its speaker, text and times, and a `tool_call` event for each use of one of the call's
        `tools` as it is answered (as the record's `toolCalls` lists it: never the tool's URL, its answer or a
        secret). The terminal status comes last, after every turn and use the record keeps, and then the stream
        ends. A call that already ended is replayed whole and the stream ends. More event names may be added in v1:
        a client skips an event whose name it does not know (as `EventSource` does for a name it has no listener
        for).

        The stream is read from the store, so any process of a deployment serves it, whichever worker runs the call:
        a change is sent within `SVC_STREAM_POLL_MS` (250 ms by default) of being committed. Each event's `id` is the
        stream's position; reconnecting with `Last-Event-ID` resumes after it, with nothing lost and nothing sent
        twice. The data of each event carries an `id` of its own (`<callId>:status:<status>`,
        `<callId>:turn:<index>`, `<callId>:tool_call:<index>`). A comment line is sent every 15 seconds while
        nothing happens. Another key's call is 404 `not_found` (as JSON, before any event).

        Opening a stream counts against the key's request window (the RateLimit-* headers report it), and a key holds
        at most `SVC_STREAMS_PER_KEY` open streams (100 by default) across every process: above that, 429
        `too_many_streams`. Events are written at the client's pace: a client that reads nothing for
        `SVC_STREAM_STALL_MS` (30 s by default) has its stream closed, and resumes it with its `Last-Event-ID`. A
        revoked key's streams end within a few seconds.
        """
        return cast("Iterator[LiveEvent]", self._call("streamCall", "GET", "/v1/agent/calls/{id}/stream", {"id": id}, {}, {"Last-Event-ID": last_event_id}, None, "stream"))

    def stream_events(self, *, last_event_id: Optional[str] = None) -> Iterator[LiveEvent]:
        """Follow every call of the key live (Server-Sent Events)

        The same `status`, `turn` and `tool_call` events as streamCall, for every call of the key, as they happen; the
        stream stays open. A new stream starts with what happened in the last 5 seconds.

        Calls change in no common order, so this stream reads the store in windows of time that overlap by 5 seconds
        and sends each event once per connection. Each event's `id` is a time (epoch ms); reconnecting with
        `Last-Event-ID` replays from 5 seconds before it, so nothing is lost across a reconnect but an event near the
        cut may come again: deduplicate on the data's own `id`.

        Replay goes back at most 24 hours and at most the newest 1,000 calls placed, 1,000 status changes, 1,000
        turns and 1,000 uses of tools: a `Last-Event-ID` older than that (or `0`) replays from where the first limit
        falls, and the stream says so in a comment line; older changes are read with listCalls, getCall and
        listCallEvents.
        Replay is written a page at a time at the client's pace. Opening a stream counts against the key's request
        window, a key holds at most `SVC_STREAMS_PER_KEY` open streams (429 `too_many_streams` above it), a client
        that reads nothing for `SVC_STREAM_STALL_MS` has its stream closed (it resumes with its `Last-Event-ID`; an
        event near the cut may then come again on the new connection, as after any reconnect), and a revoked key's
        streams end within a few seconds.
        """
        return cast("Iterator[LiveEvent]", self._call("streamEvents", "GET", "/v1/agent/stream", {}, {}, {"Last-Event-ID": last_event_id}, None, "stream"))
