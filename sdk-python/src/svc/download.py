"""What an operation that answers with bytes (a recording) returns."""
from typing import NamedTuple, Optional


class Download(NamedTuple):
    content: bytes
    #: 200 for the whole file, 206 for the range asked for.
    status: int
    content_type: Optional[str]
    #: Content-Range of a partial answer (`bytes 0-1023/48000`); None otherwise.
    content_range: Optional[str]
