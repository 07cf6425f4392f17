"""The SDK's tests run against the real service: `server/src/main.ts` started once for the session, on a free
loopback port, with its sandbox defaults (SQLite in a temporary folder, the sandbox carrier with its times scaled
down, the dev key and webhook secret fixed), and a webhook receiver of the test's own on loopback."""
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, List, NamedTuple, Optional

import pytest

from svc import SvcClient

ROOT = Path(__file__).resolve().parents[2]
API_KEY = "svc_ak_python_sdk_test_key_0123456789"
WEBHOOK_SECRET = "whsec_python_sdk_test_secret_0123456789abcdef"


def _stop_on_sigterm(signum: int, frame: object) -> None:
    # A SIGTERM (the mocha wrapper's timeout) ends the session through pytest, so the service is stopped too.
    raise KeyboardInterrupt


signal.signal(signal.SIGTERM, _stop_on_sigterm)


def _ended_with_this_process() -> None:
    """In the service's process before it starts: on Linux, it gets SIGTERM when the tests' process dies, however
    it dies, so no service outlives a killed run."""
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(what: str, probe: Callable[[], object], timeout: float = 20.0) -> object:
    """The probe's first truthy value, polled every 20 ms."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class Service(NamedTuple):
    base_url: str
    api_key: str
    webhook_secret: str
    log: Path


@pytest.fixture(scope="session")
def service():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the tests start the service with it")
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="svc-python-sdk-"))
    base_url = f"http://127.0.0.1:{port}"
    env = {
        "PATH": os.environ["PATH"],
        "SVC_DATA_DIR": str(data),
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "SVC_PUBLIC_BASE_URL": base_url,
        "SVC_DEV_API_KEY": API_KEY,
        "SVC_DEV_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "SVC_DEV_RATE_LIMIT": "1000",
        "SVC_WEBHOOK_ALLOW_PRIVATE": "1",
        "SVC_SANDBOX_TIME_SCALE": "0.01",
        "SVC_ENGINE_POLL_MS": "20",
        "SVC_STREAM_POLL_MS": "50",
        # The watchdog and the lease scale with nothing: generous, so a busy machine never trips them.
        "SVC_ENGINE_WATCHDOG_SEC": "3000",
        "SVC_ENGINE_LEASE_MS": "600000",
    }
    log = data / "service.log"
    with open(log, "wb") as out:
        child = subprocess.Popen(
            [node, "--import", "tsx", "server/src/main.ts"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_ended_with_this_process
        )

    def ready() -> bool:
        if child.poll() is not None:
            raise AssertionError(f"the service exited with {child.returncode}:\n{log.read_text()[-4000:]}")
        request = urllib.request.Request(f"{base_url}/v1/agent/calls?limit=1", headers={"Authorization": f"Bearer {API_KEY}"})
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    try:
        # The dev account is seeded just after the port opens.
        until("the service and its dev key", ready, timeout=60)
        yield Service(base_url, API_KEY, WEBHOOK_SECRET, log)
    finally:
        child.terminate()
        try:
            child.wait(12)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def svc(service: Service) -> SvcClient:
    # A first request of a kind may load much on a fresh service; on a busy machine that takes tens of seconds.
    return SvcClient(service.api_key, service.base_url, timeout=120)


class Delivery(NamedTuple):
    path: str
    signature: Optional[str]
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)


class Receiver:
    """A webhook receiver on loopback that keeps every request it gets, exactly as received, and answers 204."""

    def __init__(self) -> None:
        self.deliveries: List[Delivery] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver._lock:
                    receiver.deliveries.append(Delivery(self.path, self.headers.get("X-SVC-Signature"), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def received(self, path: str) -> List[Delivery]:
        with self._lock:
            return [d for d in self.deliveries if d.path == path]

    def wait_for(self, path: str, count: int, timeout: float = 30.0) -> List[Delivery]:
        """The first `count` deliveries to `path`, once they have come."""
        return until(f"{count} deliveries to {path}", lambda: len(self.received(path)) >= count and self.received(path)[:count], timeout)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture(scope="session")
def receiver():
    r = Receiver()
    yield r
    r.close()


class Seen(NamedTuple):
    method: str
    path: str
    headers: dict
    body: bytes


Answer = Callable[[BaseHTTPRequestHandler, Seen], None]


class Scripted:
    """A server on loopback that answers its requests in turn with the handlers given, and keeps what it was sent:
    a stand-in for the service on its bad days (an answer lost, a 503, a stream cut)."""

    def __init__(self, *answers: Answer) -> None:
        self.seen: List[Seen] = []
        self._answers = list(answers)
        scripted = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _any(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                scripted.seen.append(seen)
                answer = scripted._answers.pop(0)
                answer(self, seen)

            do_GET = do_POST = _any

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def json_answer(status: int, body: object, headers: Optional[dict] = None) -> Answer:
    def answer(handler: BaseHTTPRequestHandler, _: Seen) -> None:
        data = json.dumps(body).encode()
        handler.send_response(status)
        for name, value in {"Content-Type": "application/json", "Content-Length": str(len(data)), **(headers or {})}.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)

    return answer


def hang_up(handler: BaseHTTPRequestHandler, _: Seen) -> None:
    """Closes the connection without an answer."""
    handler.close_connection = True
