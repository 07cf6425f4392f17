"""Verifies a webhook request from the service: `X-SVC-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, where
v1 is HMAC-SHA256(secret, `<t>.<raw body>`). Signature first, then the timestamp, so a timestamp error means
"authentic but stale", never a hint to a forger. A request to one of the client's own tools (a ToolRequest, the
placement's `tools`) is signed the same way with the same secret: verify_tool_request checks it and returns it.

It gives the TypeScript SDK's verifyWebhook's verdict for every input (the test suite runs both over the same
cases), so the header is read with JavaScript's rules: its whitespace, ASCII digits, a leading BOM dropped from
the body, and JSON without NaN or Infinity."""
import datetime
import hashlib
import hmac
import json
import math
import re
import time
from typing import Any, Literal, Optional, Sequence, Tuple, Union, cast

from .generated.models import CallEvent, ToolRequest

SIGNATURE_HEADER = "X-SVC-Signature"
DEFAULT_TOLERANCE_SEC = 300

WebhookVerificationReason = Literal[
    "missing_header",
    "malformed_header",
    "no_signature",
    "signature_mismatch",
    "timestamp_too_old",
    "timestamp_in_future",
    "body_not_raw",
    "invalid_json",
]

# What String.prototype.trim removes: ECMAScript's WhiteSpace and LineTerminator.
_JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_TIMESTAMP = re.compile(r"[0-9]{1,12}")

RawBody = Union[bytes, bytearray, memoryview, str]
Header = Union[str, Sequence[str], None]
Secrets = Union[str, Sequence[str]]


class WebhookVerificationError(Exception):
    """The request is not a genuine, fresh request from the service; `reason` says why."""

    def __init__(self, reason: WebhookVerificationReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _js_utf8(text: str) -> bytes:
    """The UTF-8 of a string as JavaScript's Buffer.from gives it: a lone surrogate becomes U+FFFD."""
    return text.encode("utf-16-le", errors="surrogatepass").decode("utf-16-le", errors="replace").encode("utf-8")


def _js_length(text: str) -> int:
    """A string's length as JavaScript counts it, in UTF-16 code units."""
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def _raw_bytes(body: object) -> bytes:
    if isinstance(body, str):
        return _js_utf8(body)
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body)
    what = "None" if body is None else f"a {type(body).__name__}"
    raise WebhookVerificationError(
        "body_not_raw",
        f"The body is {what}: pass the raw request body, not the parsed JSON (bytes of exactly what was received, e.g. "
        "Flask's request.get_data() or Django's request.body). Re-serialised JSON does not match the signature.",
    )


def _malformed(value: str) -> WebhookVerificationError:
    # The header itself is not secret, but keep the message short and free of its signatures.
    return WebhookVerificationError(
        "malformed_header",
        f"The {SIGNATURE_HEADER} header is not of the form t=<unix seconds>,v1=<hex> (it is {_js_length(value)} characters long). "
        "Pass the header exactly as received.",
    )


def _parse_header(header: object) -> Tuple[int, list]:
    value = ",".join(header) if isinstance(header, (list, tuple)) else header
    if not isinstance(value, str) or value.strip(_JS_WHITESPACE) == "":
        raise WebhookVerificationError("missing_header", f"No {SIGNATURE_HEADER} header: pass the request's {SIGNATURE_HEADER} header value.")
    timestamp: Optional[int] = None
    signatures = []
    for part in value.split(","):
        eq = part.find("=")
        # JavaScript's slice(0, -1) when there is no "=": the check below refuses the part anyway.
        name = part[:eq].strip(_JS_WHITESPACE)
        item = part[eq + 1 :].strip(_JS_WHITESPACE)
        if eq < 1 or item == "":
            raise _malformed(value)
        if name == "t":
            if timestamp is not None or not _TIMESTAMP.fullmatch(item):
                raise _malformed(value)
            timestamp = int(item)
        elif name == "v1":
            signatures.append(item)
        # Other schemes (v0, future versions) are ignored, so a new scheme can be added beside v1.
    if timestamp is None:
        raise _malformed(value)
    if not signatures:
        raise WebhookVerificationError("no_signature", f"The {SIGNATURE_HEADER} header has no v1= signature; this verifier checks v1 (HMAC-SHA256).")
    return timestamp, signatures


