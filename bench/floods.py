"""Other players' actions and reads while accounts flood the hints, then while rotating
addresses guess passwords, under the production topology.

    .venv/bin/python bench/floods.py [--seconds 30] [--hinters 8] [--guessers 24]
                                     [--addresses 24] [--workers 2]
                                     [--stream-tries 2000] [--stream-accounts 25]
                                     [--stream-addresses 10]
                                     [--database canfield_bench_floods] [--quick]

Starts the production topology (`scripts/serve-topology.sh`: nginx in front of the web pool
(gunicorn sync workers) and the heavy pool (hints and password doors, niced), DJANGO_DEBUG=0,
the production settings and their PBKDF2 hasher, every limit as shipped) on a fresh PostgreSQL
database and the Redis of REDIS_URL (default redis://127.0.0.1:6379/0). One player plays
draws and recycles and reads `GET /api/v1/daily`, one request after another, and the p50/p99
of its actions and reads are measured:
1. idle, for `--seconds`;
2. while `--hinters` accounts, each from an address of its own, ask for hints back to back,
   each at the start of another of 60 games dealt beforehand (so no answer comes from the
   cache; the 61st hint of a minute meets the account's limit, and a 429 is waited out);
3. while `--guessers` clients send wrong passwords to the API token, web login and admin
   login doors (the player's name or random ones), each request from the next of
   `--addresses` addresses, a new set of addresses every minute;
4. while streams (`GET games/{id}/stream`, through nginx to the ws process) are opened and held
   idle: `--stream-tries` at once from one address and one account (the caps answer all but
   STREAMS_PER_ACCOUNT of them 429), and STREAMS_PER_ACCOUNT from each of `--stream-accounts`
   accounts spread over `--stream-addresses` addresses (as many as the caps let in: 500 by
   default); the ws process's CPU and resident memory before and while they are held.
Prints each phase's figures, their ratios to idle (targets: p50 <= 2x, p99 <= 3x) and what
the attackers were answered. Addresses are loopback ones (127.x.y.z, another /16 each run);
every loop stops at its deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import itertools
import json
import multiprocessing
import os
import re
import resource
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import Client, production_env, start_topology, stop  # noqa: E402

PORT = 8768
LOG = "/tmp/canfield-bench-floods.log"  # the topology's output, for when something fails
PASSWORD = "floods-" + secrets.token_urlsafe(12)
FORK = multiprocessing.get_context("fork")  # the attackers' closures need no pickling
# This run's addresses, 127.NET.x.y: the limits count in Redis, which outlives a run, so each
# run takes other addresses than the last (a /16 of its own, one of 200).
NET = 20 + secrets.randbelow(200)
PLAYER = f"127.{NET}.0.1"


def client_from(address: str, token: str | None = None) -> Client:
    """A Client whose connections leave from `address` (any 127.x.y.z is this machine)."""
    client = Client(PORT, token)
    client.conn = http.client.HTTPConnection(
        "127.0.0.1", PORT, timeout=60, source_address=(address, 0)
    )
    return client


def register(address: str, name: str) -> str:
    for _ in range(30):
        status, body = client_from(address).call(
            "POST", "/api/v1/auth/register", {"username": name, "password": PASSWORD}
        )
        if status == 201:
            assert isinstance(body, dict)
            return str(body["token"])
        assert status == 503, (status, body)  # a password slot busy: retry
        time.sleep(1)
    raise SystemExit(f"could not register {name}")


def new_game(client: Client) -> dict[str, object]:
    status, game = client.call("POST", "/api/v1/games", {"draw": 3})
    assert status == 201 and isinstance(game, dict), (status, game)
    return game


def step(client: Client, game: dict[str, object]) -> tuple[int, dict[str, object]]:
    """A draw (or a recycle when the stock is empty): always legal, always a new position."""
    stock = game["stock"]
    assert isinstance(stock, dict)
    action = {"type": "draw"} if stock["count"] else {"type": "recycle"}
    status, body = client.call("POST", f"/api/v1/games/{game['id']}/actions", action)
    if status == 200 and isinstance(body, dict):
        return status, body["game"]
    if status == 409:  # the game ended (a recycle limit): another one
        return status, new_game(client)
    return status, game


# The player acts and reads at most this often (40 of each a second): a busy client, within
# the shipped THROTTLE_ACTIONS (6,000 a minute), which a player unpaced on a quiet machine
# (3 ms an action) would exceed.
PLAYER_PERIOD = 0.025


def measure(token: str, deadline: float) -> tuple[list[float], list[float]]:
    """The player's action and read latencies (ms) until the deadline."""
    client = client_from(PLAYER, token)
    game = new_game(client)
    actions, reads = [], []
    cycle = time.perf_counter()
    while time.monotonic() < deadline:
        time.sleep(max(0.0, cycle + PLAYER_PERIOD - time.perf_counter()))
        cycle = started = time.perf_counter()
        status, game = step(client, game)
        actions.append((time.perf_counter() - started) * 1000)
        assert status in (200, 409), status
        started = time.perf_counter()
        status, _ = client.send("GET", "/api/v1/daily")
        reads.append((time.perf_counter() - started) * 1000)
        assert status == 200, status
    return actions, reads


