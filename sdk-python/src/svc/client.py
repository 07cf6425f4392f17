"""The SDK's client: the generated operations over urllib, typed errors, optional retries, and placements that
always carry an Idempotency-Key so that no retry places a second call."""
import http.client
import json
import random as _random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, Literal, Mapping, NamedTuple, Optional, Tuple, cast

from .download import Download
from .errors import RateLimitInfo, SvcApiError, SvcNetworkError, rate_limit_info
from .generated.models import Batch, CallRecord
from .generated.operations import Operations
from .live_stream import ends_call, live_events, never
from .retry import RequestKind, Retries, RetryPolicy
from .version import __version__
from .waiting import BATCH_ENDED_STATUSES, is_terminal, wait_until_ended

DEFAULT_BASE_URL = "http://localhost:8080"

# The rules that differ by operation. A placement always sends an Idempotency-Key (one for all its attempts) and
# retries 409 idempotency_key_in_use; a preflight's 429 is a verdict; a call's stream ends with the call.
_PLACEMENTS = frozenset({"placeCall", "createBatch"})
_PREFLIGHTS = frozenset({"preflightCall"})
_CALL_STREAMS = frozenset({"streamCall"})

_PATH_PARAM = re.compile(r"\{([A-Za-z0-9_]+)\}")


class Answer(NamedTuple):
    """A successful answer with the rate-limit headers it carried."""

    data: Any
    rate_limit: RateLimitInfo


class SvcClient(Operations):
    """One method per operation of openapi.yaml (see svc.generated.operations), plus wait_for_call and
    wait_for_batch.

    `timeout` is the seconds to wait for the service to connect and to answer each read. `retries` (off unless
    given) retries transient failures. `sleep`, `now` (a monotonic clock, seconds) and `random` are for tests."""

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        retries: Optional[Retries] = None,
        timeout: float = 30.0,
        max_reconnects: int = 10,
        sleep: Callable[[float], None] = time.sleep,
        now: Callable[[], float] = time.monotonic,
        random: Callable[[], float] = _random.random,
    ) -> None:
        if not isinstance(api_key, str) or api_key == "":
            raise TypeError('SvcClient needs an API key: SvcClient(os.environ["SVC_API_KEY"]).')
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self._retry = RetryPolicy(retries, random)
        self._timeout = timeout
        self._max_reconnects = max_reconnects
        self._sleep = sleep
        self._now = now
        self._opener = urllib.request.build_opener()

    def wait_for_call(self, id: str, *, timeout: float = 600.0, interval: float = 2.0) -> CallRecord:
        """Polls get_call until the call reaches a terminal status and returns its record. Waits `interval` seconds
        between polls, longer when the rate-limit window is spent; raises SvcTimeoutError after `timeout` seconds."""
        url = self._url("/v1/agent/calls/{id}", {"id": id}, {})
        record = wait_until_ended(id, lambda: self._poll(url), is_terminal, timeout=timeout, interval=interval, sleep=self._sleep, now=self._now)
        return cast(CallRecord, record)

    def wait_for_batch(self, id: str, *, timeout: float = 600.0, interval: float = 2.0) -> Batch:
        """Polls get_batch until the batch has ended (completed, canceled or stopped), as wait_for_call polls a call."""
        url = self._url("/v1/agent/batches/{id}", {"id": id}, {})
        ended = lambda status: status in BATCH_ENDED_STATUSES  # noqa: E731
        batch = wait_until_ended(id, lambda: self._poll(url), ended, timeout=timeout, interval=interval, sleep=self._sleep, now=self._now, what="Batch")
        return cast(Batch, batch)

    def _poll(self, url: str) -> Tuple[Any, RateLimitInfo]:
        answer = self._send("GET", url, {}, None, "json", "other")
        return answer.data, answer.rate_limit

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
        url = self._url(path, path_params, query)
        sent = {name: value for name, value in headers.items() if value is not None}
        if answer == "stream":
            return live_events(
                lambda extra: self._open("GET", url, {**sent, **extra}, None, stream=True),
                path,
                last_event_id=sent.pop("Last-Event-ID", None),
                max_reconnects=self._max_reconnects,
                sleep=self._sleep,
                ended=ends_call if operation_id in _CALL_STREAMS else never,
            )
        kind: RequestKind = "placement" if operation_id in _PLACEMENTS else "preflight" if operation_id in _PREFLIGHTS else "other"
        if kind == "placement" and "Idempotency-Key" not in sent:
            # One key for every attempt: a retry after a lost answer replays the first result instead of placing again.
            sent["Idempotency-Key"] = str(uuid.uuid4())
        return self._send(method, url, sent, body, answer, kind).data

    def _url(self, path: str, path_params: Mapping[str, Any], query: Mapping[str, Any]) -> str:
        filled = _PATH_PARAM.sub(lambda m: urllib.parse.quote(str(path_params[m.group(1)]), safe=""), path)
        pairs = [(name, str(value)) for name, value in query.items() if value is not None]
        return f"{self.base_url}{filled}{'?' + urllib.parse.urlencode(pairs) if pairs else ''}"

    def _send(self, method: str, url: str, headers: Dict[str, str], body: Any, answer: str, kind: RequestKind) -> Answer:
        attempt = 1
        while True:
            try:
                return self._once(method, url, headers, body, answer)
            except (SvcApiError, SvcNetworkError) as error:
                delay = self._retry.delay_after(error, attempt, kind)
                if delay is None:
                    raise
                self._sleep(delay)
            attempt += 1

    def _once(self, method: str, url: str, headers: Dict[str, str], body: Any, answer: str) -> Answer:
        response = self._open(method, url, {"Accept": "application/json", **headers}, body)
        with response:
            try:
                raw = response.read()
            except (OSError, http.client.HTTPException) as cause:
                raise self._network_error(cause) from cause
        info = rate_limit_info(response.headers)
        if answer == "json":
            return Answer(json.loads(raw) if raw else None, info)
        if answer == "binary":
            return Answer(Download(raw, response.status, response.headers.get("Content-Type"), response.headers.get("Content-Range")), info)
        return Answer(None, info)

    def _open(self, method: str, url: str, headers: Dict[str, str], body: Any, stream: bool = False) -> http.client.HTTPResponse:
        """Sends the request and returns the open 2xx answer; raises SvcApiError for any other status."""
        request = urllib.request.Request(url, method=method)
        request.add_header("Authorization", f"Bearer {self._api_key}")
        request.add_header("User-Agent", f"svc-python/{__version__}")
        for name, value in headers.items():
            request.add_header(name, value)
        if body is not None:
            request.add_header("Content-Type", "application/json")
            request.data = json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
        # The service sends a comment every 15 s on a quiet stream, so a stream waits at least 30 s for a line.
        timeout = max(self._timeout, 30.0) if stream else self._timeout
        try:
            return self._opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            with error:
                try:
                    raw = error.read()
                except (OSError, http.client.HTTPException):
                    raw = b""
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            raise SvcApiError.from_response(error.code, str(error.reason or ""), error.headers, parsed) from None
        except (OSError, http.client.HTTPException) as cause:
            raise self._network_error(cause) from cause

    def _network_error(self, cause: BaseException) -> SvcNetworkError:
        detail = getattr(cause, "reason", None) or cause
        return SvcNetworkError(f"The request to the service failed before any answer: {detail}. Is the service running at {self.base_url}?")
