"""A free loopback TCP port for a server that the tests, the benchmarks or
scripts/serve-topology.sh start, one that no other caller gets:

    python scripts/ports.py        prints one

A port the kernel hands out for the asking (bind to port 0) lies in its ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range, 32768-60999 by default), where it also chooses the
local port of every outgoing connection: between the probe and the server's own bind, a
connection to the database or to another server could take it ("could not bind IPv4 address:
Address already in use", a PostgreSQL of a topology in CI, 2026-12-07). These ports lie below
that range, handed out in turn from a counter shared by every process of the machine (a file in
the temp directory, under a lock), so two callers never get the same one; one still bound (the
counter came round) is passed over."""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import tempfile
from pathlib import Path

FIRST = 10_000
COUNTER = Path(tempfile.gettempdir()) / "canfield-ports"


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    span = max(_ephemeral_start() - FIRST, 1_000)
    fd = os.open(COUNTER, os.O_RDWR | os.O_CREAT, 0o666)
    # Every user of the machine shares the counter: its creator lifts the umask's write bits.
    with contextlib.suppress(PermissionError):
        os.fchmod(fd, 0o666)
    with os.fdopen(fd, "r+") as counter:
        fcntl.flock(counter, fcntl.LOCK_EX)
        text = counter.read().strip()
        turn = int(text) if text.isdigit() else 0
        for _ in range(span):
            port = FIRST + turn % span
            turn += 1
            if _bindable(port):
                break
        else:
            raise OSError("no free loopback port below the ephemeral range")
        counter.seek(0)
        counter.truncate()
        counter.write(str(turn % span))
    return port


if __name__ == "__main__":
    print(free_port())
