"""docs/first-game.md runs as it is shown: its curl, Python and TypeScript code blocks, each
language's blocks in the page's order, against a live server (the uvicorn subprocess of
tests/clients/conftest.py), with the server's address and a fresh name in place of the page's
`http://127.0.0.1:8000` and `alice`. Each language prints the same: the moves after the draw,
the table in words, the size of today's board."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.clients.conftest import APP_TSC, TSC
from tests.web.helpers import unique_name

PAGE = Path(__file__).resolve().parents[2] / "docs" / "first-game.md"


def blocks(language: str, base_url: str) -> str:
    """The page's code blocks in `language`, one program, pointed at the live server."""
    code = "".join(re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(), re.DOTALL))
    name = unique_name(f"five{language}")
    return code.replace("http://127.0.0.1:8000", base_url).replace('"alice"', f'"{name}"')


def printed(run: subprocess.CompletedProcess[str]) -> None:
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0] == "1", run.stdout  # the moves after the draw
    assert len(lines) == 3 and lines[1].startswith("Stock: 31 cards;"), run.stdout  # the table
    assert lines[-1].isdigit(), run.stdout  # the board's count


def test_the_page_shows_four_steps_in_three_languages():
    text = PAGE.read_text()
    for language in ("sh", "python", "ts"):
        assert len(re.findall(rf"```{language}\n", text)) == 4, language
    assert "first-game.md" in (PAGE.parent.parent / "mkdocs.yml").read_text()


def test_the_curl_commands_run(base_url):
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", blocks("sh", base_url)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    printed(run)


def test_the_python_code_runs(base_url):
    run = subprocess.run(
        [sys.executable, "-c", blocks("python", base_url)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    printed(run)


def test_the_typescript_code_compiles_strictly_and_runs(compiled, base_url):
    # (with the settings, and the checked declarations, of the SDK's example: conftest.py; in
    # files of this test's own, beside the built package, which the other CI pass may share)
    name = unique_name("five")
    (compiled / f"{name}.ts").write_text(blocks("ts", base_url))
    shutil.copy(compiled / "app.tsbuildinfo", compiled / f"{name}.tsbuildinfo")
    built = subprocess.run(
        [str(TSC), *APP_TSC, "--tsBuildInfoFile", f"{name}.tsbuildinfo", f"{name}.ts"],
        cwd=compiled, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr

    run = subprocess.run(
        ["node", f"{name}.js"], cwd=compiled, env={"PATH": os.environ["PATH"]},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    printed(run)
