"""3,000 open game streams (`GET /api/v1/games/{id}/stream`) and 3,000 open account event
streams (`GET /api/v1/account/events`) held by one ASGI process.

    .venv/bin/python bench/streams.py [--streams 3000] [--accounts 3000] [--actions 200]
                                      [--idle 20] [--database canfield_bench_streams] [--quick]

Starts the production topology (`scripts/serve-topology.sh`: nginx in front, gunicorn for the
API, one uvicorn process for WebSockets and streams, DJANGO_DEBUG=0) on a fresh PostgreSQL
database and the Redis of REDIS_URL (default redis://127.0.0.1:6379/0), makes one account and
`--streams` games, and opens one stream per game through nginx (HTTP/1.0: nginx passes the
lines on as they come): the first 100, then the others. Then `--accounts` accounts (each with
a key), and one account event stream each, the same way, beside the game streams. Then it
plays `--actions` actions, one after another, each on a game picked at random, and as many
games dealt, each by an account picked at random, and measures from the moment the request is
sent until its line arrives on that game's stream, or its `game_started` on that account's
event stream (the API's promise: within a second of the commit).
Prints the time to open the streams; the PostgreSQL sessions the uvicorn process holds (its
connections to the server) and the database's sessions in all, before and with the first 100
streams of each kind open (target: fewer than 10 more); the uvicorn process's resident memory
and threads before and with every stream of each kind open (targets: under 32 KiB a stream, no
thread a stream); its CPU over `--idle` seconds before the streams and again while they are
open and idle (each sends its keep-alive every 10 s, and nothing else: idle streams read
nothing); the latencies' p50/p99/max (target: max under 1 s); and the streams the topology
still holds.
Traffic stays on this machine: the streams leave from loopback addresses (127.77.x.y for the
games', 127.78.x.y for the accounts'), 40 from each (within nginx's burst of stream openings
per client); the game streams are all of one account, so this run lifts STREAMS_PER_ACCOUNT to
`--streams` (it measures what a process holds; bench/floods.py measures the caps).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import (  # noqa: E402
    PG_ADMIN,
    Client,
    free_port,
    production_env,
    start_topology,
    stop,
)

# A free port of this run (a fixed one met another checkout's topology on a shared machine).
PORT = free_port()
LOG = "/tmp/canfield-bench-streams.log"  # the topology's output, for when something fails
RUN_DIR = "/tmp/canfield-bench-streams"


def ws_process() -> int:
    """The pid of the topology's one uvicorn process (supervisord's program ws-1)."""
    supervisorctl = Path(sys.executable).with_name("supervisorctl")
    out = subprocess.run(
        [str(supervisorctl), "-c", f"{RUN_DIR}/supervisord.conf", "pid", "ws-1"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return int(out.strip())


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def cpu_percent(pid: int, seconds: float) -> float:
    """The share of one core the process used over the next `seconds`."""
    used, started = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)
    return (cpu_seconds(pid) - used) / (time.monotonic() - started) * 100


def database_sessions(pid: int) -> int:
    """The process's open TCP connections to PostgreSQL (port 5432): its database sessions."""
    sockets = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                sockets.add(target[8:-1])
    held = 0
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            held += remote_port == 5432 and fields[3] == "01" and fields[9] in sockets
    return held


def all_sessions(database: str) -> int:
    """The sessions PostgreSQL serves on `database` (every process of the topology)."""
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]
        ).fetchone()
    return int(row[0]) if row else 0


