"""`manage.py shell -c` against a test server's database without a Python start each time: one
process per pytest worker, started on the server's environment (tests/conftest.py:
`run_on_server`), that runs each program sent to it as `manage.py shell -c` would run it and
answers with what it printed. A program's start was ~0.7 CPU-seconds of the ~1 a call cost;
the suite makes ~80 such calls a run.

Between programs it leaves what a new process would not have: the database connections are
closed, and an in-process cache (LocMemCache, the embedded default) is emptied.

The protocol, one JSON line each way: {"code": "..."} in, {"out": "...", "error": "..." or
null} out, on the process's own stdin and stdout (a program's prints are captured)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import traceback
from contextlib import redirect_stdout
from pathlib import Path


def serve() -> None:
    """The loop of the shell process (`manage.py shell -c "...serve()"`)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache
    from django.core.management import call_command
    from django.db import connections

    # The answers on a descriptor of their own; whatever writes to descriptor 1 (a log handler
    # made before the redirect below) goes to stderr instead of into them.
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        printed, error = io.StringIO(), None
        try:
            with redirect_stdout(printed):
                call_command("shell", command=json.loads(line)["code"])
        except BaseException:  # noqa: BLE001 (a program's SystemExit is its caller's to see)
            error = traceback.format_exc()
        connections.close_all()
        for cache in caches.all(initialized_only=True):
            if isinstance(cache, LocMemCache):
                cache.clear()
        answers.write(json.dumps({"out": printed.getvalue(), "error": error}) + "\n")
        answers.flush()


class ServerShell:
    """The test side: `shell(code)` returns what `code` printed; raises if it raised."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c",
             "from tests.server_shell import serve; serve()"],
            cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.lock = threading.Lock()

    def __call__(self, code: str) -> str:
        assert self.process.stdin and self.process.stdout
        with self.lock:
            self.process.stdin.write(json.dumps({"code": code}) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the server shell ended ({self.process.poll()}) running:\n{code}")
        answer = json.loads(line)
        if answer["error"]:
            raise AssertionError(f"{answer['error']}\nprinted: {answer['out']}\nrunning:\n{code}")
        return answer["out"]

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
