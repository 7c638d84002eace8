"""The action's database write, three ways, on PostgreSQL: writes/s and p50/p99 latency.

    .venv/bin/python bench/write_path.py [--seconds 5] [--threads 8]

Each thread plays draws on its own game (engine included, no HTTP), reading and writing each:
- lock:        BEGIN; SELECT ... FOR UPDATE; UPDATE game; INSERT action; COMMIT
- optimistic:  SELECT; BEGIN; UPDATE game ... WHERE actions_count = v; INSERT action; COMMIT
- one statement (what games.services.game_act does on PostgreSQL): the optimistic update and
  the insert in one autocommitted statement, after a plain SELECT.
Runs on a fresh database `canfield_bench_write` on 127.0.0.1:5432.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
NAME = "canfield_bench_write"

with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
    admin.execute(f"DROP DATABASE IF EXISTS {NAME} WITH (FORCE)")
    admin.execute(f"CREATE DATABASE {NAME}")
os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{NAME}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")  # the development settings

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import services  # noqa: E402
from games.engine import Action as EngineAction  # noqa: E402
from games.engine import Game as EngineGame  # noqa: E402
from games.models import Action, Game  # noqa: E402

DRAW = EngineAction.from_dict({"type": "draw"})
RECYCLE = EngineAction.from_dict({"type": "recycle"})


def next_row(game: Game) -> tuple[Action, int]:
    """Apply the next draw (or recycle) to `game` in memory; the log row and the old version."""
    engine = EngineGame.from_dict(game.state)
    result = engine.apply(DRAW if engine.stock else RECYCLE).as_dict()
    version = game.actions_count
    game.state, game.moves, game.actions_count = engine.to_dict(), engine.moves, result["n"]
    row = Action(game=game, n=result["n"], type=result["type"], from_pile=result["from"],
                 to_pile=result["to"], count=result["count"], cards=result["cards"],
                 at=timezone.now())  # fmt: skip
    return row, version


def write_locked(game: Game) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        row, _ = next_row(game)
        game.save(update_fields=["state", "moves", "actions_count"])
        row.save(force_insert=True)


def write_optimistic(game: Game) -> None:
    game = Game.objects.get(pk=game.pk)
    row, version = next_row(game)
    with transaction.atomic():
        assert services._write(game=game, version=version, row=row)


def write_one_statement(game: Game) -> None:
    game = Game.objects.get(pk=game.pk)
    row, version = next_row(game)
    assert services._write_in_one_statement(game=game, version=version, row=row)


def run(name: str, write, games: list[Game], seconds: float) -> None:
    latencies: list[list[float]] = [[] for _ in games]
    deadline = time.monotonic() + seconds

    def worker(i: int) -> None:
        game = Game.objects.get(pk=games[i].pk)
        while time.monotonic() < deadline:
            start = time.perf_counter()
            write(game)
            latencies[i].append(time.perf_counter() - start)
        connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    flat = [x for lat in latencies for x in lat]
    q = statistics.quantiles(flat, n=100)
    print(f"{name:<14} {len(flat) / seconds:7.0f} writes/s   p50 {q[49] * 1000:5.1f} ms"
          f"   p99 {q[98] * 1000:5.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 1
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench", password="bench-pass-99")
    games = [services.game_create(owner=owner) for _ in range(args.threads)]
    print(f"{args.threads} threads, {args.seconds:.0f} s each; every write reads its game first")
    for name, write in (("lock", write_locked), ("optimistic", write_optimistic),
                        ("one statement", write_one_statement)):  # fmt: skip
        run(name, write, games, args.seconds)
    connection.close()
    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {NAME} WITH (FORCE)")


if __name__ == "__main__":
    main()
