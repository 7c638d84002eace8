"""Ranked daily actions against practice actions, on the production topology, in one run.

    .venv/bin/python bench/daily.py [--seconds 4] [--rounds 2] [--players 20 100]
                                    [--board 10 100 1000] [--acting 10] [--quick]

Starts scripts/serve-topology.sh (nginx, gunicorn with 2 workers, uvicorn) on a fresh PostgreSQL
database `canfield_daily_bench` (127.0.0.1:5432) and Redis db 3, makes the players' accounts and
tokens directly in the database (registering a thousand players through the API would time the
password hashing), then:
1. for each `--board` size: that many players on today's 3-card daily, `--acting` clients
   (the same number at every size) playing them all (each client its share of the games, in
   turn), and, in alternating slices, the same first `--acting` players alone, so that the
   board's size is the only thing that changes: actions/s as the board grows;
2. for each `--players` N: N clients on their own practice game, and N more joining the daily
   board, each on their own game, in alternating slices (`--rounds` of `--seconds` each), so
   that load from elsewhere on the machine weighs on both alike; prints actions/s, p50/p99 and
   the daily's share of the practice rate.
Each action is a draw or a recycle (always legal) with `expect`, through nginx. Client and
servers share this machine's cores: the figures show the trend, not a ceiling. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import fresh_database as common_fresh_database  # noqa: E402
from tests.ops.stack import Topology  # noqa: E402

DATABASE = "canfield_daily_bench"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
REDIS_URL = "redis://127.0.0.1:6379/3"
# This process (migrate, the accounts it writes) runs the development settings; the topology
# runs the production ones with secrets of its own (tests/ops/stack.py).
os.environ.setdefault("DJANGO_DEBUG", "1")


def fresh_database(name: str = DATABASE, redis_url: str = REDIS_URL) -> None:
    # Migrated here, without the topology's start-up deadline (slow on a loaded machine).
    url = common_fresh_database(name)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": url}, check=True,
    )  # fmt: skip
    # The new database's boards start at id 1 again: forget the last run's board state.
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(f"board:{name}:*", count=1000):
        client.delete(key)


def make_tokens(prefix: str, count: int, database_url: str) -> list[str]:
    """`count` accounts with API tokens, written straight to the database."""
    import django
    from django.apps import apps

    if not apps.ready:
        os.environ["DATABASE_URL"] = database_url
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
        django.setup()
    from django.contrib.auth import get_user_model

    from accounts.services import keys_create_many

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"{prefix}{i}", password="!") for i in range(count)
    )
    return keys_create_many(users=users, name="bench")


async def tokens_for(prefix: str, count: int, database_url: str = DATABASE_URL) -> list[str]:
    return await asyncio.to_thread(make_tokens, prefix, count, database_url)


class Game:
    def __init__(self, client: httpx.AsyncClient, token: str, game: dict[str, Any]) -> None:
        self.client, self.headers, self.game = client, {"Authorization": f"Token {token}"}, game

    async def act(self) -> float:
        action = {"type": "draw"} if self.game["stock"]["count"] else {"type": "recycle"}
        began = time.perf_counter()
        response = await self.client.post(
            f"/api/v1/games/{self.game['id']}/actions",
            json={**action, "expect": self.game["moves"]},
            headers=self.headers,
        )
        took = time.perf_counter() - began
        assert response.status_code == 200, (response.status_code, response.text[:300])
        self.game = response.json()["game"]
        return took


async def new_games(client: httpx.AsyncClient, tokens: list[str], body: dict) -> list[Game]:
    async def one(token: str) -> Game:
        headers = {"Authorization": f"Token {token}"}
        response = await client.post("/api/v1/games", json=body, headers=headers)
        assert response.status_code in (200, 201), response.text[:300]
        return Game(client, token, response.json())

    games: list[Game] = []
    for first in range(0, len(tokens), 50):
        games += await asyncio.gather(*(one(token) for token in tokens[first : first + 50]))
    return games


async def play(games: list[Game], acting: int, seconds: float) -> list[float]:
    """`acting` clients play `games` (each its share, in turn) for `seconds`: the latencies."""
    deadline = time.monotonic() + seconds
    latencies: list[float] = []

    async def client(share: list[Game]) -> None:
        turn = 0
        while time.monotonic() < deadline:
            latencies.append(await share[turn % len(share)].act())
            turn += 1

    await asyncio.gather(*(client(games[i::acting]) for i in range(acting)))
    return latencies


def figures(latencies: list[float], seconds: float) -> tuple[float, float, float]:
    ordered = sorted(latencies)
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000
    return len(ordered) / seconds, statistics.median(ordered) * 1000, p99


def line(name: str, latencies: list[float], seconds: float) -> float:
    rate, p50, p99 = figures(latencies, seconds)
    print(f"{name:<34} {rate:7.0f} actions/s   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms", flush=True)
    return rate


async def run(base_url: str, args: argparse.Namespace) -> None:
    limits = httpx.Limits(max_connections=max(args.players + args.board) + 50)
    async with httpx.AsyncClient(base_url=base_url, timeout=30, limits=limits) as client:
        # The board grows, all its players playing: from 10 to 1,000.
        games: list[Game] = []
        for size in sorted(args.board):
            if size > len(games):
                tokens = await tokens_for(f"b{size}x", size - len(games))
                games += await new_games(client, tokens, {"daily": True, "draw": 3})
            acting = min(size, args.acting)
            await play(games[:size], acting, 1.0)  # warm up
            # Every player in turn, and the same first `acting` players alone (the board's size
            # is then the only thing that differs between sizes), in alternating slices.
            every, first = [], []
            for _ in range(args.rounds):
                every += await play(games[:size], acting, args.seconds)
                first += await play(games[:acting], acting, args.seconds)
            total = args.seconds * args.rounds
            line(f"board of {size}, all {size} in turn by {acting}", every, total)
            line(f"board of {size}, the same {acting} playing", first, total)
        for players in args.players:
            practice = await new_games(
                client, await tokens_for(f"p{players}x", players), {"draw": 3}
            )
            tokens = await tokens_for(f"d{players}x", players)
            daily = await new_games(client, tokens, {"daily": True, "draw": 3})
            timed: dict[str, list[float]] = {"practice": [], "daily": []}
            await play(practice + daily, len(practice + daily), 1.0)  # warm up
            for _ in range(args.rounds):
                timed["practice"] += await play(practice, players, args.seconds)
                timed["daily"] += await play(daily, players, args.seconds)
            total = args.seconds * args.rounds
            practice_rate = line(f"{players} players, practice games", timed["practice"], total)
            daily_rate = line(f"{players} players, today's daily", timed["daily"], total)
            print(f"{'':<34} daily/practice {daily_rate / practice_rate:6.0%}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--board", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--acting", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.rounds, args.players, args.board = 2.0, 1, [20], [10, 100]

    fresh_database()
    topology = Topology(database_url=DATABASE_URL, redis_url=REDIS_URL)
    try:
        print(f"topology on {topology.base_url}: gunicorn workers {topology.web_workers()}")
        asyncio.run(run(topology.base_url, args))
    finally:
        topology.stop()


if __name__ == "__main__":
    main()
