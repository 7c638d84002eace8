"""A TypeScript program on the types openapi-typescript generates from the live schema, as a
browser or Node app's author would write it (tests/games/typescript/play.ts): `tsc --strict`
compiles it with no cast around the API's shapes, refuses a misspelt pile, and the compiled
program wins a game against a real server (daphne in a subprocess, tests/web/conftest.py).
openapi-typescript and typescript are npm packages of tests/web (`make test-tools`)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.games.helpers import easy_deck
from tests.web.helpers import unique_name

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "tests" / "web" / "node_modules" / ".bin"
PLAY = Path(__file__).resolve().parent / "typescript" / "play.ts"
TSC = ["--strict", "--target", "es2022", "--module", "commonjs", "--lib", "es2022,dom"]
WRONG = """import type { components } from "./schema";
const move: components["schemas"]["MoveAction"] = { type: "move", from: "tablaeu:1", to: "wsate" };
const tap: components["schemas"]["TapAction"] = { type: "tap", from: "waste", to: "foundation" };
export { move, tap };
"""


@pytest.fixture(scope="module")
def typed(base_url, tmp_path_factory):
    """A directory with the schema's types (schema.d.ts) and the program."""
    if not (BIN / "tsc").exists() or shutil.which("node") is None:
        pytest.fail("openapi-typescript and typescript are not installed: make test-tools")
    root = tmp_path_factory.mktemp("typescript")
    subprocess.run(
        [str(BIN / "openapi-typescript"), f"{base_url}/api/v1/schema/?format=json",
         "-o", str(root / "schema.d.ts")],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    shutil.copy(PLAY, root / "play.ts")
    (root / "wrong.ts").write_text(WRONG)
    return root


def test_tsc_strict_compiles_a_program_that_wins_a_game_and_refuses_a_misspelt_pile(
    typed,
    base_url,
):
    # one compiler run (it costs seconds): every error is wrong.ts's, play.ts compiles clean
    compiled = subprocess.run(
        [str(BIN / "tsc"), *TSC, "--outDir", "out", "play.ts", "wrong.ts"],
        cwd=typed, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    errors = [line for line in compiled.stdout.splitlines() if "error TS" in line]

    # every answer typed by the schema: no cast (`as`), no media type pinned
    assert " as " not in PLAY.read_text() and '"application/json"]' not in PLAY.read_text()
    assert compiled.returncode != 0 and errors
    assert all(line.startswith("wrong.ts(") for line in errors), compiled.stdout
    for bad in ('"tablaeu:1"', '"wsate"', "'to' does not exist"):
        assert bad in compiled.stdout, (bad, compiled.stdout)

    played = subprocess.run(
        ["node", "out/play.js", base_url, unique_name("ts"), json.dumps(easy_deck())],
        cwd=typed, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout) == {"status": "won", "score": 255, "moves": 85, "listed": True}
