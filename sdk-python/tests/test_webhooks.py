"""verify_webhook and verify_tool_request: against the service's real deliveries, against forgeries of them, and
against the TypeScript SDK's verifier, which must give the same verdict and message for every input."""
import base64
import datetime
import hashlib
import hmac
import json
import math
import shutil
import subprocess
import time
import uuid
from typing import Any, Dict, List

import pytest

from svc import DEFAULT_TOLERANCE_SEC, SIGNATURE_HEADER, SvcClient, WebhookVerificationError, verify_tool_request, verify_webhook

from conftest import ROOT, Receiver

OBJECTIVE = "Ask whether the shop is open on Sunday."
SECRET = "whsec_test_secret_for_the_verifier_0123456789"
OTHER = "whsec_another_secret_of_another_account_98765"
T = 1_795_000_000


def sign(body: bytes, secret: str = SECRET, t: int = T) -> str:
    return hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()


def reason(call: Any) -> str:
    with pytest.raises(WebhookVerificationError) as raised:
        call()
    return raised.value.reason


@pytest.fixture(scope="module")
def delivered(service, svc: SvcClient, receiver: Receiver):
    """The two deliveries of a real call, as the receiver got them."""
    path = f"/hooks/{uuid.uuid4()}"
    call_id = svc.place_call({"to": "+14155550123", "objective": OBJECTIVE, "webhookUrl": receiver.url + path})["callId"]
    return call_id, receiver.wait_for(path, 2, timeout=60)


@pytest.fixture(scope="module")
def svc(service) -> SvcClient:
    return SvcClient(service.api_key, service.base_url, timeout=120)


def test_verifies_the_services_real_deliveries_of_a_call(service, delivered) -> None:
    call_id, deliveries = delivered
    events = [verify_webhook(d.body, d.signature, service.webhook_secret) for d in deliveries]
    assert [(e["event"], e["callId"], e["status"]) for e in events] == [("call.in_progress", call_id, "in_progress"), ("call.completed", call_id, "completed")]
    # A secret being rotated in: any of the secrets may have signed.
    assert verify_webhook(deliveries[1].body, deliveries[1].signature, [OTHER, service.webhook_secret]) == events[1]


def test_refuses_forgeries_of_a_real_delivery(service, delivered) -> None:
    _, [delivery, _] = delivered
    t = int(delivery.signature.split(",")[0][2:])
    forged = f"t={t},v1={sign(delivery.body, OTHER, t)}"
    assert reason(lambda: verify_webhook(delivery.body, forged, service.webhook_secret)) == "signature_mismatch"
    assert reason(lambda: verify_webhook(delivery.body, delivery.signature, OTHER)) == "signature_mismatch"
    tampered = delivery.body.replace(b'"status":"in_progress"', b'"status":"completed"')
    assert tampered != delivery.body
    assert reason(lambda: verify_webhook(tampered, delivery.signature, service.webhook_secret)) == "signature_mismatch"
    reserialised = json.dumps(json.loads(delivery.body)).encode()
    assert reason(lambda: verify_webhook(reserialised, delivery.signature, service.webhook_secret)) == "signature_mismatch"
    assert reason(lambda: verify_webhook(json.loads(delivery.body), delivery.signature, service.webhook_secret)) == "body_not_raw"
    # Replayed later than the tolerance, or with a timestamp moved: stale, or no longer matching.
    assert reason(lambda: verify_webhook(delivery.body, delivery.signature, service.webhook_secret, now=t + DEFAULT_TOLERANCE_SEC + 1)) == "timestamp_too_old"
    moved = delivery.signature.replace(f"t={t}", f"t={t + 1}")
    assert reason(lambda: verify_webhook(delivery.body, moved, service.webhook_secret)) == "signature_mismatch"
    assert verify_webhook(delivery.body, delivery.signature, service.webhook_secret, now=datetime.datetime.fromtimestamp(t + 300, datetime.timezone.utc))


def test_a_call_event_is_not_a_tool_request_and_a_missing_secret_is_a_programming_error(service, delivered) -> None:
    _, [delivery, _] = delivered
    assert reason(lambda: verify_tool_request(delivery.body, delivery.signature, service.webhook_secret)) == "invalid_json"
    with pytest.raises(TypeError):
        verify_webhook(delivery.body, delivery.signature, "")


