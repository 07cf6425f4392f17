"""examples/place_and_verify.py, run as a developer runs it, against the running service."""
import json
import os
import subprocess
import sys

from conftest import ROOT


def test_the_example_places_a_call_and_prints_its_verified_events_then_its_record(service) -> None:
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT / "sdk-python" / "src"),
        "SVC_API_KEY": service.api_key,
        "SVC_WEBHOOK_SECRET": service.webhook_secret,
        "SVC_BASE_URL": service.base_url,
    }
    run = subprocess.run([sys.executable, "examples/place_and_verify.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    *events, record = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(e["event"], e["status"]) for e in events] == [("call.in_progress", "in_progress"), ("call.completed", "completed")]
    assert sorted(events[1]["extracted"]) == ["closing_time", "open_sunday"]
    assert (record["status"], record["to"]) == ("completed", "+14155550123")
    assert f"placed {record['id']}" in run.stderr and "rejected" not in run.stderr


def test_the_example_refuses_to_start_without_its_key_and_secret() -> None:
    run = subprocess.run([sys.executable, "examples/place_and_verify.py"], cwd=ROOT, env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT / "sdk-python" / "src")}, capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stderr.strip()) == (1, "Set SVC_API_KEY and SVC_WEBHOOK_SECRET (npm start prints the dev key and secret).")
