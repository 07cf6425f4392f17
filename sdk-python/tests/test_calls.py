"""Placing, reading, listing, waiting for and cancelling calls through the SDK, against the running service."""
import datetime
import uuid

import pytest

from svc import ERROR_TOKENS, SvcApiError, SvcClient, SvcTimeoutError

SUNDAY = "Ask whether the shop is open on Sunday, and until what time."
FIELDS = [
    {"name": "open_sunday", "type": "boolean", "description": "Whether the shop opens on Sundays"},
    {"name": "closing_time", "description": "When it closes on Sunday"},
]


def tomorrow() -> str:
    """A startAt that keeps a call queued for the length of the test."""
    return (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).isoformat()


def test_places_a_call_and_waits_for_its_completed_record_with_the_extracted_fields(svc: SvcClient) -> None:
    placed = svc.place_call({"to": "+14155550123", "objective": SUNDAY, "fields": FIELDS, "metadata": {"order": "A-17"}})
    assert placed["status"] == "queued"
    assert placed["language"] == "en-US"
    assert placed["languageSource"] == "inferred"
    assert placed["voice"] == "alloy"

    call = svc.wait_for_call(placed["callId"], timeout=60, interval=0.1)
    assert call["id"] == placed["callId"]
    assert call["status"] == "completed"
    assert call["to"] == "+14155550123"
    assert call["error"] is None
    assert sorted(call["extracted"]) == ["closing_time", "open_sunday"]
    assert call["transcript"].startswith("Callee: ")
    assert call["durationSec"] > 0
    assert call["metadata"] == {"order": "A-17"}
    assert call == svc.get_call(placed["callId"])


def test_lists_the_calls_most_recent_first_and_honours_limit(svc: SvcClient) -> None:
    first = svc.place_call({"to": "+14155550111", "objective": SUNDAY})["callId"]
    second = svc.place_call({"to": "+14155550113", "objective": SUNDAY})["callId"]
    listed = svc.list_calls(limit=2)["calls"]
    assert [c["id"] for c in listed] == [second, first]
    assert {"id", "status", "to", "objective"} <= set(listed[0])
    assert "transcript" not in listed[0]
    assert svc.wait_for_call(first, timeout=60, interval=0.1)["status"] == "no_answer"
    assert svc.wait_for_call(second, timeout=60, interval=0.1)["status"] == "declined"


def test_a_placement_refused_by_validation_raises_svc_api_error_with_its_token_and_rate_limit_headers(svc: SvcClient) -> None:
    with pytest.raises(SvcApiError) as raised:
        svc.place_call({"to": "12345", "objective": SUNDAY})
    error = raised.value
    assert (error.status, error.token) == (400, "invalid_number")
    assert ERROR_TOKENS[error.token].status == 400
    assert error.message
    assert error.rate_limit.limit == 1000
    assert error.rate_limit.remaining is not None and error.rate_limit.reset_sec is not None
    assert error.rate_limit.policy == "1000;w=60"
    assert error.rate_limit.retry_after_sec is None
    assert error.request_id


def test_a_refused_placement_lists_every_problem_in_problems_the_first_being_its_token(svc: SvcClient) -> None:
    body = {"to": "+441534123456", "objective": " ", "sneaky": 1}
    with pytest.raises(SvcApiError) as raised:
        svc.place_call(body)
    error = raised.value
    assert (error.status, error.token, error.errors) == (400, "objective_required", None)
    assert [(p["error"], p["field"]) for p in error.problems] == [("objective_required", "objective"), ("unknown_field", "sneaky"), ("destination_blocked", "to")]
    assert (error.problems[0]["error"], error.problems[0]["message"]) == (error.token, error.message)
    with pytest.raises(SvcApiError) as checked:
        svc.preflight_call(body)
    assert checked.value.problems == error.problems


def test_a_wrong_key_is_unauthorized_and_an_unknown_call_not_found(service, svc: SvcClient) -> None:
    with pytest.raises(SvcApiError) as wrong:
        SvcClient("svc_ak_not_a_key_of_this_service", service.base_url).list_calls()
    assert (wrong.value.status, wrong.value.token) == (401, "unauthorized")
    assert wrong.value.rate_limit.limit is not None
    with pytest.raises(SvcApiError) as missing:
        svc.get_call(str(uuid.uuid4()))
    assert (missing.value.status, missing.value.token) == (404, "not_found")


def test_the_same_idempotency_key_replays_the_first_placement(svc: SvcClient) -> None:
    key = str(uuid.uuid4())
    first = svc.place_call({"to": "+14155550123", "objective": SUNDAY}, idempotency_key=key)
    again = svc.place_call({"to": "+14155550123", "objective": SUNDAY}, idempotency_key=key)
    assert again == first
    with pytest.raises(SvcApiError) as reused:
        svc.place_call({"to": "+14155550124", "objective": SUNDAY}, idempotency_key=key)
    assert (reused.value.status, reused.value.token) == (422, "idempotency_key_reused")


def test_preflight_says_what_a_placement_would_do_and_places_nothing(svc: SvcClient) -> None:
    before = [c["id"] for c in svc.list_calls(limit=1)["calls"]]
    checked = svc.preflight_call({"to": "+14155550123", "objective": SUNDAY})
    assert checked["number"] == {"e164": "+14155550123", "country": "US", "type": "fixed_line_or_mobile"}
    assert checked["callerId"] == "+14155550100"
    assert [c["id"] for c in svc.list_calls(limit=1)["calls"]] == before


def test_cancels_a_scheduled_call_and_refuses_to_cancel_one_that_ended_otherwise(svc: SvcClient) -> None:
    scheduled = svc.place_call({"to": "+14155550123", "objective": SUNDAY, "startAt": tomorrow()})
    canceled = svc.cancel_call(scheduled["callId"])
    assert canceled["status"] == "canceled"
    assert svc.cancel_call(scheduled["callId"])["status"] == "canceled"

    ended = svc.place_call({"to": "+14155550113", "objective": SUNDAY})["callId"]
    assert svc.wait_for_call(ended, timeout=60, interval=0.1)["status"] == "declined"
    with pytest.raises(SvcApiError) as refused:
        svc.cancel_call(ended)
    assert (refused.value.status, refused.value.token) == (409, "call_already_ended")


def test_wait_for_call_gives_up_with_svc_timeout_error_naming_the_last_status(svc: SvcClient) -> None:
    placed = svc.place_call({"to": "+14155550123", "objective": SUNDAY, "startAt": tomorrow()})
    with pytest.raises(SvcTimeoutError) as gave_up:
        svc.wait_for_call(placed["callId"], timeout=0.3, interval=0.1)
    assert (gave_up.value.call_id, gave_up.value.last_status) == (placed["callId"], "queued")
    assert svc.cancel_call(placed["callId"])["status"] == "canceled"


def test_downloads_the_recording_whole_and_by_range(svc: SvcClient) -> None:
    call = svc.wait_for_call(svc.place_call({"to": "+14155550123", "objective": SUNDAY})["callId"], timeout=60, interval=0.1)
    whole = svc.get_call_recording(call["id"])
    assert (whole.status, whole.content_type, whole.content[:4]) == (200, "audio/wav", b"RIFF")
    part = svc.get_call_recording(call["id"], range="bytes=0-43")
    assert (part.status, part.content, part.content_range) == (206, whole.content[:44], f"bytes 0-43/{len(whole.content)}")
