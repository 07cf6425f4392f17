"""Places a sandbox call and receives its webhooks, verifying each on its raw body: the Python SDK's first hour.

    PYTHONPATH=sdk-python/src SVC_API_KEY=svc_ak_… SVC_WEBHOOK_SECRET=whsec_… python3 examples/place_and_verify.py

The service must run with SVC_WEBHOOK_ALLOW_PRIVATE=1 (the receiver here is on loopback, over http). Optional:
SVC_BASE_URL (default http://localhost:8080), PORT for the receiver (default a free one). Prints each verified
event as a JSON line, then the call's record. In an application, `pip install ./sdk-python` instead of PYTHONPATH.
"""
import json
import os
import queue
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from svc import SIGNATURE_HEADER, TERMINAL_STATUSES, CallEvent, SvcApiError, SvcClient, WebhookVerificationError, verify_webhook

api_key = os.environ.get("SVC_API_KEY", "")
secret = os.environ.get("SVC_WEBHOOK_SECRET", "")
if not api_key or not secret:
    sys.exit("Set SVC_API_KEY and SVC_WEBHOOK_SECRET (npm start prints the dev key and secret).")

events: "queue.Queue[CallEvent]" = queue.Queue()
seen = set()


class Hooks(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            event = verify_webhook(raw, self.headers.get(SIGNATURE_HEADER), secret)
        except WebhookVerificationError as e:
            print(f"rejected: {e.reason}", file=sys.stderr)
            self.send_response(400)
            self.end_headers()
            self.wfile.write(e.reason.encode())
            return
        # Answer at once; delivery is at-least-once, so a repeated eventId is acknowledged but handled once.
        self.send_response(204)
        self.end_headers()
        if event["eventId"] not in seen:
            seen.add(event["eventId"])
            events.put(event)

    def log_message(self, *args: object) -> None:
        pass


receiver = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "0"))), Hooks)
threading.Thread(target=receiver.serve_forever, daemon=True).start()
hook_url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks/svc"

svc = SvcClient(api_key, os.environ.get("SVC_BASE_URL") or "http://localhost:8080")
try:
    placed = svc.place_call(
        {
            "to": "+14155550123",
            "objective": "Ask whether the shop is open on Sunday, and until what time.",
            "fields": [
                {"name": "open_sunday", "type": "boolean", "description": "Whether the shop opens on Sundays"},
                {"name": "closing_time", "description": "When it closes on Sunday"},
            ],
            "webhookUrl": hook_url,
        }
    )
except SvcApiError as e:
    # The token is the stable part: branch on it, show the message to people.
    sys.exit(f"{e.status} {e.token}: {e.message}")
print(f"placed {placed['callId']}; waiting for its events at {hook_url}", file=sys.stderr)

while True:
    event = events.get(timeout=300)
    if event["callId"] != placed["callId"]:
        continue
    print(json.dumps({"event": event["event"], "status": event["status"], "summary": event["summary"], "extracted": event["extracted"]}))
    if event["status"] in TERMINAL_STATUSES:
        break
receiver.shutdown()
print(json.dumps(svc.get_call(placed["callId"])))
