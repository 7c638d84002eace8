"""Scale-out of the production topology: validated actions per second through nginx with 1 and
2 gunicorn workers (and more with --workers).

    .venv/bin/python bench/scale.py [--seconds 10] [--players 16] [--workers 1 2]

For each worker count, starts scripts/serve-topology.sh (nginx, gunicorn, uvicorn) on a fresh
database `canfield_scale` of the machine's PostgreSQL (127.0.0.1:5432) and its Redis
(127.0.0.1:6379), then `--players` threads, each on its own game, send draw/recycle actions
with `expect` for `--seconds`. Prints actions/s and p50/p99 latency. Client and server share
this machine's cores, so the figures show the trend, not a ceiling. Loopback only; every loop
stops at its deadline.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import fresh_database, play_for  # noqa: E402
from tests.ops.stack import Player, Topology  # noqa: E402

DATABASE = "canfield_scale"


def measure(workers: int, players: int, seconds: float) -> str:
    topology = Topology(
        database_url=fresh_database(DATABASE), redis_url="redis://127.0.0.1:6379/0", workers=workers
    )
    try:
        clients = [Player(topology.base_url, f"bench{i}") for i in range(players)]
        for client in clients:
            client.new_game()
        every = play_for(clients, seconds)
        assert httpx.get(f"{topology.base_url}/readyz").status_code == 200
        p99 = every[int(len(every) * 0.99) - 1]
        return (
            f"workers {workers}: {len(every) / seconds:7.1f} actions/s, "
            f"p50 {statistics.median(every) * 1000:6.1f} ms, p99 {p99 * 1000:6.1f} ms "
            f"({len(every)} actions, {players} players)"
        )
    finally:
        topology.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.workers = 3, [2]
    for workers in args.workers:
        print(measure(workers, args.players, args.seconds), flush=True)


if __name__ == "__main__":
    main()
