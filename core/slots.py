"""Host-wide caps on expensive work: at most N solver runs (hints) and N password hashes at a
time on one host, whichever process or thread asks.

A kind of work has N slot files in SLOT_DIR; a run holds one with `flock` while it lasts. The
kernel drops the lock when the file is closed or its process dies, so a killed worker never
keeps a slot. A caller waits for a free slot up to SLOT_WAIT_SECONDS, then gets `Busy`, which
the API answers 503 `unavailable` with Retry-After (canfield_site/middleware.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings

POLL_SECONDS = 0.02


class Busy(Exception):
    """Every slot of a kind stayed taken for the whole wait."""

    def __init__(self, kind: str, retry_after: int) -> None:
        super().__init__(f"all {kind} slots busy")
        self.kind = kind
        self.retry_after = retry_after


@contextlib.contextmanager
def slot(kind: str, count: int) -> Iterator[None]:
    """Hold one of `count` slots of `kind` on this host while the block runs; raises Busy if
    none comes free within SLOT_WAIT_SECONDS."""
    directory = Path(settings.SLOT_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    wait = settings.SLOT_WAIT_SECONDS
    deadline = time.monotonic() + wait
    while True:
        for n in range(count):
            fd = os.open(directory / f"{kind}-{n}", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield
            finally:
                os.close(fd)  # releases the lock
            return
        if time.monotonic() >= deadline:
            raise Busy(kind, max(1, math.ceil(wait)))
        time.sleep(POLL_SECONDS)
