"""Polling a call (or a batch) until it ends. The poll, the clock and the sleep are passed in, so the loop can be
tested without waiting."""
from typing import Any, Callable, Optional, Tuple

from .errors import RateLimitInfo, SvcApiError, SvcTimeoutError
from .retry import is_transient

#: The statuses a call ends in.
TERMINAL_STATUSES = ("completed", "no_answer", "voicemail", "declined", "failed", "canceled")
#: The statuses a batch ends in.
BATCH_ENDED_STATUSES = ("completed", "canceled", "stopped")


def is_terminal(status: str) -> bool:
    return status in TERMINAL_STATUSES


def wait_until_ended(
    id: str,
    poll: Callable[[], Tuple[Any, RateLimitInfo]],
    ended: Callable[[str], bool],
    *,
    timeout: float,
    interval: float,
    sleep: Callable[[float], None],
    now: Callable[[], float],
    what: str = "Call",
) -> Any:
    """Polls until `ended` holds for the answer's `status` and returns the answer."""
    deadline = now() + timeout
    last_status: Optional[str] = None
    while True:
        wait = interval
        try:
            data, rate_limit = poll()
            if ended(data["status"]):
                return data
            last_status = data["status"]
            # A spent window means the next request would be refused: wait for it to reset instead.
            if rate_limit.remaining == 0 and rate_limit.reset_sec is not None:
                wait = max(wait, float(rate_limit.reset_sec))
        except Exception as error:
            # A transient failure (429, 502, 503, network) costs a pause, not the wait; anything else is final.
            if not is_transient(error, "other"):
                raise
            retry_after = error.rate_limit.retry_after_sec if isinstance(error, SvcApiError) else None
            if retry_after is not None:
                wait = max(wait, float(retry_after))
        left = deadline - now()
        if left <= 0:
            raise SvcTimeoutError(id, timeout, last_status, what)
        # The last pause ends at the deadline, so the final poll happens just in time rather than never.
        sleep(min(wait, left))