def memory(pid: int) -> tuple[float, int]:
    """(resident MiB, threads) of a process."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["Threads"])


class Stream:
    """A game's stream (`game`), or with `account` set, that account's event stream (`game`:
    the token of its account)."""

    def __init__(self, game: str, address: str, account: bool = False) -> None:
        self.game = game
        self.address = address
        self.account = account
        self.lines: asyncio.Queue[tuple[float, dict]] = asyncio.Queue()
        self.opened = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def run(self, token: str) -> None:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", PORT, limit=2**20, local_addr=(self.address, 0)
        )
        path = f"/api/v1/games/{self.game}/stream"
        if self.account:
            path, token = "/api/v1/account/events", self.game
        writer.write(
            f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Token {token}\r\nAccept: application/x-ndjson\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        assert b" 200 " in status, status
        while (await reader.readline()).strip():
            pass  # the headers
        if self.account:  # (its empty first line: open, what happens from now on is sent)
            self.opened.set()
        try:
            while line := await reader.readline():
                if line.strip():
                    await self.lines.put((time.monotonic(), json.loads(line)))
                    self.opened.set()
        finally:
            writer.close()


async def open_all(streams: list[Stream], token: str) -> None:
    for stream in streams:
        stream.task = asyncio.create_task(stream.run(token))
    await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in streams)), 600)
    for stream in streams:
        if not stream.account:
            await stream.lines.get()  # each one's `game` line


async def open_measured(
    streams: list[Stream], token: str, pid: int, database: str, what: str
) -> float:
    """Opens `streams`, the first 100 first, printing the database sessions before and with
    those 100 open; returns the seconds it took."""
    sessions = database_sessions(pid), all_sessions(database)
    started = time.monotonic()
    await open_all(streams[:100], token)
    await asyncio.sleep(1)  # (a connection closed is gone from the tables a moment later)
    with_100 = database_sessions(pid), all_sessions(database)
    print(
        f"PostgreSQL sessions: the uvicorn process {sessions[0]} before, {with_100[0]} with 100 "
        f"{what} open; the database's in all {sessions[1]} before, {with_100[1]} with them "
        f"(target: fewer than 10 more)"
    )
    await open_all(streams[100:], token)
    return time.monotonic() - started


def figures(latencies: list[float]) -> str:
    p99 = statistics.quantiles(latencies, n=100)[98]
    return (
        f"p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(latencies):.1f} ms (target: under 1,000 ms)"
    )


async def bench(
    args: argparse.Namespace, token: str, games: list[str], tokens: list[str], pid: int
) -> None:
    before, threads_before = memory(pid)
    cpu_before = await cpu_percent(pid, args.idle)
    # 40 streams an address: within nginx's burst of stream openings per client (50).
    streams = [
        Stream(game, f"127.77.{n // 40 // 250}.{1 + n // 40 % 250}") for n, game in enumerate(games)
    ]
    opened = await open_measured(streams, token, pid, args.database, "game streams")
    await asyncio.sleep(2)  # let the process settle (its first requests' garbage collected)
    held, threads_held = memory(pid)
    print(
        f"{len(streams)} game streams open through nginx in {opened:.1f} s; the uvicorn "
        f"process's PostgreSQL sessions then: {database_sessions(pid)}"
    )
    print(
        f"uvicorn process: {before:.0f} MiB, {threads_before} threads before; "
        f"{held:.0f} MiB, {threads_held} threads with {len(streams)} game streams open "
        f"({(held - before) * 1024 / len(streams):.1f} KiB a stream, target under 32; "
        f"{threads_held - threads_before} threads more)"
    )
    accounts = [
        Stream(key, f"127.78.{n // 40 // 250}.{1 + n // 40 % 250}", account=True)
        for n, key in enumerate(tokens)
    ]
    opened = await open_measured(accounts, token, pid, args.database, "account event streams")
    await asyncio.sleep(2)
    both, threads_both = memory(pid)
    cpu_held = await cpu_percent(pid, args.idle)
    print(
        f"{len(accounts)} account event streams open through nginx in {opened:.1f} s; the "
        f"uvicorn process's PostgreSQL sessions then: {database_sessions(pid)}"
    )
    print(
        f"uvicorn process: {both:.0f} MiB, {threads_both} threads with the {len(accounts)} "
        f"account event streams open too ({(both - held) * 1024 / max(1, len(accounts)):.1f} KiB "
        f"an account event stream, target under 32; {threads_both - threads_held} threads more)"
    )
    print(
        f"uvicorn process CPU over {args.idle:.0f} s: {cpu_before:.1f} % of a core before, "
        f"{cpu_held:.1f} % with {len(streams) + len(accounts)} idle streams open"
    )

    client = Client(PORT, token)
    # From the request sent, and from its answer (the commit came before it: what the API
    # promises is the line within a second of the commit; the request's own time is the API's).
    latencies, event_latencies = [], []
    after_answer: list[float] = []
    event_after_answer: list[float] = []
    for _ in range(args.actions):
        stream = random.choice(streams)
        sent = time.monotonic()
        status, _ = await asyncio.to_thread(
            client.send, "POST", f"/api/v1/games/{stream.game}/actions", '{"type": "draw"}'
        )
        answered = time.monotonic()
        assert status == 200, status
        arrived, line = await asyncio.wait_for(stream.lines.get(), 10)
        assert line["type"] == "action", line
        latencies.append((arrived - sent) * 1000)
        after_answer.append(max(0.0, arrived - answered) * 1000)
        if not accounts:
            continue
        account = random.choice(accounts)
        sent = time.monotonic()
        status, _ = await asyncio.to_thread(
            Client(PORT, account.game).send, "POST", "/api/v1/games", '{"draw": 1}'
        )
        answered = time.monotonic()
        assert status == 201, status
        arrived, line = await asyncio.wait_for(account.lines.get(), 10)
        assert line["type"] == "game_started", line
        event_latencies.append((arrived - sent) * 1000)
        event_after_answer.append(max(0.0, arrived - answered) * 1000)
    print(
        f"action sent -> its stream line ({len(latencies)} actions, "
        f"{len(streams) + len(accounts)} streams open): {figures(latencies)}; from its "
        f"answer: {figures(after_answer)}"
    )
    if event_latencies:
        print(
            f"game dealt -> its game_started on the account's event stream "
            f"({len(event_latencies)} games): {figures(event_latencies)}; from its answer: "
            f"{figures(event_after_answer)}"
        )
    every = streams + accounts
    alive = sum(not s.task.done() for s in every if s.task)
    print(f"streams still open at the end: {alive} of {len(every)}")
    for stream in every:
        if stream.task:
            stream.task.cancel()
    await asyncio.gather(*(s.task for s in every if s.task), return_exceptions=True)


# The accounts of the account event streams and a key each, made in one process against the
# bench's database (signing 3,000 accounts up would measure the password hasher).
ACCOUNTS = """
import json, sys, django
django.setup()
from django.contrib.auth import get_user_model
from accounts.services import keys_create_many
User = get_user_model()
users = User.objects.bulk_create(User(username=f"e{i}") for i in range(int(sys.argv[1])))
print(json.dumps(keys_create_many(users=users, name="bench")))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=3000)
    parser.add_argument("--accounts", type=int, default=3000)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--idle", type=float, default=20, help="seconds of each CPU window")
    parser.add_argument("--database", default="canfield_bench_streams")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.streams = 1000
        args.accounts = 1000
        args.actions = 50
        args.idle = 5
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    env = production_env(
        args.database,
        RUN_DIR=RUN_DIR,
        WS_PROCESSES="1",
        STREAMS_PER_ACCOUNT=str(args.streams),
        # (one account deals every streamed game, back to back)
        THROTTLE_GAMES="1000000/minute",
        THROTTLE_GAMES_BURST="1000000/second",
        THROTTLE_GAMES_ADDRESS="1000000/minute",
    )
    subprocess.run(["rm", "-rf", RUN_DIR], check=True)
    server = start_topology(root=ROOT, port=PORT, log=LOG, workers=2, env=env)
    try:
        client = Client(PORT)
        body = {"username": "streamer", "password": "green-felt-canfield-42"}
        status, registered = client.call("POST", "/api/v1/auth/register", body)
        assert status == 201, (status, registered)
        token = registered["token"]  # type: ignore[index]
        client = Client(PORT, token)
        games = []
        for _ in range(args.streams):
            status, game = client.call("POST", "/api/v1/games", {"draw": 1})
            assert status == 201, (status, game)
            games.append(game["id"])  # type: ignore[index]
        made = subprocess.run(
            [sys.executable, "-c", ACCOUNTS, str(args.accounts)],
            cwd=ROOT, env=env, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        tokens = json.loads(made.splitlines()[-1]) if args.accounts else []
        print(
            f"nginx + gunicorn 2 workers + 1 uvicorn process, {os.cpu_count()} CPUs "
            f"(shared: figures are noisy; load average {os.getloadavg()[0]:.1f} at the start)"
        )
        asyncio.run(bench(args, token, games, tokens, ws_process()))
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    finally:
        stop(server)


if __name__ == "__main__":
    main()
