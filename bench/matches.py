"""Matches at scale (R32, R33): players joining through the production topology, the finish
of a match and its rating update once its games are reviewed (R35).

    .venv/bin/python bench/matches.py [--players 10000] [--clients 20] [--rate 50]
                                      [--workers 2] [--database canfield_bench_matches]
                                      [--port PORT] [--quick]

Starts the production topology (`scripts/serve-topology.sh`: nginx, gunicorn sync workers,
DJANGO_DEBUG=0) on a fresh PostgreSQL database and the Redis of REDIS_URL, on a free port
(or `--port`), makes `--players`
accounts with their tokens (directly in the database: sign-ups are throttled), fills the match
deal pool (the scheduler's job: the pool is filled here before the clock starts, so no solver
runs during the measurement, as in production where the scheduler keeps it ahead), then:
1. `--clients` clients, each from an address of its own (127.0.0.2, 127.0.0.3, ...: accounts
   of one address are never seated together, R32), make every player join once
   (`POST /api/v1/matches`), half duels and half tables of four, draw 3, at `--rate` joins a
   second in all (players arrive at a pace: clients that never pause would measure the queue
   for a worker, docs/benchmarks.md): the p50/p99 of a join (target: p99 < 50 ms), with how
   many matches they made and how full they are, and the server's CPU per join: the web
   pool's gunicorn processes' CPU time over the joins (/proc/PID/stat) divided by the joins,
   and that of the PostgreSQL backends serving the bench's database (those alive at the end:
   a lower bound), figures that mean something on a loaded machine too;
2. in process, against the same database once the topology is stopped (its `review_games`
   would review the games meanwhile): every game of (up to 1,000 of) the full matches
   ended with its fair-play review queued, each match finished in its transaction with the row
   lock (`match_finish`: places, the check that its games are reviewed, the commit, the live
   message; not rated: its reviews are pending, R35), then the reviews marked clean and each
   match rated as `review_run` does after a clean verdict (`match_rate_reviewed`: the locked
   read, the check, the seats, the ratings' rows, the history, the commit, the live message):
   per match, the mean and p99 (wall) and the CPU of the finish and of the rating after the
   reviews, and the rating update's own (`match_rate`, inside the latter: the rating rows made
   or locked and read, openskill, the rows and the history written; target: < 5 ms), and
   openskill's update alone for a duel and a table of four. The reviews' own cost is
   bench/fairplay.py's.
Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import (  # noqa: E402
    PG_ADMIN,
    AutoAnalyze,
    Client,
    free_port,
    production_env,
    start_topology,
    stop,
)

LOG = "/tmp/canfield-bench-matches.log"

# Accounts, tokens and the deal pool, made in one process against the bench's database.
SETUP = """
import json, sys, django
django.setup()
from django.contrib.auth import get_user_model
from accounts.services import keys_create_many
from matches.deals import match_deal_code
from matches.models import MatchDeal
players, deals = int(sys.argv[1]), int(sys.argv[2])
User = get_user_model()
users = User.objects.bulk_create(User(username=f"m{i}") for i in range(players))
tokens = keys_create_many(users=users, name="bench")
MatchDeal.objects.bulk_create(
    MatchDeal(draw=draw, index=i, deal_code=str(match_deal_code(draw, i)))
    for draw in (3, 1) for i in range(deals)
)
print(json.dumps(tokens))
"""

# Phase 2: finishing the full matches, then rating them once their games are reviewed (R35),
# timed one by one: the whole finish, the whole rating after the reviews, and the rating update
# inside it (match_rate, timed by a wrapper of it).
RATE = """
import json, time, django
django.setup()
from django.db import transaction
from django.utils import timezone
from fairplay.models import Review
from games.models import Game
from matches.models import Match
from matches import services
full = Match.objects.filter(full=True, status="open", draw=3)  # (draw 1: the warm-up's)
full = list(full.values_list("pk", flat=True)[:1000])
now = timezone.now()
# 10 actions each: played seats (R33a), not aborted ones of cancelled matches.
Game.objects.filter(match_seat__match__in=full).update(
    status="resigned", end_reason="resigned", finished_at=now, actions_count=10)
# Each game's end queues its review (R35), as a game's ending write does.
ended = Game.objects.filter(match_seat__match__in=full).values_list("pk", flat=True)
Review.objects.bulk_create(Review(game_id=pk, queued_at=now) for pk in ended)
rate = services.match_rate
rating = []
def timed_rate(**kwargs):
    started = time.perf_counter(), time.process_time()
    rate(**kwargs)
    rating.append(((time.perf_counter() - started[0]) * 1000,
                   (time.process_time() - started[1]) * 1000))
