"""TypeScript programs on the types openapi-typescript generates (with no warning) from the live
schema, as a browser or Node app's author would write them: `tsc --strict` compiles them with no
cast around the API's shapes and refuses a misspelt pile; compiled, one (typescript/play.ts)
wins a game against a real server (uvicorn in a subprocess, tests/web/conftest.py), the other
(typescript/every.ts) calls every operation of the schema with its request examples.
openapi-typescript and typescript are npm packages of tests/web (`make test-tools`)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import net
from tests.clients.world import World, operations, samples
from tests.games.helpers import easy_deck
from tests.web.helpers import unique_name

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "tests" / "web" / "node_modules" / ".bin"
PLAY = Path(__file__).resolve().parent / "typescript" / "play.ts"
EVERY = PLAY.with_name("every.ts")
TSC = ["--strict", "--target", "es2022", "--module", "commonjs", "--lib", "es2022,dom"]
WRONG = """import type { components } from "./schema";
import { call } from "./every";
call("games_get", "get", "/api/v1/games/{game_id}", "key", {}, {});
call("games_list", "get", "/api/v1/games", "key", {}, { colour: "red" });
const move: components["schemas"]["MoveAction"] = { type: "move", from: "tablaeu:1", to: "wsate" };
const tap: components["schemas"]["TapAction"] = { type: "tap", from: "waste", to: "foundation" };
export { move, tap };
"""


@pytest.fixture(scope="module")
def schema(base_url) -> dict:
    return net.get(f"{base_url}/api/v1/schema/?format=json", timeout=30).json()


def examples_program(base_url: str, schema: dict) -> str:
    """examples.ts: a `call` of every.ts for each request example of each operation (one with
    nothing for an operation that takes nothing), with the ids of a world built for it."""
    calls = []
    for path, method, operation in operations(schema):
        operation_id = operation["operationId"]
        for sample in samples(operation_id):
            world = World(base_url, sample, operation_id)
            real = world.real(sample)
            arguments = [operation_id, method, path, world.token, real["path"], real["query"]]
            if real["body"] is not None:
                arguments.append(real["body"])
            calls.append(f"  () => call({', '.join(json.dumps(a) for a in arguments)}),")
    return 'import { call, run } from "./every";\n\nrun([\n' + "\n".join(calls) + "\n]);\n"


@pytest.fixture(scope="module")
def typed(base_url, schema, played_day, tmp_path_factory):
    """A directory with the schema's types (schema.d.ts, generated with no warning) and the
    programs."""
    if not (BIN / "tsc").exists() or shutil.which("node") is None:
        pytest.fail("openapi-typescript and typescript are not installed: make test-tools")
    root = tmp_path_factory.mktemp("typescript")
    generated = subprocess.run(
        [str(BIN / "openapi-typescript"), f"{base_url}/api/v1/schema/?format=json",
         "-o", str(root / "schema.d.ts")],
        check=True, capture_output=True, timeout=120, text=True,
    )  # fmt: skip
    assert "warn" not in (generated.stdout + generated.stderr).lower(), generated.stderr
    shutil.copy(PLAY, root / "play.ts")
    shutil.copy(EVERY, root / "every.ts")
    (root / "examples.ts").write_text(examples_program(base_url, schema))
    (root / "wrong.ts").write_text(WRONG)
    return root


@pytest.fixture(scope="module")
def programs(typed) -> subprocess.CompletedProcess:
    """One compiler run for all the programs (it costs seconds)."""
    return subprocess.run(
        [str(BIN / "tsc"), *TSC, "--outDir", "out", "play.ts", "examples.ts", "wrong.ts"],
        cwd=typed, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_tsc_strict_compiles_a_program_that_wins_a_game_and_refuses_a_misspelt_pile(
    typed, programs, base_url
):
    # every error is wrong.ts's: play.ts and examples.ts compile clean
    errors = [line for line in programs.stdout.splitlines() if "error TS" in line]

    # every answer typed by the schema: no cast (`as`), no media type pinned
    for program in (PLAY, EVERY):
        assert " as " not in program.read_text(), program
        assert '"application/json"]' not in program.read_text(), program
    assert programs.returncode != 0 and errors
    assert all(line.startswith("wrong.ts(") for line in errors), programs.stdout
    for bad in ('"tablaeu:1"', '"wsate"', "'to' does not exist", "game_id", "'colour'"):
        assert bad in programs.stdout, (bad, programs.stdout)

    played = subprocess.run(
        ["node", "out/play.js", base_url, unique_name("ts"), json.dumps(easy_deck())],
        cwd=typed, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout) == {"status": "won", "score": 255, "moves": 85, "listed": True}


def test_a_typescript_program_calls_every_operation_with_its_examples(
    typed, programs, schema, base_url
):
    # given: examples.ts compiled (tsc --strict checked each example against its operation)
    errors = [line for line in programs.stdout.splitlines() if "error TS" in line]
    assert [line for line in errors if not line.startswith("wrong.ts(")] == []

    # when
    ran = subprocess.run(
        ["node", "out/examples.js", base_url],
        cwd=typed, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    # then: every example answered with a 2xx, and the operations called are the schema's
    assert ran.returncode == 0, ran.stderr
    called = json.loads(ran.stdout)
    assert [(name, status) for name, status in called if not 200 <= status < 300] == []
    assert len(called) == sum(len(samples(op["operationId"])) for _, _, op in operations(schema))
    assert {name for name, _ in called} == {op["operationId"] for _, _, op in operations(schema)}
