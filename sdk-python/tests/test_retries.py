"""Retries: a placement whose answer is lost is sent again with the same Idempotency-Key and the service replays
it (one call), and the rules of what is retried and how long each wait is, against stand-ins on their bad days."""
import http.client
import uuid
from typing import List
from urllib.parse import urlsplit

import pytest

from svc import Retries, SvcApiError, SvcClient, SvcNetworkError

from conftest import Scripted, Seen, free_port, hang_up, json_answer

OBJECTIVE = "Ask whether the shop is open on Sunday."


def forward_to(base_url: str, replayed: List[str]):
    """Sends the request on to the service; `lose` hangs up instead of passing the service's answer back."""

    def forward(lose: bool):
        def answer(handler, seen: Seen) -> None:
            target = urlsplit(base_url)
            connection = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
            headers = {k: v for k, v in seen.headers.items() if k not in ("host", "connection")}
            connection.request(seen.method, seen.path, body=seen.body or None, headers=headers)
            response = connection.getresponse()
            data = response.read()
            connection.close()
            replayed.append(response.getheader("Idempotent-Replayed") or "")
            if lose:
                handler.close_connection = True
                return
            handler.send_response(response.status)
            for name, value in response.getheaders():
                if name.lower() not in ("transfer-encoding", "connection", "keep-alive"):
                    handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)

        return answer

    return forward


def test_a_placement_whose_answer_is_lost_is_sent_again_with_the_same_key_and_places_one_call(service) -> None:
    replayed: List[str] = []
    forward = forward_to(service.base_url, replayed)
    proxy = Scripted(forward(lose=True), forward(lose=False))
    sleeps: List[float] = []
    try:
        client = SvcClient(service.api_key, proxy.url, retries=Retries(max_attempts=3, base_delay=0.2), timeout=120, sleep=sleeps.append, random=lambda: 0)
        objective = f"{OBJECTIVE} ({uuid.uuid4()})"
        placed = client.place_call({"to": "+14155550123", "objective": objective})
    finally:
        proxy.close()
    keys = [s.headers["idempotency-key"] for s in proxy.seen]
    assert len(keys) == 2 and keys[0] == keys[1] and uuid.UUID(keys[0])
    assert replayed == ["", "true"]
    assert sleeps == [0.1]
    direct = SvcClient(service.api_key, service.base_url, timeout=120)
    assert [c["id"] for c in direct.list_calls(limit=100)["calls"] if c["objective"] == objective] == [placed["callId"]]


def test_waits_the_retry_after_of_a_503_then_succeeds() -> None:
    fake = Scripted(json_answer(503, {"error": "store_error", "message": "busy"}, {"Retry-After": "2"}), json_answer(200, {"calls": []}))
    sleeps: List[float] = []
    try:
        assert SvcClient("svc_ak_test", fake.url, retries=Retries(), sleep=sleeps.append).list_calls() == {"calls": []}
    finally:
        fake.close()
    assert sleeps == [2.0]
    assert len(fake.seen) == 2 and "idempotency-key" not in fake.seen[0].headers


def test_never_retries_over_minute_cap_nor_a_retry_after_longer_than_max_delay() -> None:
    fake = Scripted(
        json_answer(429, {"error": "over_minute_cap", "message": "used up"}, {"Retry-After": "3600"}),
        json_answer(429, {"error": "rate_limited", "message": "slow down"}, {"Retry-After": "45", "RateLimit-Remaining": "0"}),
    )
    client = SvcClient("svc_ak_test", fake.url, retries=Retries(max_delay=30), sleep=lambda s: pytest.fail(f"slept {s}"))
    try:
        with pytest.raises(SvcApiError) as cap:
            client.place_call({"to": "+14155550123", "objective": OBJECTIVE})
        with pytest.raises(SvcApiError) as limited:
            client.place_call({"to": "+14155550123", "objective": OBJECTIVE})
    finally:
        fake.close()
    assert (cap.value.status, cap.value.token, cap.value.rate_limit.retry_after_sec) == (429, "over_minute_cap", 3600)
    assert (limited.value.token, limited.value.rate_limit.retry_after_sec, limited.value.rate_limit.remaining) == ("rate_limited", 45, 0)
    assert len(fake.seen) == 2