def hinter(address: str, token: str, games: list[str], deadline: float, answers: Counter[str]):
    """Hints back to back, each at the start of the next of `games`: a position not searched
    yet (until the games come round again, by when the account's limit answers). After a 429
    it waits a second, as told: a client that ignores it floods the proxy with requests, which
    costs what any request flood does (nginx's and the network's matter, not the hints')."""
    client = client_from(address, token)
    for game in itertools.cycle(games):
        if time.monotonic() >= deadline:
            break
        status, _ = client.send("GET", f"/api/v1/games/{game}/hint")
        answers[f"hint {status}"] += 1
        if status == 429:
            time.sleep(1)


def guesser(addresses: Callable[[], str], victim: str, deadline: float, answers: Counter[str]):
    doors = ("token", "web", "admin")
    n = 0
    while time.monotonic() < deadline:
        door = doors[n % 3]
        n += 1
        client = client_from(addresses())
        name = victim if secrets.randbelow(2) else f"guess{secrets.token_hex(3)}"
        password = secrets.token_urlsafe(12)
        if door == "token":
            body = json.dumps({"username": name, "password": password})
            status, _ = client.send("POST", "/api/v1/auth/token", body)
        else:
            path = f"/{'accounts' if door == 'web' else 'admin'}/login/"
            client.send("GET", path)
            token = client.cookies.get("csrftoken", "")
            body = f"csrfmiddlewaretoken={token}&username={name}&password={password}"
            status, _ = client.send(
                "POST", path, body, content_type="application/x-www-form-urlencoded"
            )
        answers[f"{door} {status}"] += 1


def percentiles(latencies: list[float]) -> tuple[float, float]:
    p50 = statistics.median(latencies)
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) >= 2 else p50
    return p50, p99


def report(name: str, figures: tuple[list[float], list[float]], idle: list[tuple[float, float]]):
    """One line per kind (actions, reads): p50 and p99, and their ratios to idle's."""
    measured = []
    for kind, latencies, base in zip(
        ("actions", "reads"), figures, idle or [None, None], strict=True
    ):
        p50, p99 = percentiles(latencies)
        measured.append((p50, p99))
        ratios = f"   {p50 / base[0]:5.2f}x   {p99 / base[1]:5.2f}x" if base else ""
        print(
            f"{name:<24} {kind:<8} {len(latencies):>6}   p50 {p50:8.1f} ms   "
            f"p99 {p99:8.1f} ms{ratios}"
        )
    return measured


