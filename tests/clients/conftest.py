"""The Python client and the terminal command against a real server: the suite's uvicorn
subprocess on its own database (tests/conftest.py: `base_url`), whose throttles these tests
need (`HINT_RATE`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from canfield_client import Client

from tests.conftest import HINT_RATE  # noqa: F401 (the server's, for tests/clients/test_client.py)
from tests.shared import built_once
from tests.web.helpers import PASSWORD, unique_name

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
TSC = PACKAGE / "node_modules" / ".bin" / "tsc"
# An app's compiler settings (not the package's own): strict, Node's modules. --incremental keeps
# what the compiler checked in a .tsbuildinfo file, the declarations of the libs and packages
# above all (skipLibCheck is off): a later program with the same settings and a copy of that
# file (docs/first-game.md's, test_first_game_doc.py) checks only its own file, ~1.7
# CPU-seconds instead of ~6.7.
APP_TSC = ["--strict", "--target", "es2022", "--module", "nodenext", "--types", "node",
           "--incremental"]  # fmt: skip


@pytest.fixture
def player(base_url):
    """A new account's client, closed after the test."""
    with Client(base_url) as client:
        client.register(unique_name("cli"), PASSWORD)
        yield client


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> Path:
    """The TypeScript SDK (clients/typescript) built in a directory of the tests' own, beside its
    node_modules: `dist/` as `npm run build` (or `npm pack`) builds it, and the sources, the test
    program and the example compiled with the same strict settings (the example imports the
    package by its name: dist/, through package.json's `exports`); then the example checked as an
    app's program (app.tsbuildinfo). Three compiler runs, ~24 CPU-seconds: made once per worker
    for test_typescript_sdk.py and test_first_game_doc.py (tests/conftest.py sends both to one),
    and once for CI's two passes where .ci/run gives them a directory to share (TEST_SHARED_DIR:
    the first to get here builds, the other waits for it). What the tests write in it has names
    of their own."""
    if not TSC.exists() or shutil.which("node") is None:
        pytest.fail("the SDK's npm dependencies are not installed: make test-tools")
    return built_once("typescript-sdk", _build_sdk, lambda: tmp_path_factory.mktemp("sdk"))


def _build_sdk(out: Path) -> None:
    (out / "node_modules").symlink_to(PACKAGE / "node_modules")
    shutil.copy(PACKAGE / "package.json", out / "package.json")
    for config, target in (("tsconfig.json", out / "dist"), ("tsconfig.test.json", out)):
        result = subprocess.run(
            [str(TSC), "-p", config, "--outDir", str(target)],
            cwd=PACKAGE, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
    # the example against the built types, importing the package by its name as an app does
    shutil.copy(PACKAGE / "examples" / "first-game.ts", out / "app.ts")
    result = subprocess.run(
        [str(TSC), *APP_TSC, "--tsBuildInfoFile", "app.tsbuildinfo", "--noEmit", "app.ts"],
        cwd=out, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