def cases() -> List[Dict[str, Any]]:
    """Inputs for both verifiers: raw bytes (base64), text, null or an object as the body; a header as text, a
    list or null; one secret or several; a tolerance; the time checked against (epoch ms)."""
    event = json.dumps({"event": "call.completed", "eventId": "c:call.completed:1", "callId": "c"}, separators=(",", ":")).encode()
    tool = b'{"event":"tool.call","callId":"c","tool":"lookup","arguments":{"sku":"A-1"},"metadata":null}'
    sig = sign(event)
    now = T * 1000 + 500

    def case(body: Any, header: Any, secret: Any = SECRET, *, tolerance: Any = None, at: int = now, check: str = "webhook") -> Dict[str, Any]:
        if isinstance(body, bytes):
            wire = {"kind": "bytes", "b64": base64.b64encode(body).decode()}
        elif isinstance(body, str):
            wire = {"kind": "text", "text": body}
        elif body is None:
            wire = {"kind": "null"}
        else:
            wire = {"kind": "object", "value": body}
        return {"body": wire, "header": header, "secret": secret, "tolerance": tolerance, "now": at, "check": check}

    def signed(body: bytes, check: str = "webhook") -> Dict[str, Any]:
        return case(body, f"t={T},v1={sign(body)}", check=check)

    text = '{"event":"call.completed","note":"Zoë 😀"}'
    lone = '{"event":"call.failed","note":"\ud800"}'
    lone_bytes = lone.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode()
    return [
        case(event, f"t={T},v1={sig}"),
        case(event, [f"t={T}", f"v1={sig}"]),
        case(event, f"t={T},v1={sign(event, OTHER)},v1={sig}"),
        case(event, f"t={T},v1={sign(event, OTHER)}", [OTHER, SECRET]),
        case(event, f"t={T},v1={sig}", ["", SECRET]),
        case(event, f"t={T},v1={sig.upper()}"),
        case(event, f" t = {T} ,\u00a0v1 = {sig}\ufeff"),
        case(event, f"t={T},v0=deadbeef,v1={sig}"),
        case(event, f"t={T},v1={sign(event, OTHER)}"),
        case(event + b" ", f"t={T},v1={sig}"),
        case(json.dumps(json.loads(event)).encode(), f"t={T},v1={sig}"),
        case(event, f"t={T},v1={sig[:-1]}é"),
        case(event, f"t={T},v1={sig}", at=(T + 300) * 1000 + 999),
        case(event, f"t={T},v1={sig}", at=(T + 301) * 1000),
        case(event, f"t={T},v1={sig}", at=(T - 300) * 1000),
        case(event, f"t={T},v1={sig}", at=(T - 301) * 1000),
        case(event, f"t={T},v1={sig}", tolerance=10, at=(T + 11) * 1000),
        case(event, None),
        case(event, ""),
        case(event, " \t"),
        case(event, []),
        case(event, 42),
        case(event, f"v1={sig}"),
        case(event, f"t=abc,v1={sig}"),
        case(event, f"t={T},t={T},v1={sig}"),
        case(event, f"t=,v1={sig}"),
        case(event, f"=1,t={T},v1={sig}"),
        case(event, "garbage"),
        case(event, f"t=\u0661\u0662\u0663,v1={sig}"),
        case(event, f"t=1234567890123,v1={sig}"),
        case(event, f"T={T},v1={sig}"),
        case(event, f"t={T},v1={sig},x"),
        case(event, f"t={T}"),
        case(event, f"t={T},v0=deadbeef"),
        case(event, f"t=😀{T},v1={sig}"),
        case(None, f"t={T},v1={sig}"),
        case({"event": "call.completed"}, f"t={T},v1={sig}"),
        case(event, f"t={T},v1={sig}", ""),
        case(event, f"t={T},v1={sig}", []),
        signed(b"not json"),
        signed(b"[1,2]"),
        signed(b'{"no":"event"}'),
        signed(b'{"event":7}'),
        signed(b"NaN"),
        signed(b'{"event":"call.failed","n":Infinity}'),
        signed(b'{"event":"call.failed","n":1e400}'),
        signed(b'{"event":"call.failed","x":"\xff"}'),
        signed(b"\xef\xbb\xbf" + event),
        signed(b"\xef\xbb\xbf\xef\xbb\xbf" + event),
        signed(b" \r\n" + event + b"\t"),
        signed(b'{"event":"call.failed","event":"call.completed"}'),
        case(event.decode(), f"t={T},v1={sig}"),
        case(text, f"t={T},v1={sign(text.encode())}"),
        case(lone, f"t={T},v1={sign(lone_bytes)}"),
        signed(tool, "tool"),
        signed(event, "tool"),
        signed(b'{"event":"tool.call"}', "tool"),
        signed(b"[]", "tool"),
    ]


