"""Validated actions per second of the REST API, against the stack's own floor.

    .venv/bin/python bench/api.py [--seconds 20] [--rounds 5] [--players 50] [--workers N]
                                  [--server gunicorn|uvicorn|daphne]

Starts the server as in production (DJANGO_DEBUG=0, `scripts/serve-http.sh` for gunicorn, on a
fresh PostgreSQL database `canfield_bench`, Redis cache when REDIS_URL is set), then in one run:
1. the floor: `--players` clients hammer `GET /api/v1/ping` (DRF, no database);
2. the game: `--players` simulated players, each on their own game, send legal actions (draw or
   recycle from the last game they saw, and one time in 8 a random legal move from
   `legal-actions`), each with `expect`.
The two phases alternate in `--rounds` slices, `--seconds` in all for each, so that load from
elsewhere on the machine weighs on both alike. Prints requests/s and p50/p99 latency of both,
and the action rate as a share of the floor, and the CPU time each request of each phase cost
the server, PostgreSQL, Redis and this load generator (from /proc); then runs `verify_games` on
what was played.
Traffic goes to 127.0.0.1 only; every loop stops at its deadline.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import Client, fresh_database, stop  # noqa: E402

PORT = 8765
LOG = "/tmp/canfield-bench-server.log"  # the server's stderr, for when something fails


def start_server(kind: str, workers: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    python = sys.executable
    bin_dir = Path(python).parent
    commands = {
        "gunicorn": ["bash", "scripts/serve-http.sh"],
        "uvicorn": [str(bin_dir / "uvicorn"), "canfield_site.asgi:application", "--host",
                    "127.0.0.1", "--port", str(PORT), "--workers", str(workers), "--no-access-log",
                    "--log-level", "warning"],
        "daphne": [str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(PORT),
                   "canfield_site.asgi:application"],
    }  # fmt: skip
    env = {**env, "HTTP_BIND": f"127.0.0.1:{PORT}", "WEB_WORKERS": str(workers)}
    with open(LOG, "wb") as log:
        server = subprocess.Popen(
            commands[kind], cwd=ROOT, env=env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=log,
        )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if Client(PORT).call("GET", "/api/v1/ping")[0] == 200:
                return server
        except OSError:
            time.sleep(0.2)
    stop(server)
    raise SystemExit("the server did not start")


HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(server: subprocess.Popen[bytes]) -> dict[int, tuple[str, float]]:
    """CPU time used so far by each process of the server, PostgreSQL, Redis and this one."""
    used: dict[int, tuple[str, float]] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().split(b"\0")[0]
        except OSError:  # gone meanwhile
            continue
        if int(fields[2]) == server.pid:  # the process group (start_new_session)
            name = "server"
        elif command.startswith(b"postgres"):
            name = "postgres"
        elif command.startswith(b"redis-server"):
            name = "redis"
        elif int(pid) == os.getpid():
            name = "load generator"
        else:
            continue
        used[int(pid)] = (name, (int(fields[11]) + int(fields[12])) / HZ)
    return used


def run_players(count: int, seconds: float, body) -> tuple[int, list[float], dict[int, int]]:
    """Run `body(index, deadline, latencies, statuses)` in `count` threads until the deadline."""
    latencies: list[list[float]] = [[] for _ in range(count)]
    statuses: list[dict[int, int]] = [{} for _ in range(count)]
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=body, args=(i, deadline, latencies[i], statuses[i]))
        for i in range(count)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    merged: dict[int, int] = {}
    for status in statuses:
        for code, n in status.items():
            merged[code] = merged.get(code, 0) + n
    flat = [x for lat in latencies for x in lat]
    return len(flat), flat, merged


def timed(client: Client, method: str, path: str, body, latencies, statuses):
    start = time.perf_counter()
    status, payload = client.call(method, path, body)
    latencies.append(time.perf_counter() - start)
    statuses[status] = statuses.get(status, 0) + 1
    return status, payload


def report(name: str, seconds: float, latencies: list[float], statuses: dict[int, int]) -> float:
    rate = len(latencies) / seconds
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    print(
        f"{name:<22} {rate:8.0f} req/s   p50 {q[49] * 1000:6.1f} ms   p99 {q[98] * 1000:6.1f} ms"
        f"   statuses {dict(sorted(statuses.items()))}"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5, help="alternations of the two phases")
    parser.add_argument("--workers", type=int, default=0, help="default: the server's script")
    parser.add_argument("--server", choices=["gunicorn", "uvicorn", "daphne"], default="gunicorn")
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.rounds, args.players = 3, 1, 10

    env = {
        **os.environ,
        "DATABASE_URL": fresh_database("canfield_bench"),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SECRET": secrets.token_urlsafe(50),
        "THROTTLE_REGISTER": "100000/min",
        "SIGNUP_LIMIT": "1000000",  # (every player signs up from the loopback)
        "THROTTLE_TOKEN": "100000/min",
        # Actions at the shipped rate (6,000 a minute an account, counted in leases of 6:
        # core/throttling.py), as production counts them; `--players` 50 stay far under it.
        "THROTTLE_ACTIONS": "6000/minute",
        "THROTTLE_GAMES": "1000000/min",  # (the players deal games back to back, one address)
        "THROTTLE_GAMES_BURST": "1000000/s",
        "THROTTLE_GAMES_ADDRESS": "1000000/min",
        "LOG_LEVEL": "ERROR",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on the loopback
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    workers = args.workers or (2 * (os.cpu_count() or 1) + 1)
    server = start_server(args.server, workers, env)
    try:
        # Players sign up and deal their games before the clock starts.
        tokens = []
        for i in range(args.players):
            status, body = Client(PORT).call(
                "POST",
                "/api/v1/auth/register",
                {"username": f"player{i}", "password": "bench-pass-99"},
            )
            assert status == 201, body
            tokens.append(body["token"])

        def floor(i, deadline, latencies, statuses):
            client = Client(PORT)
            while time.monotonic() < deadline:
                timed(client, "GET", "/api/v1/ping", None, latencies, statuses)

        # Each player keeps its client and game across rounds.
        clients = [Client(PORT, token) for token in tokens]
        games = []
        for client in clients:
            status, game = client.call("POST", "/api/v1/games", {})
            assert status == 201, game
            games.append(game)
        rngs = [random.Random(i) for i in range(args.players)]

        def player(i, deadline, latencies, statuses):
            client, rng, game = clients[i], rngs[i], games[i]
            while time.monotonic() < deadline:
                action = None
                if rng.random() < 1 / 8:
                    status, legal = client.call("GET", f"/api/v1/games/{game['id']}/legal-actions")
                    moves = [a for a in legal if a["type"] == "move"] if status == 200 else []
                    action = rng.choice(moves) if moves else None
                if action is None:
                    action = {"type": "draw" if game["stock"]["count"] else "recycle"}
                path = f"/api/v1/games/{game['id']}/actions"
                status, body = timed(
                    client, "POST", path, {**action, "expect": game["moves"]}, latencies, statuses
                )
                if status == 200:
                    game = body["game"]
                else:  # stale or failed: look again before the next action
                    status, body = client.call("GET", f"/api/v1/games/{game['id']}")
                    game = body if status == 200 else game
                if game["status"] != "playing":
                    status, body = client.call("POST", "/api/v1/games", {})
                    game = body if status == 201 else game
            games[i] = game

        # The phases alternate in short rounds so that load from elsewhere on the machine
        # weighs on both alike.
        slice_ = args.seconds / args.rounds
        print(
            f"server: {args.server} x{workers}, {args.players} clients, "
            f"{args.rounds} rounds of {slice_:.1f} s per phase"
        )
        floor_lat, act_lat = [], []
        floor_status: dict[int, int] = {}
        act_status: dict[int, int] = {}
        floor_cpu: dict[str, float] = {}
        act_cpu: dict[str, float] = {}
        for _ in range(args.rounds):
            for body, lat, stat, cpu in (
                (floor, floor_lat, floor_status, floor_cpu),
                (player, act_lat, act_status, act_cpu),
            ):
                before = cpu_seconds(server)
                _, more_lat, more_stat = run_players(args.players, slice_, body)
                after = cpu_seconds(server)
                lat += more_lat
                for code, n in more_stat.items():
                    stat[code] = stat.get(code, 0) + n
                # A process that ended meanwhile is left out: its last CPU time is unknown.
                for pid, (name, seconds) in after.items():
                    cpu[name] = cpu.get(name, 0.0) + seconds - before.get(pid, (name, 0.0))[1]
        floor_rate = report("floor GET /ping", args.seconds, floor_lat, floor_status)
        act_rate = report("POST .../actions", args.seconds, act_lat, act_status)
        validated = act_status.get(200, 0) / args.seconds
        print(f"validated actions/s = {validated:.0f}: {100 * validated / floor_rate:.0f}% of "
              f"the floor ({act_rate:.0f} requests/s)")  # fmt: skip
        for name, cpu, requests in (
            ("ping", floor_cpu, len(floor_lat)),
            ("action", act_cpu, len(act_lat)),
        ):
            shares = ", ".join(
                f"{who} {1000 * seconds / max(requests, 1):.2f}"
                for who, seconds in sorted(cpu.items())
            )
            print(f"CPU ms per {name}: {shares}")
    finally:
        stop(server)
    result = subprocess.run(
        [sys.executable, "manage.py", "verify_games"], cwd=ROOT, env=env, capture_output=True
    )
    print("verify_games:", result.stdout.decode().strip().splitlines()[-1:])


if __name__ == "__main__":
    main()
