"""What a test run builds once for all its workers and for both of CI's passes: the
TypeScript SDK (tests/clients/conftest.py), the topologies' static files and PostgreSQL cluster
(tests/ops/stack.py), the migrated SQLite database (tests/conftest.py)."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path


def built_once(name: str, build: Callable[[Path], None], local: Callable[[], Path]) -> Path:
    """The directory `name`, made by `build(directory)` once per run where .ci/run gives its
    passes a directory to share (TEST_SHARED_DIR: the first to get here builds, under a lock,
    the others wait for it), else in `local()` (a directory of this process's own)."""
    shared = os.environ.get("TEST_SHARED_DIR")
    if not shared:
        out = local()
        build(out)
        return out
    out, done = Path(shared) / name, Path(shared) / f"{name}.built"
    with open(Path(shared) / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)  # (a build that failed)
            out.mkdir()
            build(out)
            done.touch()
    return out
