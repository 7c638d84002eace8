"""The Python client and the terminal command against a real server: the suite's daphne
subprocess on its own database (tests/conftest.py: `base_url`), whose throttles these tests
need (`HINT_RATE`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from canfield_client import Client

from tests.conftest import HINT_RATE  # noqa: F401 (the server's, for tests/clients/test_client.py)
from tests.web.helpers import PASSWORD, unique_name

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
TSC = PACKAGE / "node_modules" / ".bin" / "tsc"
# An app's compiler settings (not the package's own): strict, Node's modules. --incremental keeps
# what the compiler checked in app.tsbuildinfo, the declarations of the libs and packages above
# all (skipLibCheck is off): a later program with the same settings (docs/first-game.md's,
# test_first_game_doc.py) checks only its own file, ~1.5 CPU-seconds instead of ~6.5.
APP_TSC = ["--strict", "--target", "es2022", "--module", "nodenext", "--types", "node",
           "--incremental", "--tsBuildInfoFile", "app.tsbuildinfo"]  # fmt: skip


@pytest.fixture
def player(base_url):
    """A new account's client, closed after the test."""
    with Client(base_url) as client:
        client.register(unique_name("cli"), PASSWORD)
        yield client


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> Path:
    """A copy of the TypeScript SDK (clients/typescript) in a directory of the test's own (CI's
    two passes run at once), beside its node_modules: `dist/` as `npm run build` (or `npm pack`)
    builds it, and the sources, the test program and the example compiled with the same strict
    settings (the example imports the package by its name: dist/, through package.json's
    `exports`). Once per worker for test_typescript_sdk.py and test_first_game_doc.py, which
    tests/conftest.py sends to one worker: each compiler run costs ~6-8 CPU-seconds."""
    if not TSC.exists() or shutil.which("node") is None:
        pytest.fail("the SDK's npm dependencies are not installed: make test-tools")
    out = tmp_path_factory.mktemp("typescript-sdk")
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
        [str(TSC), *APP_TSC, "--noEmit", "app.ts"],
        cwd=out, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return out
