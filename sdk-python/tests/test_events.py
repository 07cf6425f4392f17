"""A call's events and a batch's own through the SDK, against the running service: the event log with its
deliveries to a receiver on loopback, redelivery, and its refusals."""
import uuid

import pytest

from svc import SvcApiError, SvcClient, verify_webhook

from conftest import Receiver, until

OBJECTIVE = "Ask whether the shop is open on Sunday."


def test_lists_a_calls_events_as_delivered_with_the_payload_that_was_signed(service, svc: SvcClient, receiver: Receiver) -> None:
    path = f"/hooks/{uuid.uuid4()}"
    call_id = svc.place_call({"to": "+14155550123", "objective": OBJECTIVE, "webhookUrl": receiver.url + path})["callId"]
    assert svc.wait_for_call(call_id, timeout=60, interval=0.1)["status"] == "completed"
    deliveries = receiver.wait_for(path, 2)

    def delivered():
        events = svc.list_call_events(call_id)["events"]
        return all(e["state"] == "delivered" for e in events) and events

    events = until("both events delivered", delivered)
    assert [e["event"] for e in events] == ["call.in_progress", "call.completed"]
    assert [[(a["attempt"], a["statusCode"], a["redelivery"]) for a in e["attempts"]] for e in events] == [[(1, 204, False)], [(1, 204, False)]]
    assert [verify_webhook(d.body, d.signature, service.webhook_secret) for d in deliveries] == [e["payload"] for e in events]


def test_redelivers_an_event_once_and_refuses_a_second_while_it_is_pending(service, svc: SvcClient, receiver: Receiver) -> None:
    path = f"/hooks/{uuid.uuid4()}"
    call_id = svc.place_call({"to": "+14155550111", "objective": OBJECTIVE, "webhookUrl": receiver.url + path})["callId"]
    [first] = receiver.wait_for(path, 1)
    event = until("the event delivered", lambda: [e for e in svc.list_call_events(call_id)["events"] if e["state"] == "delivered"])[0]
    assert event["event"] == "call.no_answer"

    queued = svc.redeliver_event(call_id, event["eventId"])
    assert (queued["eventId"], queued["state"]) == (event["eventId"], "pending")
    with pytest.raises(SvcApiError) as again:
        svc.redeliver_event(call_id, event["eventId"])
    assert (again.value.status, again.value.token) == (409, "redelivery_pending")
    assert again.value.rate_limit.retry_after_sec is not None and 1 <= again.value.rate_limit.retry_after_sec <= 10

    second = receiver.wait_for(path, 2)[1]
    assert second.body == first.body
    assert verify_webhook(second.body, second.signature, service.webhook_secret)["eventId"] == event["eventId"]
    log = until("the redelivery recorded", lambda: len(svc.list_call_events(call_id)["events"][0]["attempts"]) == 2 and svc.list_call_events(call_id)["events"][0])
    assert [(a["attempt"], a["statusCode"], a["redelivery"]) for a in log["attempts"]] == [(1, 204, False), (2, 204, True)]


def test_refuses_to_redeliver_an_event_of_a_call_placed_without_a_webhook_url(svc: SvcClient) -> None:
    call_id = svc.place_call({"to": "+14155550113", "objective": OBJECTIVE})["callId"]
    svc.wait_for_call(call_id, timeout=60, interval=0.1)
    [event] = svc.list_call_events(call_id)["events"]
    assert (event["event"], event["state"]) == ("call.declined", "none")
    with pytest.raises(SvcApiError) as refused:
        svc.redeliver_event(call_id, event["eventId"])
    assert (refused.value.status, refused.value.token) == (400, "no_webhook_url")
    with pytest.raises(SvcApiError) as missing:
        svc.list_call_events(str(uuid.uuid4()))
    assert (missing.value.status, missing.value.token) == (404, "not_found")


def test_lists_and_redelivers_a_batchs_own_event(service, svc: SvcClient, receiver: Receiver) -> None:
    path = f"/hooks/{uuid.uuid4()}"
    batch_id = svc.create_batch({"defaults": {"objective": OBJECTIVE}, "calls": [{"to": "+14155552300"}], "webhookUrl": receiver.url + path})["batchId"]
    assert svc.wait_for_batch(batch_id, timeout=120, interval=0.2)["status"] == "completed"
    [delivery] = receiver.wait_for(path, 1)
    sent = verify_webhook(delivery.body, delivery.signature, service.webhook_secret)
    assert (sent["event"], sent["batchId"]) == ("batch.completed", batch_id)

    [event] = until("the batch event delivered", lambda: [e for e in svc.list_batch_events(batch_id)["events"] if e["state"] == "delivered"])
    assert (event["event"], event["payload"]) == ("batch.completed", sent)
    assert svc.redeliver_batch_event(batch_id, event["eventId"])["state"] == "pending"
    assert receiver.wait_for(path, 2)[1].body == delivery.body
