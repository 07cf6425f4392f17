"""The SDK's errors. Every failure of an API call is one of these, so callers can branch on the class and, for
API errors, on the spec's `error` token (the tokens and their meanings are `svc.ERROR_TOKENS`)."""
import re
from typing import Any, List, NamedTuple, Optional, Protocol

from .generated.models import BatchItemError, RequestProblem


class Headers(Protocol):
    """A response's headers, read by name case-insensitively (http.client's, or a dict in tests)."""

    def get(self, name: str) -> Optional[str]: ...


class RateLimitInfo(NamedTuple):
    """The rate-limit headers of a response; None where the response did not carry the header."""

    #: RateLimit-Limit: requests permitted per window.
    limit: Optional[int]
    #: RateLimit-Remaining: requests left in the current window.
    remaining: Optional[int]
    #: RateLimit-Reset: seconds until the window resets.
    reset_sec: Optional[int]
    #: Retry-After (429 and 503): seconds to wait before retrying.
    retry_after_sec: Optional[int]
    #: RateLimit-Policy, as sent: `<limit>;w=<window seconds>`.
    policy: Optional[str]


def _int_header(headers: Headers, name: str) -> Optional[int]:
    value = headers.get(name)
    if value is None or not re.fullmatch(r"[0-9]+", value.strip()):
        return None
    return int(value.strip())


def rate_limit_info(headers: Headers) -> RateLimitInfo:
    """Reads the rate-limit headers."""
    return RateLimitInfo(
        limit=_int_header(headers, "RateLimit-Limit"),
        remaining=_int_header(headers, "RateLimit-Remaining"),
        reset_sec=_int_header(headers, "RateLimit-Reset"),
        retry_after_sec=_int_header(headers, "Retry-After"),
        policy=headers.get("RateLimit-Policy"),
    )


class SvcApiError(Exception):
    """The service answered with an error status. `token` is the spec's `error` field; the set may grow."""

    def __init__(
        self,
        status: int,
        token: str,
        message: str,
        rate_limit: RateLimitInfo,
        request_id: Optional[str],
        errors: Optional[List[BatchItemError]] = None,
        problems: Optional[List[RequestProblem]] = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.token = token
        self.message = message
        self.rate_limit = rate_limit
        #: X-Request-Id of the response, to quote when reporting a problem.
        self.request_id = request_id
        #: With create_batch's `invalid_batch`, every bad call by its index; None otherwise.
        self.errors = errors
        #: With a 400 of place_call or preflight_call, every problem of the request at once, each with the field it
        #: is about (the first is `token` and `message`); None otherwise.
        self.problems = problems

    def __str__(self) -> str:
        return f"{self.status} {self.token}: {self.message}"

    @classmethod
    def from_response(cls, status: int, reason: str, headers: Headers, body: Any) -> "SvcApiError":
        """Builds the error from a non-2xx answer whose body has been parsed as JSON (or is None)."""
        parsed = body if isinstance(body, dict) else {}
        error, text, errors = parsed.get("error"), parsed.get("message"), parsed.get("errors")
        token = error if isinstance(error, str) else f"http_{status}"
        message = text if isinstance(text, str) else f"The service answered {status} {reason}".strip()
        items = errors if isinstance(errors, list) else None
        # The body's `errors` names a batch's bad calls with invalid_batch, and a request's problems otherwise.
        batch = token == "invalid_batch"
        return cls(status, token, message, rate_limit_info(headers), headers.get("X-Request-Id"), items if batch else None, None if batch else items)


class SvcNetworkError(Exception):
    """The request never got an HTTP answer (connection refused, reset, timed out...). `__cause__` is the fault."""


class SvcTimeoutError(Exception):
    """wait_for_call (or wait_for_batch) gave up: no terminal status within `timeout` seconds."""

    def __init__(self, call_id: str, timeout: float, last_status: Optional[str], what: str = "Call") -> None:
        super().__init__(
            f"{what} {call_id} did not reach a terminal status within {timeout:g} s (last status: {last_status or 'unknown'}). "
            "Wait longer, or subscribe to webhooks instead of polling."
        )
        #: The call's id (or, from wait_for_batch, the batch's).
        self.call_id = call_id
        self.timeout = timeout
        #: The status seen at the last successful poll, or None when no poll succeeded.
        self.last_status = last_status
