"""The production topology's metrics and its pooler: scripts/serve-topology.sh with PGBOUNCER=1
(nginx, gunicorn with two workers, the heavy pool, uvicorn, the scheduler, PgBouncer in
transaction mode, `manage.py serve_metrics`) on a PostgreSQL cluster and a Redis of the
test's own.

- `/metrics` is never public: the proxy's port answers 404 for it; the internal port serves the
  sums of every process group's files (gunicorn's workers, the ws process), the queues and
  whether the database and Redis answer.
- The app works through PgBouncer: sign-ups race under the transaction-level advisory lock.

Runs in CI's PostgreSQL + Redis pass only (DATABASE_URL set), where the tools exist.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from tests import net
from tests.ops.stack import Player, Postgres, Redis, Topology, tools_missing, wait_for

missing = tools_missing() or (None if shutil.which("pgbouncer", path="/usr/sbin:/usr/bin")
                              else "no pgbouncer")  # fmt: skip
pytestmark = [
    pytest.mark.topology,  # started first (tests/conftest.py)
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="topology tests run in the PostgreSQL + Redis pass",
    ),
    pytest.mark.skipif(missing is not None, reason=str(missing)),
]

PINGS = 40


@pytest.fixture(scope="module")
def topology() -> Iterator[Topology]:
    with contextlib.ExitStack() as cleanup:
        postgres = Postgres()
        cleanup.callback(postgres.destroy)
        redis_server = Redis()
        cleanup.callback(redis_server.stop)
        stack = Topology(database_url=postgres.url, redis_url=redis_server.url, pgbouncer=True)
        cleanup.callback(stack.stop)
        yield stack


def scrape(topology: Topology) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = net.get(topology.metrics_url, timeout=10).text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def pings(samples: dict) -> float:
    key = ("canfield_http_requests_total",
           (("method", "GET"), ("route", "api/v1/ping"), ("status", "200")))  # fmt: skip
    return samples.get(key, 0.0)


def test_metrics_are_internal_and_add_up_every_process(topology):
    # given: the public port and the internal one
    public = httpx.Client(base_url=topology.base_url, timeout=10)
    assert topology.metrics_url.startswith("http://127.0.0.1:")
    assert str(topology.port) not in topology.metrics_url.split("/")[2]

    # then: the proxy never serves the metrics, under any spelling
    for path in ("/metrics", "/metrics/", "/api/v1/metrics", "/ws/metrics"):
        response = public.get(path)
        assert response.status_code == 404, path
        assert "canfield_http_requests_total" not in response.text

    # when: pings through the proxy, on new connections (nginx spreads them over both workers)
    before = pings(scrape(topology))
    for _ in range(PINGS):
        assert net.get(f"{topology.base_url}/api/v1/ping", timeout=10).status_code == 200

    # then: every one of them counted, whichever worker answered: the sum of both workers'
    # files (multi-process mode), one file per worker that served
    samples = scrape(topology)
    assert pings(samples) - before == PINGS
    web_files = list((Path(topology.dir) / "run" / "metrics" / "web").glob("counter_*.db"))
    print(f"{PINGS} pings counted; web counter files: {sorted(f.name for f in web_files)}")
    assert len(web_files) >= 1
    seconds = ("canfield_http_request_duration_seconds_count",
               (("method", "GET"), ("route", "api/v1/ping")))  # fmt: skip
    assert samples[seconds] >= PINGS
    # and what the scrape reads itself: the database (through PgBouncer) and Redis answer,
    # the review queue is measured
    assert samples[("canfield_database_up", ())] == 1
    assert samples[("canfield_redis_up", ())] == 1
    assert ("canfield_queue_length", (("queue", "review"),)) in samples


def pgbouncer_show(topology: Topology, what: str) -> list[dict[str, str]]:
    """PgBouncer's admin console (psql: it speaks only the simple query protocol)."""
    result = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(topology.pgbouncer_port), "-U", "postgres",
         "-d", "pgbouncer", "--csv", "-c", f"SHOW {what}"],
        capture_output=True, text=True, timeout=10, check=True,
    )  # fmt: skip
    return list(csv.DictReader(io.StringIO(result.stdout)))


