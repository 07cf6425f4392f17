"""When and how long to wait before retrying a request. Only answers that say "try again" are retried: 429
rate_limited, 502, 503 and network faults (plus 409 idempotency_key_in_use for a placement, whose first attempt is
still running). 429 over_minute_cap is not: its Retry-After is the time to the next billing period. A preflight's
429 is its verdict (a placement would be refused now), not a request to slow down: not retried."""
from typing import Callable, Literal, NamedTuple, Optional

from .errors import SvcApiError, SvcNetworkError

#: What a request is, for the rules that differ.
RequestKind = Literal["placement", "preflight", "other"]


class Retries(NamedTuple):
    """Retries of transient failures. Pass `Retries()` for the defaults."""

    #: Attempts in all, the first included.
    max_attempts: int = 3
    #: Backoff in seconds before the first retry when the answer gives no Retry-After; doubles on each retry.
    base_delay: float = 0.5
    #: The longest wait: backoff is capped here, and a Retry-After longer than this fails at once.
    max_delay: float = 30.0


def is_transient(error: BaseException, kind: RequestKind) -> bool:
    """Whether the failure is one that a later identical request may not meet."""
    if isinstance(error, SvcNetworkError):
        return True
    if not isinstance(error, SvcApiError):
        return False
    if error.status == 429:
        return kind != "preflight" and error.token == "rate_limited"
    if error.status == 409:
        return kind == "placement" and error.token == "idempotency_key_in_use"
    return error.status in (502, 503)


class RetryPolicy:
    def __init__(self, retries: Optional[Retries], random: Callable[[], float]) -> None:
        self.max_attempts = max(1, int(retries.max_attempts)) if retries else 1
        self._base_delay = retries.base_delay if retries else 0.0
        self._max_delay = retries.max_delay if retries else 0.0
        self._random = random

    def delay_after(self, error: BaseException, attempt: int, kind: RequestKind) -> Optional[float]:
        """Seconds to wait before attempt `attempt + 1`, or None when the failure must be raised."""
        if attempt >= self.max_attempts or not is_transient(error, kind):
            return None
        retry_after = error.rate_limit.retry_after_sec if isinstance(error, SvcApiError) else None
        if retry_after is not None:
            return float(retry_after) if retry_after <= self._max_delay else None
        # Half fixed, half random ("equal jitter"), so clients that failed together do not retry together.
        backoff = min(self._max_delay, self._base_delay * 2 ** (attempt - 1))
        return backoff / 2 + backoff / 2 * self._random()