def attack(
    name: str,
    token: str,
    seconds: float,
    idle: list[tuple[float, float]],
    threads: list[Callable[[float, Counter[str]], None]],
    during: Callable[[], tuple[float, float]] | None = None,
) -> None:
    """The attackers' `threads` in a process of their own (sharing this one's GIL would slow
    the measured player's client, not the server) while the player is measured; `during`,
    if given, measures the ws process (CPU %, MiB) from 70 % of the attack on."""
    deadline = time.monotonic() + seconds
    results: multiprocessing.SimpleQueue[dict[str, int]] = FORK.SimpleQueue()
    attackers = FORK.Process(target=run_threads, args=(threads, deadline, results))
    attackers.start()
    figures: list[tuple[float, float]] = []
    if during is not None:
        watcher = threading.Thread(
            target=lambda: (time.sleep(seconds * 0.7), figures.append(during()))
        )
        watcher.start()
    report(name, measure(token, deadline), idle)
    answers = results.get()
    attackers.join()
    print(f"  {name}: " + ", ".join(f"{key}: {n}" for key, n in sorted(answers.items())))
    if during is not None:
        watcher.join()
        cpu, rss = figures[0]
        print(f"  ws process while they are held: {cpu:.1f} % of a core, {rss:.0f} MiB")


def run_threads(
    threads: list[Callable[[float, Counter[str]], None]],
    deadline: float,
    results: multiprocessing.SimpleQueue[dict[str, int]],
) -> None:
    answers: Counter[str] = Counter()
    running = [threading.Thread(target=thread, args=(deadline, answers)) for thread in threads]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    results.put(dict(answers))


# What the shipped STREAMS_PER_ACCOUNT lets one account hold (settings; the phase's own figure).
STREAMS_PER_ACCOUNT = 20


def streams_held(opens: list[tuple[str, str, str]], deadline: float, answers: Counter[str]) -> None:
    """Opens a stream for each (address, token, game), at most 100 being opened at a time,
    and holds each one that opened, reading its keep-alives, until the deadline."""
    asyncio.run(_streams_held(opens, deadline, answers))


async def _streams_held(
    opens: list[tuple[str, str, str]], deadline: float, answers: Counter[str]
) -> None:
    opening = asyncio.Semaphore(100)

    async def hold(address: str, token: str, game: str) -> None:
        async with opening:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", PORT, local_addr=(address, 0)
                )
            except OSError as error:
                answers[f"stream {type(error).__name__}"] += 1
                return
            writer.write(
                f"GET /api/v1/games/{game}/stream HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Token {token}\r\nAccept: application/x-ndjson\r\n\r\n".encode()
            )
            status = (await reader.readline()).split()
            answer = status[1].decode() if len(status) > 1 else "closed"
            if answer != "200":  # which refusal: the body's error code
                code = re.search(rb'"code": ?"(\w+)"', await reader.read())
                answer += f" {code[1].decode()}" if code else ""
            answers[f"stream {answer}"] += 1
        try:
            await asyncio.wait_for(reader.read(), max(0.0, deadline - time.monotonic()))
        except (TimeoutError, OSError):
            pass
        finally:
            writer.close()

    await asyncio.gather(*(hold(*each) for each in opens))


def ws_process_figures(pid: int, seconds: float) -> tuple[float, float]:
    """(CPU % of a core over the next `seconds`, resident MiB) of the ws process."""

    def used() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before, started = used(), time.monotonic()
    time.sleep(seconds)
    cpu = (used() - before) / (time.monotonic() - started) * 100
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
    return cpu, int(rss.split()[1]) / 1024