def test_the_app_reaches_postgresql_only_through_pgbouncer(topology):
    # when: requests that read and write (a sign-up, a game, an action)
    player = Player(topology.base_url, "pooled")
    player.new_game()
    player.act()

    # then: the app's processes are PgBouncer's clients, in transaction mode, and the server
    # sees no more connections from it than its pool
    clients = [c for c in pgbouncer_show(topology, "CLIENTS") if c["database"] == "canfield"]
    pools = [p for p in pgbouncer_show(topology, "POOLS") if p["database"] == "canfield"]
    print(f"PgBouncer: {len(clients)} app connections, pools {pools}")
    assert len(clients) >= 3  # gunicorn's two workers and more (ws, heavy, metrics)
    assert [pool["pool_mode"] for pool in pools] == ["transaction"]
    assert int(pools[0]["sv_active"]) + int(pools[0]["sv_idle"]) <= 20


def test_live_listeners_and_batch_lag_come_from_the_ws_process(topology):
    # given: a player on today's daily, and three listeners on its board through the proxy
    player = Player(topology.base_url, "lagplayer")
    player.new_game(daily=True, draw=3)
    date = player.game["daily"]["date"]
    url = f"ws://127.0.0.1:{topology.port}/ws/daily/{date}/3/"
    listeners_key = ("canfield_live_listeners", (("draw", "3"), ("players", "people")))
    lag_key = ("canfield_live_batch_lag_seconds_count", (("draw", "3"), ("players", "people")))
    lag_before = scrape(topology).get(lag_key, 0.0)

    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(url, open_timeout=10)) for _ in range(3)]
        for ws in sockets:
            ws.recv(timeout=10)  # the snapshot: the listener is in its hub
        # then: the ws process's gauge says three
        wait_for(lambda: scrape(topology).get(listeners_key) == 3, 10, "three listeners")

        # when: the player acts: a batch goes out on the next tick
        player.act()
        sockets[0].recv(timeout=10)

        # then: its lag was measured
        wait_for(lambda: scrape(topology).get(lag_key, 0.0) > lag_before, 10, "a batch's lag")

    # and the listeners that left leave the gauge
    wait_for(lambda: scrape(topology).get(listeners_key) == 0, 10, "no listener")

    # when: two listeners again, then their ws process is killed (no exit of its own to take
    # them out) and supervisord starts a new one
    with contextlib.ExitStack() as stack:
        for _ in range(2):
            stack.enter_context(connect(url, open_timeout=10)).recv(timeout=10)
        wait_for(lambda: scrape(topology).get(listeners_key) == 2, 10, "two listeners")
        killed = topology.pid("ws-1")
        os.kill(killed, signal.SIGKILL)
        wait_for(lambda: topology.pid("ws-1") not in (0, killed), 30, "a new ws process")

    # then: the dead process's listeners are not counted any more (its group's files were
    # emptied when the new one started)
    wait_for(lambda: scrape(topology).get(listeners_key, 0) == 0, 20, "no listener after")


def test_sign_ups_racing_for_one_name_through_pgbouncer_one_wins(topology):
    # given: eight sign-ups of one name in different cases at once, through the pooler (the
    # advisory lock that orders them is the transaction's: a session lock would stay on a
    # server connection another client gets next)
    names = ["Racer", "racer", "RACER", "rAcer", "raCer", "racEr", "raceR", "RaCeR"]
    codes: list[int] = []
    start = threading.Barrier(len(names))

    def sign_up(name: str, address: str) -> None:
        # (each from a loopback address of its own: the proxy limits a client's sign-ups)
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(transport=transport, timeout=30) as client:
            start.wait()
            response = client.post(
                f"{topology.base_url}/api/v1/auth/register",
                json={"username": name, "password": "correct-horse-99"},
            )
        codes.append(response.status_code)

    threads = [
        threading.Thread(target=sign_up, args=(name, f"127.31.0.{n + 1}"))
        for n, name in enumerate(names)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then: exactly one account, the others told the name is taken; none failed
    assert sorted(codes) == [201] + [400] * (len(names) - 1), codes
