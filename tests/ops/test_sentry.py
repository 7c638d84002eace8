"""Optional error tracking: with SENTRY_DSN the settings start sentry-sdk, whose events reach
the DSN's server (here a local one standing in for Sentry); without it sentry-sdk is not even
imported."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """
import sys
import django
django.setup()
print("loaded" if "sentry_sdk" in sys.modules else "not loaded", flush=True)
if "sentry_sdk" in sys.modules:
    import sentry_sdk
    try:
        raise RuntimeError("canfield sentry check")
    except RuntimeError:
        sentry_sdk.capture_exception()
    sentry_sdk.flush(timeout=10)
"""


def run(env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        cwd=ROOT,
        env=dict(os.environ) | {"DJANGO_SETTINGS_MODULE": "tests.settings"} | env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_without_a_dsn_sentry_is_not_loaded():
    env = {"SENTRY_DSN": ""}

    assert run(env).strip() == "not loaded"


def test_with_a_dsn_errors_reach_its_server():
    # given: a server where the DSN points, recording what it is sent
    received: list[tuple[str, bytes]] = []

    class Collector(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            received.append((self.path, body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    dsn = f"http://publickey@127.0.0.1:{server.server_address[1]}/42"
    try:
        # when: a process with the app's settings and SENTRY_DSN meets an error
        output = run({"SENTRY_DSN": dsn, "SENTRY_ENVIRONMENT": "staging"})
    finally:
        server.shutdown()

    # then: the event reached the project's envelope endpoint, with its environment
    assert output.strip() == "loaded"
    assert [path for path, _ in received] == ["/api/42/envelope/"]
    items = [json.loads(line) for line in received[0][1].splitlines() if line.startswith(b"{")]
    event = next(item for item in items if "exception" in item)
    assert event["environment"] == "staging"
    assert event["exception"]["values"][0]["value"] == "canfield sentry check"
