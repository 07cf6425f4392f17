"""The package: generated from the contract the service serves (every operation a method, every error token as
data), and built as an sdist and a wheel with the standard build backend, the wheel importable on its own."""
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path

import pytest

import svc
from svc import ERROR_TOKENS, SvcClient

PACKAGE = Path(__file__).resolve().parents[1]


def snake(name: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def test_has_a_method_for_every_operation_and_every_error_token_of_the_served_contract(service) -> None:
    with urllib.request.urlopen(f"{service.base_url}/openapi.json", timeout=60) as response:
        contract = json.load(response)
    operations = [op["operationId"] for item in contract["paths"].values() for op in item.values() if isinstance(op, dict) and "operationId" in op]
    assert {"placeCall", "createBatch", "redeliverEvent", "streamEvents"} <= set(operations)
    assert [o for o in operations if not callable(getattr(SvcClient, snake(o), None))] == []
    tokens = contract["components"]["schemas"]["ErrorToken"]["enum"]
    assert list(ERROR_TOKENS) == tokens
    assert (ERROR_TOKENS["rate_limited"].status, ERROR_TOKENS["not_found"].status, ERROR_TOKENS["store_error"].status) == (429, 404, 503)
    assert all(info.status is not None and info.description for info in ERROR_TOKENS.values())


def test_builds_an_sdist_and_a_wheel_and_the_wheel_works_alone() -> None:
    setuptools = pytest.importorskip("setuptools", reason="building needs setuptools (Debian: python3-setuptools)")
    if tuple(int(n) for n in setuptools.__version__.split(".")[:2]) < (70, 1):
        pytest.importorskip("wheel", reason="setuptools before 70.1 builds wheels with the wheel package (Debian: python3-wheel)")
    work = Path(tempfile.mkdtemp(prefix="svc-python-build-"))
    try:
        # A copy, so that the build's own folders (build/, *.egg-info) never land in the checkout.
        source = work / "sdk-python"
        shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "tests"))
        # The backend prints its own progress: the names come last, on a line of their own.
        build = "from setuptools import build_meta as b; s = b.build_sdist('dist'); w = b.build_wheel('dist'); print('BUILT', s, w)"
        out = subprocess.run([sys.executable, "-c", build], cwd=source, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-3000:]
        _, sdist_name, wheel_name = out.stdout.strip().splitlines()[-1].split(" ")
        # setuptools names the sdist svc-sdk-… before 69.3 and svc_sdk-… (PEP 625) since.
        assert sdist_name in (f"svc-sdk-{svc.__version__}.tar.gz", f"svc_sdk-{svc.__version__}.tar.gz")
        assert wheel_name == f"svc_sdk-{svc.__version__}-py3-none-any.whl"

        with zipfile.ZipFile(source / "dist" / wheel_name) as wheel:
            names = wheel.namelist()
            metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
            wheel.extractall(work / "installed")
        assert {"svc/__init__.py", "svc/py.typed", "svc/client.py", "svc/webhooks.py", "svc/generated/models.py", "svc/generated/operations.py", "svc/generated/error_tokens.py"} <= set(names)
        assert "Requires-Python: >=3.9" in metadata and "Requires-Dist" not in metadata
        with tarfile.open(source / "dist" / sdist_name) as sdist:
            members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
        assert {"pyproject.toml", "README.md", "src/svc/generated/models.py"} <= members

        probe = "import svc, sys; print(svc.__file__); print(svc.verify_webhook.__module__, len(svc.ERROR_TOKENS))"
        ran = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(work / 'installed')!r}); {probe}"], cwd=work, capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
        where, what = ran.stdout.splitlines()
        assert where.startswith(str(work / "installed"))
        assert what == f"svc.webhooks {len(ERROR_TOKENS)}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
