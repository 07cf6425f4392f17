"""The generated models are types a checker understands: mypy, at Python 3.9, passes the package and the example,
accepts a well-typed use of the client and names the mistakes in a wrong one."""
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = Path(__file__).resolve().parents[1]

RIGHT = """
from svc import CallRecord, PlaceCallRequest, SvcClient, verify_webhook

svc = SvcClient("svc_ak_x")
body: PlaceCallRequest = {"to": "+14155550123", "objective": "Ask", "fields": [{"name": "open_sunday", "type": "boolean"}]}
record: CallRecord = svc.wait_for_call(svc.place_call(body, idempotency_key="k")["callId"], timeout=60)
status: str = record["status"]
for e in svc.stream_call(record["id"], last_event_id="1.0"):
    print(e.event, e.id)
event = verify_webhook(b"{}", "t=1,v1=00", ["whsec_a", "whsec_b"], 60, now=1.5)
print(event["eventId"], svc.list_calls(limit=5)["calls"][0]["id"], svc.get_call_recording("c", channels=2).content)
"""

WRONG = """
from svc import SvcClient

svc = SvcClient("svc_ak_x")
svc.place_call({"to": "+14155550123"})
svc.place_call({"to": "+14155550123", "objective": "Ask", "webhook_url": "https://example.com"})
svc.get_call_recording("c", channels=3)
svc.list_calls(limit="5")
"""


def mypy(*files: str) -> subprocess.CompletedProcess:
    # No cache: the checkout stays as it was.
    command = [sys.executable, "-m", "mypy", "--python-version", "3.9", "--no-incremental", "--cache-dir", "/dev/null", "--warn-unused-ignores", *files]
    return subprocess.run(command, cwd=PACKAGE, env={"MYPYPATH": str(PACKAGE / "src")}, capture_output=True, text=True, timeout=300)


def test_mypy_passes_the_package_the_example_and_a_well_typed_use_and_names_each_mistake() -> None:
    pytest.importorskip("mypy", reason="the type check needs mypy (Debian: python3-mypy)")
    with tempfile.TemporaryDirectory() as work:
        right, wrong = Path(work) / "right.py", Path(work) / "wrong.py"
        right.write_text(RIGHT)
        wrong.write_text(WRONG)
        checked = mypy("src", str(ROOT / "examples" / "place_and_verify.py"), str(right))
        assert checked.returncode == 0, checked.stdout
        refused = mypy(str(wrong))
    errors = [line.split(": error: ")[0].rsplit(":", 1)[1] for line in refused.stdout.splitlines() if ": error: " in line]
    assert errors == ["5", "6", "7", "8"], refused.stdout
    assert '"objective"' in refused.stdout and '"webhook_url"' in refused.stdout