def _matches_any(expected: bytes, signatures: list) -> bool:
    found = False
    for signature in signatures:
        given = _js_utf8(signature)
        # compare_digest is constant-time for equal lengths; a length mismatch reveals nothing about the expected value.
        if len(given) == len(expected) and hmac.compare_digest(given, expected):
            found = True
    return found


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json(body: bytes) -> Any:
    try:
        # utf-8-sig drops one leading BOM, as TextDecoder does; JSON.parse knows no NaN or Infinity.
        return json.loads(body.decode("utf-8-sig"), parse_constant=_no_constants)
    except ValueError:
        return None


def _epoch_seconds(now: Union[None, float, int, datetime.datetime]) -> float:
    if now is None:
        return time.time()
    if isinstance(now, datetime.datetime):
        return now.timestamp()
    return float(now)


def _verify_signed(raw_body: RawBody, header: Header, secret: Secrets, tolerance: float, now: Union[None, float, int, datetime.datetime]) -> Any:
    body = _raw_bytes(raw_body)
    timestamp, signatures = _parse_header(header)
    secrets = [s for s in ([secret] if isinstance(secret, str) else list(secret or [])) if isinstance(s, str) and s != ""]
    if not secrets:
        raise TypeError("verify_webhook needs the webhook signing secret (whsec_…) of the account.")

    signed = f"{timestamp}.".encode() + body
    given = [s.lower() for s in signatures]
    if not any(_matches_any(hmac.new(_js_utf8(s), signed, hashlib.sha256).hexdigest().encode(), given) for s in secrets):
        raise WebhookVerificationError(
            "signature_mismatch",
            "No v1 signature matches the body. Check that the secret is the one of the account that placed the call, and that "
            "the body is the raw request body, byte for byte (not parsed and re-serialised JSON).",
        )

    age = math.floor(_epoch_seconds(now)) - timestamp
    if age > tolerance:
        raise WebhookVerificationError(
            "timestamp_too_old", f"The signature is {age} s old, more than the {tolerance:g} s tolerance: a replayed request, or this server's clock is wrong."
        )
    if -age > tolerance:
        raise WebhookVerificationError("timestamp_in_future", f"The signature is dated {-age} s ahead, more than the {tolerance:g} s tolerance: check this server's clock.")
    return _json(body)


def verify_webhook(
    raw_body: RawBody,
    header: Header,
    secret: Secrets,
    tolerance: float = DEFAULT_TOLERANCE_SEC,
    *,
    now: Union[None, float, int, datetime.datetime] = None,
) -> CallEvent:
    """Checks the signature and timestamp of a webhook request and returns its event (a dict; switch on
    `event["event"]`, deduplicate on `event["eventId"]`). `secret` may be a list (during a rotation, any of them
    may have signed); `tolerance` is the largest accepted distance, either way, between the header's time and
    `now` (epoch seconds or a datetime; default the current time). Raises WebhookVerificationError with a `reason`."""
    event = _verify_signed(raw_body, header, secret, tolerance, now)
    if not isinstance(event, dict) or not isinstance(event.get("event"), str):
        raise WebhookVerificationError("invalid_json", "The signed body is not a JSON event object.")
    return cast(CallEvent, event)


def verify_tool_request(
    raw_body: RawBody,
    header: Header,
    secret: Secrets,
    tolerance: float = DEFAULT_TOLERANCE_SEC,
    *,
    now: Union[None, float, int, datetime.datetime] = None,
) -> ToolRequest:
    """Checks a request svc made to one of your tools during a call, as verify_webhook checks an event, and returns
    the request (its `event` is `tool.call`). Raises WebhookVerificationError with a `reason`."""
    request = _verify_signed(raw_body, header, secret, tolerance, now)
    if not isinstance(request, dict) or request.get("event") != "tool.call":
        raise WebhookVerificationError("invalid_json", 'The signed body is not a JSON tool request (its `event` is not "tool.call").')
    return cast(ToolRequest, request)
