"""What WebSockets cost the ws process, and how fast a live board recovers from a Redis restart.

    .venv/bin/python bench/sockets.py [--idle 1000] [--frames 80] [--outage 3] [--quick]

Starts the production topology (scripts/serve-topology.sh: nginx, gunicorn, one uvicorn ws
process, default limits) on a fresh PostgreSQL database `canfield_sockets_bench`
(127.0.0.1:5432) and a Redis of its own on a free port (tests/ops/stack.py: this one is stopped
and started), then, through nginx:
1. `--frames` sockets from one client address each send a 16 MiB frame (WS_PER_ADDRESS lets 50
   of them in, the rest are closed with 4429), then `--frames` sockets from as many addresses
   do (all in: the frame limit alone): the close codes, and the ws process's peak resident
   memory (VmHWM, reset before each round) over its resident memory before;
2. `--idle` listeners of today's board from 40 loopback addresses (127.0.0.2...) stay idle: the
   ws process's resident memory before and after, per socket;
3. a player acts every 0.2 s on today's board while a listener listens; Redis stops for
   `--outage` seconds and starts again: seconds from Redis answering to the listener's next
   message (the next batch, or 4408 when, as here, the batches of the outage were lost) and to
   the first batch on its new socket.
Client and server share this machine's cores; memory is the server's own. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as connect_sync

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import fresh_database  # noqa: E402
from tests.ops.stack import Player, Redis, Topology  # noqa: E402

DATABASE = "canfield_sockets_bench"
MiB = 1024 * 1024
ADDRESSES = 40


def memory_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise LookupError(field)


def reset_peak(pid: int) -> None:
    """VmHWM starts again from the current resident memory (Linux: clear_refs 5)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


async def open_socket(url: str, address: str) -> ClientConnection:
    return await connect(
        url, local_addr=(address, 0), open_timeout=30, ping_interval=None, max_size=None
    )


async def send_big_frame(url: str, address: str, frame: bytes) -> int | None:
    """One socket sends `frame` after its snapshot: the close code it got."""
    ws = await open_socket(url, address)
    try:
        await ws.recv()  # the snapshot, or the 4429 close
        await ws.send(frame)
        while True:
            await asyncio.wait_for(ws.recv(), timeout=30)
    except (ConnectionClosed, OSError):  # closed by the server (1006: reset before its close)
        pass
    return ws.close_code


def frames_round(url: str, pid: int, addresses: list[str]) -> str:
    frame = b"x" * (16 * MiB)

    async def run() -> list[int | None]:
        return await asyncio.gather(*(send_big_frame(url, a, frame) for a in addresses))

    before = memory_kb(pid, "VmRSS")
    reset_peak(pid)
    codes = Counter(asyncio.run(run()))
    time.sleep(1)
    peak, after = memory_kb(pid, "VmHWM"), memory_kb(pid, "VmRSS")
    return (
        f"{len(addresses)} sockets from {len(set(addresses))} address(es), a 16 MiB frame each: "
        f"close codes {dict(sorted(codes.items(), key=str))}; ws process {before / 1024:.0f} MiB "
        f"before, peak +{(peak - before) / 1024:.1f} MiB, after +{(after - before) / 1024:.1f} MiB"
    )


def idle_round(url: str, pid: int, count: int) -> str:
    async def run() -> tuple[int, int]:
        gate = asyncio.Semaphore(32)

        async def one(i: int) -> ClientConnection:
            async with gate:
                ws = await open_socket(url, f"127.0.0.{2 + i % ADDRESSES}")
                json.loads(await ws.recv())  # the snapshot
                return ws

        before = memory_kb(pid, "VmRSS")
        sockets = await asyncio.gather(*(one(i) for i in range(count)))
        await asyncio.sleep(3)
        during = memory_kb(pid, "VmRSS")
        await asyncio.gather(*(ws.close() for ws in sockets))
        return before, during

    before, during = asyncio.run(run())
    return (
        f"{count} idle sockets: ws process {before / 1024:.0f} MiB -> {during / 1024:.0f} MiB, "
        f"{(during - before) / count:.1f} KiB per idle socket"
    )


def recovery_round(topology: Topology, redis: Redis, url: str, outage: float) -> str:
    player = Player(topology.base_url, "recovery")
    player.new_game(daily=True, draw=3)
    stop = threading.Event()

    def play() -> None:
        while not stop.is_set():
            player.act()
            time.sleep(0.2)

    thread = threading.Thread(target=play)
    thread.start()
    try:
        with connect_sync(url, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
            assert json.loads(ws.recv(timeout=10))["type"] == "entries"  # batches flow
            redis.stop()
            time.sleep(outage)
            redis.start()  # returns once Redis answers a PING
            back = time.monotonic()
            try:
                while json.loads(ws.recv(timeout=60))["type"] != "entries":
                    pass
            except ConnectionClosed:
                pass
            first = time.monotonic() - back
        line = f"Redis down {outage:.0f} s: next message {first:.2f} s after it answered again"
        if ws.close_code is not None:
            with connect_sync(url, open_timeout=10) as again:
                assert json.loads(again.recv(timeout=10))["type"] == "snapshot"
                while json.loads(again.recv(timeout=60))["type"] != "entries":
                    pass
            line += (
                f" (closed {ws.close_code}: reconnected, first batch "
                f"{time.monotonic() - back:.2f} s after)"
            )
        return line
    finally:
        stop.set()
        thread.join(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--frames", type=int, default=80)
    parser.add_argument("--outage", type=float, default=3.0)
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.idle, args.outage = 200, 1.0
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    redis = Redis()
    topology = Topology(database_url=fresh_database(DATABASE), redis_url=redis.url)
    try:
        pid = topology.pid("ws-1")
        today = Player(topology.base_url, "opener").new_game(daily=True, draw=3)["daily"]["date"]
        url = f"ws://127.0.0.1:{topology.port}/ws/daily/{today}/3/"
        print(frames_round(url, pid, ["127.0.0.100"] * args.frames))
        print(frames_round(url, pid, [f"127.0.1.{i + 1}" for i in range(args.frames)]))
        print(idle_round(url, pid, args.idle))
        print(recovery_round(topology, redis, url, args.outage))
    finally:
        topology.stop()
        redis.stop()


if __name__ == "__main__":
    main()
