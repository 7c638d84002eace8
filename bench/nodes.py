"""One app node vs two on the same machine: validated actions per second and latency through
the load balancer.

    .venv/bin/python bench/nodes.py [--seconds 10] [--players 16] [--nodes 1 2]

For each node count, starts that many production topologies (scripts/serve-topology.sh: nginx,
gunicorn with 2 workers, uvicorn, the scheduler) on a fresh database `canfield_nodes` of the
machine's PostgreSQL (127.0.0.1:5432) through one PgBouncer (transaction mode) and on the
machine's Redis (REDIS_URL, default redis://127.0.0.1:6379/0), with HAProxy in front
(scripts/serve-balancer.sh), as tests/ops/test_nodes.py does; then `--players` threads, each on
its own game, send draw/recycle actions with `expect` through the balancer for `--seconds`.
Prints actions/s and p50/p99 latency. The nodes, the balancer and the load generator all share
this machine's cores: a second node on the same cores adds processes, not CPU, so this shows what
the balancer and a second node cost, not what a second machine gives.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import fresh_database, play_for  # noqa: E402
from tests.ops.stack import Balancer, PgBouncer, Player, Topology, free_port  # noqa: E402

DATABASE = "canfield_nodes"


def measure(nodes: int, players: int, seconds: float) -> str:
    database_url = fresh_database(DATABASE)
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    pgbouncer = PgBouncer(database_url)
    env = {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SECRET": secrets.token_urlsafe(50),
        "MATCH_SECRET": secrets.token_urlsafe(50),
        "PGBOUNCER_URL": pgbouncer.url(database_url),
    }
    started: list[Topology] = []
    balancer = None
    try:
        for _ in range(nodes):
            started.append(
                Topology(
                    database_url=database_url,
                    redis_url=redis_url,
                    env=env,
                    balancer_port=free_port(),
                )
            )
        balancer = Balancer([node.balancer_port or 0 for node in started], "1s")
        clients = [Player(balancer.base_url, f"bench{i}") for i in range(players)]
        for client in clients:
            client.new_game()
        every = play_for(clients, seconds)
        assert httpx.get(f"{balancer.base_url}/readyz").status_code == 200
        failed = sum(
            count
            for client in clients
            for status, count in client.statuses.items()
            if not isinstance(status, int) or status >= 500
        )
        p99 = every[int(len(every) * 0.99) - 1]
        return (
            f"nodes {nodes}: {len(every) / seconds:7.1f} actions/s, "
            f"p50 {statistics.median(every) * 1000:6.1f} ms, p99 {p99 * 1000:6.1f} ms "
            f"({len(every)} actions, {players} players, {failed} failed answers)"
        )
    finally:
        if balancer is not None:
            balancer.stop()
        for node in started:
            node.stop()
        pgbouncer.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--quick", action="store_true", help="short settings (make bench)")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 3
    for nodes in args.nodes:
        print(measure(nodes, args.players, args.seconds), flush=True)


if __name__ == "__main__":
    main()
