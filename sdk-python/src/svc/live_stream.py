"""The live streams (stream_call, stream_events) as iterators. The Server-Sent Events are parsed here; a connection
that drops (or a server that ends the stream early) is resumed from the last event's id with Last-Event-ID, after
the wait the server asked for, so a loop over the stream sees every event across reconnects. A call's stream ends
after its terminal status; the key's runs until the loop stops."""
import http.client
import json
from typing import Callable, Dict, Iterator, List, Literal, NamedTuple, Optional, Union

from .errors import SvcNetworkError
from .generated.models import StreamStatus, StreamToolCall, StreamTurn
from .waiting import is_terminal


class LiveEvent(NamedTuple):
    """One event of a live stream: a status the call reached, a turn as it was heard, or a use of one of the call's
    own tools as it was answered."""

    event: Literal["status", "turn", "tool_call"]
    #: The stream's position, to resume after it (`last_event_id=`).
    id: str
    data: Union[StreamStatus, StreamTurn, StreamToolCall]


class SseMessage(NamedTuple):
    event: str
    id: Optional[str]
    data: str


class SseParser:
    """The event-stream format (WHATWG HTML, "Server-sent events"), fed one line at a time."""

    def __init__(self) -> None:
        self.retry_ms: Optional[int] = None
        self._last_id: Optional[str] = None
        self._event = ""
        self._data: List[str] = []

    def feed(self, line: str) -> Optional[SseMessage]:
        """Takes a line without its end; returns the event a blank line completes."""
        if line == "":
            message = None
            if self._data:
                message = SseMessage(self._event or "message", self._last_id, "\n".join(self._data))
            self._event, self._data = "", []
            return message
        if line.startswith(":"):
            return None
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self._last_id = value
        elif field == "retry" and value.isascii() and value.isdigit():
            self.retry_ms = int(value)
        return None


def _lines(response: http.client.HTTPResponse) -> Iterator[str]:
    first = True
    while True:
        raw = response.readline()
        if not raw:
            return
        line = raw.decode("utf-8", errors="replace")
        if first and line.startswith("\ufeff"):
            line = line[1:]
        first = False
        yield line.rstrip("\r\n")


def live_events(
    open_stream: Callable[[Dict[str, str]], http.client.HTTPResponse],
    path: str,
    *,
    last_event_id: Optional[str],
    max_reconnects: int,
    sleep: Callable[[float], None],
    ended: Callable[[LiveEvent], bool],
) -> Iterator[LiveEvent]:
    """The events of `path`. `open_stream` sends the request with the extra headers given and returns the open
    answer, or raises SvcApiError (an error status, final) or SvcNetworkError (no answer, retried here)."""
    last_id = last_event_id
    retry = 1.0
    failures = 0
    while True:
        headers = {"Accept": "text/event-stream"}
        if last_id is not None:
            headers["Last-Event-ID"] = last_id
        try:
            response = open_stream(headers)
        except SvcNetworkError:
            failures += 1
            if failures > max_reconnects:
                raise
            sleep(retry)
            continue
        parser = SseParser()
        try:
            for line in _lines(response):
                message = parser.feed(line)
                if parser.retry_ms is not None:
                    retry = parser.retry_ms / 1000
                # An event of a name this SDK does not know (a newer service's) is skipped.
                if message is None or message.event not in ("status", "turn", "tool_call"):
                    continue
                event = LiveEvent(message.event, message.id or "", json.loads(message.data))  # type: ignore[arg-type]
                if message.id is not None:
                    last_id = message.id
                failures = 0
                yield event
                if ended(event):
                    return
        except (OSError, http.client.HTTPException):
            # The connection dropped mid-stream: resumed below.
            pass
        finally:
            response.close()
        failures += 1
        if failures > max_reconnects:
            raise SvcNetworkError(f"The stream {path} kept ending without its last event.")
        sleep(retry)


def ends_call(event: LiveEvent) -> bool:
    """A call's stream ends with its terminal status."""
    return event.event == "status" and is_terminal(event.data["status"])  # type: ignore[typeddict-item]


def never(_: LiveEvent) -> bool:
    return False