def ws_pid(run_dir: str) -> int:
    """The pid of the topology's first uvicorn process (supervisord's program ws-1)."""
    supervisorctl = Path(sys.executable).with_name("supervisorctl")
    out = subprocess.run(
        [str(supervisorctl), "-c", f"{run_dir}/supervisord.conf", "pid", "ws-1"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return int(out.strip())


def stream_flood(
    args: argparse.Namespace, player: str, idle: list[tuple[float, float]], run_dir: str
) -> None:
    """Phase 4 (the module's docstring): streams opened and held idle while the player is
    measured, and the ws process's CPU and memory before and during."""
    flooder = f"127.{NET}.100.1"
    token = register(flooder, "streamer")
    opens = [(flooder, token, str(new_game(client_from(flooder, token))["id"]))] * args.stream_tries
    for n in range(args.stream_accounts):
        address = f"127.{NET}.101.{1 + n % args.stream_addresses}"
        account = register(f"127.{NET}.102.{1 + n}", f"streamer{n}")
        game = str(new_game(client_from(address, account))["id"])
        opens += [(address, account, game)] * STREAMS_PER_ACCOUNT
    pid = ws_pid(run_dir)
    cpu, rss = ws_process_figures(pid, 5)
    print(f"  ws process before the streams: {cpu:.1f} % of a core, {rss:.0f} MiB")
    per_thread = -(-len(opens) // 4)
    chunks = [opens[n : n + per_thread] for n in range(0, len(opens), per_thread)]
    attack(
        f"{len(opens)} streams tried",
        player,
        args.seconds,
        idle,
        [
            lambda deadline, answers, chunk=chunk: streams_held(chunk, deadline, answers)
            for chunk in chunks
        ],
        during=lambda: ws_process_figures(pid, args.seconds / 4),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--hinters", type=int, default=8)
    parser.add_argument("--guessers", type=int, default=24)
    parser.add_argument("--addresses", type=int, default=24, help="guessing addresses a minute")
    parser.add_argument("--workers", type=int, default=2, help="web pool: gunicorn workers")
    parser.add_argument("--stream-tries", type=int, default=2000, help="from one address")
    parser.add_argument("--stream-accounts", type=int, default=25)
    parser.add_argument("--stream-addresses", type=int, default=10)
    parser.add_argument("--database", default="canfield_bench_floods")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 8

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the stream flood's sockets
    run_dir = tempfile.mkdtemp(prefix="canfield-bench-floods-")
    env = production_env(
        args.database, SLOT_DIR=tempfile.mkdtemp(prefix="canfield-bench-slots-"), RUN_DIR=run_dir
    )
    server = start_topology(root=ROOT, port=PORT, log=LOG, workers=args.workers, env=env)
    try:
        player = register(PLAYER, "player")
        hinters = [register(f"127.{NET}.0.{10 + n}", f"hinter{n}") for n in range(args.hinters)]
        # As many games as an account's hints a minute (THROTTLE_HINTS), dealt beforehand.
        hint_games = [
            [str(new_game(client_from(f"127.{NET}.0.{10 + n}", token))["id"]) for _ in range(60)]
            for n, token in enumerate(hinters)
        ]
        print(
            f"nginx + web pool {args.workers} sync workers + heavy pool "
            f"(nice {os.environ.get('HEAVY_NICE', 19)}), "
            f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} "
            f"(a shared machine: figures are noisy)"
        )
        measure(player, time.monotonic() + 2)  # warm-up
        idle = report("idle", measure(player, time.monotonic() + args.seconds), [])

        attack(
            f"{args.hinters} hinting",
            player,
            args.seconds,
            idle,
            [
                lambda deadline, answers, n=n, token=token, games=games: hinter(
                    f"127.{NET}.0.{10 + n}", token, games, deadline, answers
                )
                for n, (token, games) in enumerate(zip(hinters, hint_games, strict=True))
            ],
        )

        started = time.monotonic()
        turn = iter(range(10**9))

        def rotating() -> str:
            """The next of this minute's `--addresses` addresses."""
            minute = int((time.monotonic() - started) // 60)
            return f"127.{NET}.{1 + minute}.{1 + next(turn) % args.addresses}"

        attack(
            f"{args.addresses} addresses guessing",
            player,
            args.seconds,
            idle,
            [
                lambda deadline, answers: guesser(rotating, "player", deadline, answers)
                for _ in range(args.guessers)
            ],
        )
        stream_flood(args, player, idle, run_dir)
        print(f"load after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    finally:
        stop(server)
        shutil.rmtree(env["SLOT_DIR"], ignore_errors=True)
        shutil.rmtree(run_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
