"""The lock files: every package `make`, CI and the Docker image install, pinned with hashes.

    python scripts/lock.py            regenerate them from pyproject.toml's ranges (`make lock`)
    python scripts/lock.py --check    exit 1 when pyproject.toml's dependencies changed since

requirements-dev.lock holds the app, its build requirements (setuptools: the project is then
built without network, `--no-build-isolation`) and the `dev` extra; requirements.lock the same
versions without the `dev` extra (the Docker image). Both are universal (any platform, Python
3.11+). Each starts with a digest of the dependency tables of pyproject.toml, which `make setup`
compares (`--check`) before installing, so a range added without `make lock` fails clearly.
Regenerating needs uv (`make lock` installs the pinned version into .venv) and PyPI; the
previous lock is kept as the preference, so only what the change requires moves. `make lock
UPGRADE=1` moves everything to the newest versions the ranges allow.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
DEV_LOCK = ROOT / "requirements-dev.lock"
APP_LOCK = ROOT / "requirements.lock"
DIGEST_PREFIX = "# pyproject.toml dependencies: sha256 "
BUILD_SOURCE = "pyproject.toml (build-system)"


def dependency_digest() -> str:
    """A digest of what the lock depends on in pyproject.toml, and of nothing else in it."""
    data = tomllib.loads(PYPROJECT.read_text())
    project = data["project"]
    inputs = {
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
        "build-system": data.get("build-system", {}).get("requires", []),
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def recorded_digest(lock: Path) -> str | None:
    if not lock.exists():
        return None
    for line in lock.read_text().splitlines():
        if line.startswith(DIGEST_PREFIX):
            return line.removeprefix(DIGEST_PREFIX).strip()
    return None


def check() -> int:
    digest = dependency_digest()
    stale = [lock.name for lock in (DEV_LOCK, APP_LOCK) if recorded_digest(lock) != digest]
    if stale:
        print(
            f"{', '.join(stale)} out of date: pyproject.toml's dependencies changed since it "
            "was generated. Run `make lock` and commit the lock files with pyproject.toml.",
            file=sys.stderr,
        )
        return 1
    return 0


def compile_lock(uv: str, output: Path, sources: list[str], *, upgrade: bool) -> None:
    command = [
        uv, "pip", "compile", *sources,
        "--universal", "--python-version", "3.11", "--generate-hashes",
        "--quiet",
        "--custom-compile-command", "make lock",
        "--output-file", str(output.relative_to(ROOT)),
    ]  # fmt: skip
    if upgrade:
        command.append("--upgrade")
    subprocess.run(command, cwd=ROOT, check=True)
    text = output.read_text()
    output.write_text(f"{DIGEST_PREFIX}{dependency_digest()}\n{text}")


def regenerate(uv: str, *, upgrade: bool) -> None:
    data = tomllib.loads(PYPROJECT.read_text())
    build_requires = data.get("build-system", {}).get("requires", [])
    with tempfile.TemporaryDirectory() as tmp:
        build = Path(tmp) / "build-requirements.txt"
        build.write_text("".join(f"{requirement}\n" for requirement in build_requires))
        # One resolution for everything; the app's lock takes the same versions.
        compile_lock(
            uv, DEV_LOCK, ["pyproject.toml", "--extra", "dev", str(build)], upgrade=upgrade
        )
        compile_lock(
            uv, APP_LOCK, ["pyproject.toml", str(build), "--constraint", DEV_LOCK.name],
            upgrade=upgrade,
        )  # fmt: skip
        # uv names the temporary file in its "via" notes: name its source instead, so that the
        # same inputs give the same lock files.
        for lock in (DEV_LOCK, APP_LOCK):
            lock.write_text(lock.read_text().replace(str(build), BUILD_SOURCE))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the locks are fresh")
    parser.add_argument("--upgrade", action="store_true", help="newest versions in range")
    parser.add_argument("--uv", default=os.environ.get("UV", "uv"), help="the uv executable")
    args = parser.parse_args()
    if args.check:
        return check()
    regenerate(args.uv, upgrade=args.upgrade)
    return check()


if __name__ == "__main__":
    sys.exit(main())
