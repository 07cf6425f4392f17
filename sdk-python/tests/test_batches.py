"""Batches through the SDK, against the running service: create (with its Idempotency-Key), get, list, the calls of
a batch, wait, cancel, the invalid_batch rejection with its errors, and the preflight naming them without creating."""
import datetime

import pytest

from svc import SvcApiError, SvcClient

OBJECTIVE = "Ask whether the shop is open on Sunday."


def numbers(n: int, first: int = 2000) -> list:
    return [{"to": f"+1415555{first + i}"} for i in range(n)]


def test_creates_a_batch_waits_for_it_to_complete_and_lists_its_calls(svc: SvcClient) -> None:
    created = svc.create_batch({"defaults": {"objective": OBJECTIVE}, "calls": numbers(3), "maxConcurrency": 2})
    assert created == {"batchId": created["batchId"], "status": "queued", "total": 3}
    done = svc.wait_for_batch(created["batchId"], timeout=120, interval=0.2)
    assert (done["id"], done["status"], done["counts"]["completed"], done["maxConcurrency"]) == (created["batchId"], "completed", 3, 2)
    assert svc.get_batch(created["batchId"])["status"] == "completed"
    assert svc.list_batches(limit=1)["batches"][0]["id"] == created["batchId"]
    calls = svc.list_calls(batch_id=created["batchId"])["calls"]
    assert sorted(c["to"] for c in calls) == [c["to"] for c in numbers(3)]
    assert {c["batchId"] for c in calls} == {created["batchId"]}


def test_rejects_a_bad_batch_with_invalid_batch_naming_each_bad_call(svc: SvcClient) -> None:
    with pytest.raises(SvcApiError) as raised:
        svc.create_batch({"defaults": {"objective": OBJECTIVE}, "calls": [{"to": "+14155552100"}, {"to": "+1415"}]})
    assert (raised.value.status, raised.value.token) == (400, "invalid_batch")
    assert raised.value.errors is not None
    assert [(e["index"], e["error"]) for e in raised.value.errors] == [(1, "invalid_number")]
    assert raised.value.problems is None


def test_preflights_a_batch_naming_each_bad_call_as_creating_it_would_and_creates_nothing(svc: SvcClient) -> None:
    before = len(svc.list_batches(limit=100)["batches"])
    body = {"defaults": {"objective": OBJECTIVE}, "calls": [{"to": "+14155552100"}, {"to": "+1415"}]}
    checked = svc.preflight_batch(body)
    with pytest.raises(SvcApiError) as raised:
        svc.create_batch(body)
    assert checked == {"valid": False, "total": 2, "errors": raised.value.errors}
    assert svc.preflight_batch({"defaults": {"objective": OBJECTIVE}, "calls": numbers(2, 2300)}) == {"valid": True, "total": 2, "errors": []}
    assert len(svc.list_batches(limit=100)["batches"]) == before


def test_replays_a_creation_with_the_same_key_and_cancels_a_batch_not_yet_started(svc: SvcClient) -> None:
    start_at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).isoformat()
    body = {"defaults": {"objective": OBJECTIVE}, "calls": numbers(2, 2200), "startAt": start_at}
    batch_id = svc.create_batch(body, idempotency_key="python-sdk-batch-1")["batchId"]
    assert svc.create_batch(body, idempotency_key="python-sdk-batch-1")["batchId"] == batch_id
    canceled = svc.cancel_batch(batch_id)
    assert (canceled["status"], canceled["counts"]["canceled"]) == ("canceled", 2)
    assert svc.wait_for_batch(batch_id, timeout=10, interval=0.1)["status"] == "canceled"
    assert svc.cancel_batch(batch_id)["status"] == "canceled"


def test_refuses_to_cancel_a_batch_that_completed(svc: SvcClient) -> None:
    batch_id = svc.create_batch({"defaults": {"objective": OBJECTIVE}, "calls": numbers(1, 2400)})["batchId"]
    assert svc.wait_for_batch(batch_id, timeout=120, interval=0.2)["status"] == "completed"
    with pytest.raises(SvcApiError) as refused:
        svc.cancel_batch(batch_id)
    assert (refused.value.status, refused.value.token) == (409, "batch_already_ended")
