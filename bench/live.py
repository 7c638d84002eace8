"""Live boards under load: listeners on one daily board while its players act at full speed.

    .venv/bin/python bench/live.py [--listeners 2000] [--players 20] [--seconds 8]
                                   [--one-process 0] [--quick]

Starts scripts/serve-topology.sh with two daphne processes (WS_PROCESSES=2) on a fresh
PostgreSQL database `canfield_live_bench` (127.0.0.1:5432) and Redis db 3, puts `--players`
players on today's 3-card daily (accounts and tokens written straight to the database), then:
1. the players act (draw/recycle with `expect`, through nginx) for `--seconds` with no listener;
2. `--listeners` WebSocket clients (in two client processes) connect to the board, half to each
   daphne process (directly: the proxy's 1,024 connections per worker would cap them first),
   and the players act again for `--seconds`.
Prints actions/s of both phases and the fall; for the listeners: how many batches each got
(every listener must get the same batches, in the same order: an entry's moves never go back),
and the change-to-screen latency (from the action's answer to the batch that carries its
figures arriving at a listener) p50/p99; and each daphne's memory. With `--one-process N`, a
third phase puts N more listeners on one daphne process and checks they all get every batch:
the count one process holds. The open-file limit is raised to its hard limit. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.daily import Game, fresh_database, new_games, play, tokens_for  # noqa: E402
from tests.ops.stack import Topology, children_of  # noqa: E402

DATABASE = "canfield_live_bench"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
REDIS_URL = "redis://127.0.0.1:6379/3"


def listen(urls: list[str], seconds: float, ready: Any, results: Any) -> None:
    """A client process: one socket per url for `seconds` after all are open; puts
    (opened, per-socket [(arrival, message text)] ) on `results`."""
    import websockets

    async def one(url: str, opened: asyncio.Event, log: list) -> None:
        async with websockets.connect(url, open_timeout=60, max_queue=None) as ws:
            log.append((time.time(), await ws.recv()))  # the snapshot
            opened.set()
            async for message in ws:
                log.append((time.time(), message))

    async def run() -> None:
        logs: list[list] = [[] for _ in urls]
        events = [asyncio.Event() for _ in urls]
        tasks = []
        for url, event, log in zip(urls, events, logs, strict=True):
            tasks.append(asyncio.create_task(one(url, event, log)))
            await asyncio.sleep(0.01)  # no thundering herd of handshakes
        # Sockets refused or dropped at the handshake count as failed, not as a hang.
        waits = [asyncio.create_task(e.wait()) for e in events]
        await asyncio.wait([*waits], timeout=120)
        ready.put(len(urls))
        await asyncio.sleep(seconds)
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
        for task in tasks:
            task.cancel()
        results.put((len(urls) - len(failed), [[m for m in log] for log in logs]))

    asyncio.run(run())


def ws_ports(topology: Topology) -> list[int]:
    conf = (topology.dir / "run" / "nginx.conf").read_text()
    upstream = conf[conf.index("upstream ws") :]
    return [
        int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+);", upstream[: upstream.index("}")])
    ]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def daphnes(topology: Topology) -> list[int]:
    launcher = int(topology.process.pid)
    found = []
    for pid in children_of(launcher):
        try:
            if "daphne" in Path(f"/proc/{pid}/cmdline").read_text():
                found.append(pid)
        except OSError:
            continue
    return sorted(found)


def check(logs: list[list[tuple[float, str]]], answered: dict[tuple[str, int], float]) -> str:
    """Every listener got the same batches, in order; latencies from answer to arrival."""
    batches = [[text for _, text in log[1:]] for log in logs]
    reference = max(batches, key=len)
    # A listener that opened later may have missed the first batches: compare the common tail.
    same = sum(1 for got in batches if got and reference[-len(got) :] == got)
    latencies = []
    backwards = 0
    for log in logs:
        seen: dict[str, int] = {}
        for arrival, text in log[1:]:
            message = json.loads(text)
            for entry in message.get("entries", []):
                if entry["moves"] < seen.get(entry["game"], -1):
                    backwards += 1
                seen[entry["game"]] = entry["moves"]
                sent = answered.get((entry["game"], entry["moves"]))
                if sent is not None:
                    latencies.append(arrival - sent)
    counts = [len(got) for got in batches]
    latencies.sort()
    p50 = statistics.median(latencies) if latencies else float("nan")
    p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)] if latencies else float("nan")
    return (
        f"{len(logs)} listeners: batches per listener min {min(counts)} max {max(counts)}; "
        f"{same} got the same batches in the same order; {backwards} entries went back; "
        f"change-to-screen p50 {p50 * 1000:.0f} ms p99 {p99 * 1000:.0f} ms "
        f"({len(latencies)} samples)"
    )


async def act(base_url: str, games: list[Game], seconds: float, answered: dict) -> float:
    """The players act for `seconds`; records when each (game, moves) was answered."""
    original = Game.act

    async def act_and_record(self: Game) -> float:
        took = await original(self)
        answered[(self.game["id"], self.game["moves"])] = time.time()
        return took

    Game.act = act_and_record  # type: ignore[method-assign]
    try:
        latencies = await play(games, len(games), seconds)
    finally:
        Game.act = original  # type: ignore[method-assign]
    return len(latencies) / seconds


def with_listeners(urls: list[str], seconds: float, during) -> tuple[Any, list]:
    """Open `urls` in two client processes, run `during()` once all are open, collect logs."""
    context = multiprocessing.get_context("spawn")
    ready, results = context.Queue(), context.Queue()
    halves = [urls[0::2], urls[1::2]]
    processes = [
        context.Process(target=listen, args=(half, seconds + 3, ready, results)) for half in halves
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=180)
    outcome = during()
    logs: list = []
    opened = 0
    for _ in processes:
        count, got = results.get(timeout=120)
        opened += count
        logs += got
    for process in processes:
        process.join(timeout=30)
    return outcome, logs, opened


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=2000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--one-process", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.listeners, args.players, args.seconds = 200, 10, 3.0
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    fresh_database(DATABASE)
    os.environ["WS_PROCESSES"] = "2"
    topology = Topology(database_url=DATABASE_URL, redis_url=REDIS_URL)
    try:
        ports = ws_ports(topology)
        print(f"topology on {topology.base_url}: daphne on ports {ports}, open files {hard}")

        async def setup() -> tuple[list[Game], str]:
            async with httpx.AsyncClient(base_url=topology.base_url, timeout=30) as client:
                tokens = await tokens_for("live", args.players, DATABASE_URL)
                games = await new_games(client, tokens, {"daily": True, "draw": 3})
            return games, games[0].game["daily"]["date"]

        def phase(answered: dict) -> float:
            async def run() -> float:
                limits = httpx.Limits(max_connections=args.players + 10)
                async with httpx.AsyncClient(
                    base_url=topology.base_url, timeout=30, limits=limits
                ) as client:
                    for game in games:
                        game.client = client
                    await play(games, len(games), 1.0)  # warm up
                    return await act(topology.base_url, games, args.seconds, answered)

            return asyncio.run(run())

        games, date = asyncio.run(setup())
        quiet = phase({})
        print(f"no listeners:          {quiet:7.0f} actions/s", flush=True)

        path = f"/ws/daily/{date}/3/"
        urls = [f"ws://127.0.0.1:{ports[i % len(ports)]}{path}" for i in range(args.listeners)]
        answered: dict = {}
        busy, logs, opened = with_listeners(urls, args.seconds + 1, lambda: phase(answered))
        print(
            f"{opened} listeners open:  {busy:7.0f} actions/s "
            f"(fall {1 - busy / quiet:.0%} against none)",
            flush=True,
        )
        print(check(logs, answered))
        print("daphne memory: " + ", ".join(f"{rss_mb(pid):.0f} MB" for pid in daphnes(topology)))

        if args.one_process:
            urls = [f"ws://127.0.0.1:{ports[0]}{path}"] * args.one_process
            answered = {}
            busy, logs, opened = with_listeners(urls, args.seconds + 1, lambda: phase(answered))
            print(f"one daphne, {opened} listeners open: {busy:.0f} actions/s")
            print(check(logs, answered))
            print("daphne memory: " + ", ".join(f"{rss_mb(p):.0f} MB" for p in daphnes(topology)))
    finally:
        topology.stop()


if __name__ == "__main__":
    main()
