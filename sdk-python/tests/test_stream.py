"""The live streams through the SDK, against the running service: a call's stream as an iterator that ends with
the call, resuming after an event, the key's stream, and a stream that is not this key's."""
import uuid

import pytest

from svc import SvcApiError, SvcClient

OBJECTIVE = "Ask whether the shop is open on Sunday."


def test_streams_a_call_live_its_statuses_and_turns_and_ends_after_its_terminal_status(svc: SvcClient) -> None:
    call_id = svc.place_call({"to": "+14155550123", "objective": OBJECTIVE})["callId"]
    events = list(svc.stream_call(call_id))
    statuses = [e.data["status"] for e in events if e.event == "status"]
    assert statuses == ["queued", "dialing", "in_progress", "completed"]
    turns = [e.data for e in events if e.event == "turn"]
    assert len(turns) >= 2
    assert [t["index"] for t in turns] == list(range(len(turns)))
    assert {t["speaker"] for t in turns} == {"agent", "callee"}
    assert events[-1].event == "status" and all(e.data["callId"] == call_id for e in events)

    record = svc.get_call(call_id)
    assert [t["text"] for t in turns] == [t["text"] for t in record["turns"] or []]
    resumed = list(svc.stream_call(call_id, last_event_id=events[1].id))
    assert [e.id for e in resumed] == [e.id for e in events[2:]]


def test_follows_every_call_of_the_key_until_the_loop_stops(svc: SvcClient) -> None:
    stream = svc.stream_events()
    call_id = svc.place_call({"to": "+14155550113", "objective": OBJECTIVE})["callId"]
    seen = []
    for event in stream:
        if event.data["callId"] == call_id and event.event == "status":
            seen.append(event.data["status"])
            if event.data["status"] == "declined":
                break
    stream.close()
    assert seen == ["queued", "dialing", "declined"]


def test_a_stream_of_a_call_that_is_not_this_keys_raises_not_found(svc: SvcClient) -> None:
    with pytest.raises(SvcApiError) as raised:
        next(svc.stream_call(str(uuid.uuid4())))
    assert (raised.value.status, raised.value.token) == (404, "not_found")
