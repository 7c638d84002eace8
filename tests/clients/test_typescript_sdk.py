"""The TypeScript SDK (clients/typescript, `@canfield-club/client`) against a real server (the
uvicorn subprocess of tests/clients/conftest.py): its generated types are what the live schema
generates, `tsc --strict` compiles the package and its test program with no cast of an answer,
and the program (node:test, clients/typescript/test/sdk.test.ts) registers, wins a game while
the NDJSON stream follows it to its end, pages through a leaderboard, gets typed errors and
reads the live sockets. The package's npm dependencies are installed by `make test-tools`; its
build is tests/clients/conftest.py's `compiled`."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.clients.conftest import PACKAGE
from tests.games.helpers import easy_deck
from tests.web.helpers import unique_name

DOC = PACKAGE.parents[1] / "docs" / "typescript.md"


def node(
    compiled: Path, base_url: str, *args: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """`node *args` in the build against the server; a run past `timeout` seconds fails with
    what it printed by then (the TAP lines name the tests that ended)."""
    try:
        return subprocess.run(
            ["node", *args],
            cwd=compiled,
            env={"PATH": os.environ["PATH"], "CANFIELD_URL": base_url,
                 "CANFIELD_NAME": unique_name("tssdk"), "CANFIELD_DECK": json.dumps(easy_deck())},
            capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired as expired:
        printed = expired.stdout or b""
        text = printed.decode() if isinstance(printed, bytes) else printed
        pytest.fail(f"node {' '.join(args)} ran past {timeout} s; it printed:\n{text}")


def test_the_generated_types_are_those_of_the_live_schema(base_url):
    checked = subprocess.run(
        ["node", "scripts/generate.mjs", "--check", base_url],
        cwd=PACKAGE, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == "src/schema.ts is up to date"


def test_the_hand_written_layer_casts_no_answer():
    # the compiler's own parse of src/ and test/ (scripts/casts.mjs): every `as`, `<T>x` and `x!`
    listed = subprocess.run(
        ["node", "scripts/casts.mjs"], cwd=PACKAGE, capture_output=True, text=True, timeout=60
    )

    assert listed.returncode == 0, listed.stderr
    assert listed.stderr.strip() == "9 files"
    assert listed.stdout == ""


def test_the_sdk_plays_streams_pages_and_types_errors_against_the_server(
    compiled, base_url, server_log
):
    # each test has a time limit (sdk.test.ts: LIMIT), and a failed one is named in the TAP
    # output; the run then exits even if a failed test left a socket or a proxy open (it would
    # keep node's event loop alive)
    ran = node(
        compiled, base_url, "--test", "--test-reporter=tap", "--test-force-exit",
        "test/sdk.test.js", timeout=1000,
    )  # fmt: skip

    # (a failed run shows what the server said of its sockets, and its warnings: once, "the
    # live board opens with a snapshot" waited out its 100 s in CI, 2026-12-06, cause unknown)
    said = [
        line
        for line in server_log.read_text(errors="replace").splitlines()
        if "/ws/" in line or not (line.startswith("127.0.0.1") or '"level": "info"' in line)
    ]
    assert ran.returncode == 0, "\n".join([ran.stdout + ran.stderr, "the server:", *said[-80:]])
    assert "# pass 10" in ran.stdout and "# fail 0" in ran.stdout, ran.stdout
    # the game's stream: its 85 actions, then the end line; the two players' board: 2 pages or more
    assert "stream: 86 lines after the first, 85 actions" in ran.stdout, ran.stdout
    pages = re.search(r"leaderboard: (\d+) pages", ran.stdout)
    assert pages and int(pages.group(1)) >= 2, ran.stdout


def test_the_documented_example_runs(compiled, base_url):
    # docs/typescript.md shows examples/first-game.ts as it is
    shown = re.search(r"```ts\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert shown and shown.group(1) == (PACKAGE / "examples" / "first-game.ts").read_text()

    ran = node(compiled, base_url, "examples/first-game.js")

    assert ran.returncode == 0, ran.stderr
    played, refused = ran.stdout.splitlines()
    assert re.fullmatch(r"1 move, score \d+", played), played
    assert refused.startswith("409 stale "), refused