services.match_rate = timed_rate
finish = []
for pk in full:
    started = time.perf_counter(), time.process_time()
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=pk)
        services.match_finish(match=match, at=timezone.now())
    finish.append(((time.perf_counter() - started[0]) * 1000,
                   (time.process_time() - started[1]) * 1000))
rated_at_finish = Match.objects.filter(pk__in=full, rated_at__isnull=False).count()
# The reviews end clean (their own cost, ~0.4 s of CPU a game, is bench/fairplay.py's): what
# review_run then does for the match, in its transaction, timed per match.
Review.objects.filter(game__match_seat__match__in=full).update(
    state="clean", reviewed_at=timezone.now())
reviewed = []
for pk in full:
    started = time.perf_counter(), time.process_time()
    with transaction.atomic():
        services.match_rate_reviewed(pk)
    reviewed.append(((time.perf_counter() - started[0]) * 1000,
                     (time.process_time() - started[1]) * 1000))
rated = Match.objects.filter(pk__in=full, rated_at__isnull=False).count()
from matches import ratings
model = {}
for size in (2, 4):
    started = time.perf_counter()
    for _ in range(1000):
        ratings.rate([(ratings.MU, ratings.SIGMA)] * size, list(range(1, size + 1)))
    model[size] = (time.perf_counter() - started)  # ms per update over 1000
print(json.dumps({"finish": finish, "reviewed": reviewed, "rating": rating, "model": model,
                  "rated_at_finish": rated_at_finish, "rated": rated}))