NODE_VERIFIER = """
import { verifyWebhook, verifyToolRequest } from '%s';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const verdicts = JSON.parse(input).map((c) => {
  const body = c.body.kind === 'bytes' ? Buffer.from(c.body.b64, 'base64') : c.body.kind === 'text' ? c.body.text : c.body.kind === 'null' ? null : c.body.value;
  const options = { now: c.now, ...(c.tolerance === null ? {} : { toleranceSec: c.tolerance }) };
  try {
    return { ok: (c.check === 'tool' ? verifyToolRequest : verifyWebhook)(body, c.header, c.secret, options) };
  } catch (e) {
    return e.name === 'WebhookVerificationError' ? { reason: e.reason, message: e.message } : { error: e.name };
  }
});
process.stdout.write(JSON.stringify(verdicts));
"""


def as_json_stringify_gives_it(value: Any) -> Any:
    """JSON.stringify writes an infinite number (1e400 parses to one) as null."""
    if isinstance(value, float) and math.isinf(value):
        return None
    if isinstance(value, dict):
        return {k: as_json_stringify_gives_it(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json_stringify_gives_it(v) for v in value]
    return value


def python_verdict(c: Dict[str, Any]) -> Dict[str, Any]:
    body = c["body"]
    raw = (
        base64.b64decode(body["b64"]) if body["kind"] == "bytes" else body["text"] if body["kind"] == "text" else None if body["kind"] == "null" else body["value"]
    )
    verify = verify_tool_request if c["check"] == "tool" else verify_webhook
    tolerance = DEFAULT_TOLERANCE_SEC if c["tolerance"] is None else c["tolerance"]
    try:
        return {"ok": as_json_stringify_gives_it(verify(raw, c["header"], c["secret"], tolerance, now=c["now"] / 1000))}
    except WebhookVerificationError as e:
        return {"reason": e.reason, "message": e.message}
    except TypeError:
        return {"error": "TypeError"}


def test_gives_the_typescript_sdks_verdict_and_message_for_every_input() -> None:
    node = shutil.which("node")
    assert node, "node is not on PATH"
    all_cases = cases()
    script = NODE_VERIFIER % (ROOT / "sdk/src/verify-webhook.ts").as_uri()
    run = subprocess.run(
        [node, "--import", "tsx", "--input-type=module", "-e", script], cwd=ROOT, input=json.dumps(all_cases), capture_output=True, text=True, timeout=120, check=True
    )
    expected = json.loads(run.stdout)
    got = [python_verdict(c) for c in all_cases]
    # The body_not_raw message names each language's way to the raw body; every other message is the same.
    for verdict in expected + got:
        if verdict.get("reason") == "body_not_raw":
            verdict["message"] = "(language's own)"
    mismatches = [(i, c["header"], e, g) for i, (c, e, g) in enumerate(zip(all_cases, expected, got)) if e != g]
    assert mismatches == []
    kinds = {v.get("reason") or ("ok" if "ok" in v else v["error"]) for v in got}
    assert kinds == {
        "ok",
        "TypeError",
        "missing_header",
        "malformed_header",
        "no_signature",
        "signature_mismatch",
        "timestamp_too_old",
        "timestamp_in_future",
        "body_not_raw",
        "invalid_json",
    }


def test_the_signature_header_name_and_default_tolerance_are_the_specs() -> None:
    assert (SIGNATURE_HEADER, DEFAULT_TOLERANCE_SEC) == ("X-SVC-Signature", 300)
    body = b'{"event":"call.completed"}'
    now = time.time()
    assert verify_webhook(bytearray(body), f"t={int(now)},v1={sign(body, t=int(now))}", SECRET) == {"event": "call.completed"}
    assert verify_webhook(memoryview(body), f"t={int(now)},v1={sign(body, t=int(now))}", (SECRET,)) == {"event": "call.completed"}