def test_a_service_that_cannot_be_reached_is_svc_network_error_after_the_attempts_with_doubling_backoff() -> None:
    port = free_port()
    sleeps: List[float] = []
    client = SvcClient("svc_ak_test", f"http://127.0.0.1:{port}", retries=Retries(max_attempts=4, base_delay=1), sleep=sleeps.append, random=lambda: 0)
    with pytest.raises(SvcNetworkError) as raised:
        client.get_call("c")
    assert f"Is the service running at http://127.0.0.1:{port}?" in str(raised.value)
    assert isinstance(raised.value.__cause__, OSError)
    assert sleeps == [0.5, 1.0, 2.0]


def test_without_retries_a_lost_answer_is_raised_at_once() -> None:
    fake = Scripted(hang_up)
    try:
        with pytest.raises(SvcNetworkError):
            SvcClient("svc_ak_test", fake.url, sleep=lambda s: pytest.fail(f"slept {s}")).place_call({"to": "+14155550123", "objective": OBJECTIVE})
    finally:
        fake.close()
    assert len(fake.seen) == 1


def test_wait_for_call_waits_for_a_spent_window_to_reset_and_for_a_503s_retry_after() -> None:
    fake = Scripted(
        json_answer(200, {"id": "c", "status": "queued"}, {"RateLimit-Remaining": "0", "RateLimit-Reset": "7"}),
        json_answer(503, {"error": "store_error"}, {"Retry-After": "4"}),
        json_answer(200, {"id": "c", "status": "dialing"}, {"RateLimit-Remaining": "5", "RateLimit-Reset": "7"}),
        json_answer(200, {"id": "c", "status": "no_answer"}),
    )
    sleeps: List[float] = []
    try:
        call = SvcClient("svc_ak_test", fake.url, sleep=sleeps.append).wait_for_call("c", interval=1)
    finally:
        fake.close()
    assert call == {"id": "c", "status": "no_answer"}
    assert sleeps == [7.0, 4.0, 1.0]


def test_a_lost_live_stream_is_resumed_after_its_last_event_and_its_retry_wait() -> None:
    def events(*lines: str):
        def answer(handler, _: Seen) -> None:
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream")
            handler.end_headers()
            handler.wfile.write("".join(lines).encode())
            handler.close_connection = True

        return answer

    status = '{"id":"c:status:%s","callId":"c","status":"%s"}'
    fake = Scripted(
        events("retry: 250\n\n", ": a comment\n", "id: 1.0\nevent: status\ndata: " + status % ("queued", "queued") + "\n\n", "id: 2.0\nevent: status\ndata: {\"callId\":"),
        events("id: 2.0\r\nevent: status\r\ndata: " + status % ("dialing", "dialing") + "\r\n\r\n", "event: other\ndata: x\n\n", "id: 3.0\nevent: turn\ndata: {\"callId\":\"c\",\n"),
        events("id: 3.0\nevent: status\ndata: " + status % ("declined", "declined") + "\n\n", "id: 4.0\nevent: status\ndata: {}\n\n"),
    )
    sleeps: List[float] = []
    try:
        seen = [(e.event, e.id, e.data["status"]) for e in SvcClient("svc_ak_test", fake.url, sleep=sleeps.append).stream_call("c")]
    finally:
        fake.close()
    assert seen == [("status", "1.0", "queued"), ("status", "2.0", "dialing"), ("status", "3.0", "declined")]
    assert [s.headers.get("last-event-id") for s in fake.seen] == [None, "1.0", "2.0"]
    assert [s.path for s in fake.seen] == ["/v1/agent/calls/c/stream"] * 3
    assert sleeps == [0.25, 0.25]