"""


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def gunicorn_pids(root: int) -> list[int]:
    """The web pool's gunicorn processes (master and sync workers; not the heavy pool's) under
    the process `root`."""
    children: dict[int, list[int]] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        command = commands.get(pid, "").split("\0")
        if "canfield_site.wsgi:application" in command and "sync" in command:
            found.append(pid)
    return found


def backend_pids(database: str) -> list[int]:
    """The PostgreSQL backends connected to `database` now."""
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [database])
        return [pid for (pid,) in rows]


class AddressedClient(Client):
    """A keep-alive client whose connections come from one loopback address of its own."""

    def __init__(self, port: int, token: str, address: str) -> None:
        super().__init__(port, token)
        self.conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=60, source_address=(address, 0)
        )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--rate", type=float, default=50.0, help="joins a second, all clients")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="canfield_bench_matches")
    parser.add_argument("--port", type=int, default=0, help="the proxy's port (default: free)")
    parser.add_argument("--quick", action="store_true", help="1,000 players")
    args = parser.parse_args()
    if args.quick:
        args.players = 1000

    # MATCH_POOL_SIZE 0: the topology's scheduler solves nothing during the run (filled here).
    env = production_env(
        args.database,
        MATCH_POOL_SIZE="0",
    )
    python = str(ROOT / ".venv" / "bin" / "python")
    port = args.port or free_port()
    server = start_topology(root=ROOT, port=port, log=LOG, workers=args.workers, env=env)
    try:
        warm = 4 * args.workers
        made = subprocess.run(
            [python, "-c", SETUP, str(args.players + warm), str(args.players)],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )  # fmt: skip
        if made.returncode:
            sys.exit(f"setting up the accounts and the deal pool failed:\n{made.stderr}")
        tokens = json.loads(made.stdout)
        # A server in production is warm: each worker's first join imports and connects (about
        # 170 ms, and the joins behind it wait). Warm-up joins of accounts of their own, in
        # another mode (draw 1), before the clock, a round of `workers` at once at a time.
        tokens, warming = tokens[:-warm], tokens[-warm:]
        for start in range(0, warm, args.workers):
            rounds = [
                threading.Thread(target=AddressedClient(port, token, f"127.0.1.{start + i + 2}")
                                 .call, args=("POST", "/api/v1/matches", {"size": 4, "draw": 1}))
                for i, token in enumerate(warming[start : start + args.workers])
            ]  # fmt: skip
            for thread in rounds:
                thread.start()
            for thread in rounds:
                thread.join()
        latencies: list[float] = []
        at: list[tuple[float, float]] = []  # (seconds into the run, latency ms) of each join
        failures: list[int] = []
        lock = threading.Lock()

        def client(index: int) -> None:
            mine = tokens[index :: args.clients]
            address = f"127.0.0.{index + 2}"
            local: list[float] = []
            moments: list[tuple[float, float]] = []
            interval = args.clients / args.rate
            due = time.monotonic() + index * interval / args.clients
            for n, token in enumerate(mine):
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
                due += interval
                player = AddressedClient(port, token, address)
                body = {"size": 2 if n % 2 == 0 else 4, "draw": 3}
                started = time.perf_counter()
                status, _ = player.call("POST", "/api/v1/matches", body)
                local.append((time.perf_counter() - started) * 1000)
                moments.append((time.monotonic() - begun, local[-1]))
                player.conn.close()
                if status != 201:
                    with lock:
                        failures.append(status)
            with lock:
                latencies.extend(local)
                at.extend(moments)

        web = gunicorn_pids(server.pid)
        web_before = sum(cpu_seconds(pid) for pid in web)
        database_before = {pid: cpu_seconds(pid) for pid in backend_pids(args.database)}
        started = begun = time.monotonic()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        with AutoAnalyze(env["DATABASE_URL"]) as analyzed:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        elapsed = time.monotonic() - started
        web_cpu = sum(cpu_seconds(pid) for pid in web) - web_before
        database_cpu = sum(
            cpu_seconds(pid) - database_before.get(pid, 0.0) for pid in backend_pids(args.database)
        )

        counted = subprocess.run(
            [python, "-c", "import django, json; django.setup();"
             "from matches.models import Match; from django.db.models import Count;"
             "print(json.dumps(list(Match.objects.filter(draw=3).values('size', 'seats')"
             ".annotate(n=Count('id')).order_by('size', 'seats'))))"],
            cwd=ROOT, env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        shapes = json.loads(counted.stdout)
        print(f"players: {args.players} from {args.clients} clients, {args.workers} web workers")
        if analyzed.needed:
            print(f"autovacuum is off here: its auto-analyze done every {analyzed.every:.0f} s "
                  f"({analyzed.runs} tables analyzed)")  # fmt: skip
        print(f"joins: {len(latencies)} in {elapsed:.1f} s ({len(latencies) / elapsed:.0f}/s), "
              f"failed: {len(failures)} {sorted(set(failures))}")  # fmt: skip
        print(f"join p50: {statistics.median(latencies):.1f} ms")
        print(f"join p99: {percentile(latencies, 0.99):.1f} ms (target < 50)")
        slow = sum(ms >= 50 for _moment, ms in at)
        span = max(moment for moment, _ms in at) / 10
        print(f"joins of 50 ms or more: {slow}; by tenth of the run ({span:.0f} s each): "
              "p99 ms / joins of 50 ms or more")  # fmt: skip
        windows: dict[int, list[float]] = {}
        for moment, ms in at:
            windows.setdefault(min(9, int(moment // span)), []).append(ms)
        print("  " + ", ".join(
            f"{percentile(v, 0.99):.0f}/{sum(ms >= 50 for ms in v)}"
            for _w, v in sorted(windows.items())
        ))  # fmt: skip
        joins = len(latencies)
        web_ms, database_ms = 1000 * web_cpu / joins, 1000 * database_cpu / joins
        print(f"server CPU per join: gunicorn {web_ms:.1f} ms ({len(web)} web processes), "
              f"PostgreSQL {database_ms:.1f} ms (at least)")  # fmt: skip
        for shape in shapes:
            print(f"matches of {shape['size']} with {shape['seats']} seated: {shape['n']}")
        sys.stdout.flush()
    finally:
        stop(server)
    # Phase 2 with the topology stopped: its `review_games` would review the games meanwhile.
    with AutoAnalyze(env["DATABASE_URL"], every=5):
        rated = subprocess.run(
            [python, "-c", RATE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
    rating = json.loads(rated.stdout)

    finish, reviewed, rates = rating["finish"], rating["reviewed"], rating["rating"]
    if finish:
        for name, rows, target in (
            ("finish (whole: locked read, places, review check, commit, live message)", finish,
             ""),
            ("rating after the reviews (whole: locked read, review check, rating, commit, "
             "live message)", reviewed, ""),
            ("rating update (match_rate, inside the rating after the reviews)", rates,
             "; target < 5 ms"),
        ):  # fmt: skip
            wall, cpu = [row[0] for row in rows], [row[1] for row in rows]
            print(f"{name} per match: mean {statistics.mean(wall):.2f} ms, p99 "
                  f"{percentile(wall, 0.99):.2f} ms, CPU {statistics.mean(cpu):.2f} ms over "
                  f"{len(rows)} matches{target}")  # fmt: skip
        print(f"matches rated: {rating['rated_at_finish']} at their finish (reviews pending), "
              f"{rating['rated']} of {len(finish)} after the reviews")  # fmt: skip
    for size, ms in rating["model"].items():
        print(f"openskill update alone, {size} players: {ms:.3f} ms")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
