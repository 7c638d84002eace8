"""Two app nodes behind one load balancer: each node a whole production topology of its own
(scripts/serve-topology.sh: nginx, gunicorn, uvicorn, the scheduler), both on one PostgreSQL
(through one PgBouncer in transaction mode) and one Redis, with HAProxy in front
(scripts/serve-balancer.sh, deploy/haproxy.cfg.template). The nodes are started once for the
module; the tests run in this order: a live board on node B sees node A's actions; through
the balancer (the PROXY protocol to each node's nginx) the app counts each client's own
address, whichever node it reaches; a rolling restart of both nodes under load with no failed
request; node A killed under 20 players. Each test prints what it did and what it checked.

Runs in CI's PostgreSQL + Redis pass only (DATABASE_URL set), where the tools exist.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
from django.utils.crypto import salted_hmac
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests import net
from tests.ops.stack import (
    Balancer,
    PgBouncer,
    Player,
    Postgres,
    Redis,
    Topology,
    clear_of_the_hours_end,
    free_port,
    tools_missing,
    wait_for,
)

missing = tools_missing() or (
    None if shutil.which("haproxy", path="/usr/sbin:/usr/bin") else "no haproxy"
)
pytestmark = [
    pytest.mark.topology,  # started first (tests/conftest.py)
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="node tests run in the PostgreSQL + Redis pass",
    ),
    pytest.mark.skipif(missing is not None, reason=str(missing)),
]

# The balancer asks each node's /readyz this often (out at the first failure, in after two
# passes); a node stopped drains for DRAIN_SECONDS first, well above two checks of a busy node.
CHECK_INTERVAL = "200ms"
# What HAProxy's statistics say of a node's checks.
CHECK_FIELDS = (
    "status",
    "check_status",
    "check_code",
    "check_desc",
    "last_chk",
    "chkfail",
    "lastchg",
)
DRAIN_SECONDS = "3"
# Guests made per client address and hour ("Play now", counted in Redis across the nodes).
GUEST_LIMIT = 4


class Cluster:
    def __init__(self, postgres: Postgres, redis_server: Redis, pgbouncer: PgBouncer) -> None:
        self.postgres = postgres
        self.redis = redis_server
        # What the nodes must share: the keys (sessions, daily and match deals) and the pooler.
        self.env = {
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DAILY_SECRET": secrets.token_urlsafe(50),
            "MATCH_SECRET": secrets.token_urlsafe(50),
            "PGBOUNCER_URL": pgbouncer.url(postgres.url),
            "DRAIN_SECONDS": DRAIN_SECONDS,
            "GUEST_LIMIT": str(GUEST_LIMIT),
        }
        # One after the other: the second node's migrate finds nothing to do.
        self.nodes = [self.start_node(), self.start_node()]
        self.balancer = Balancer([node.balancer_port or 0 for node in self.nodes], CHECK_INTERVAL)

    def start_node(self, port: int | None = None, balancer_port: int | None = None) -> Topology:
        return Topology(
            database_url=self.postgres.url,
            redis_url=self.redis.url,
            env=self.env,
            port=port,
            balancer_port=balancer_port or free_port(),
        )

    def restart(self, index: int) -> None:
        """The rolling-restart step of docs/deploy.md: stop the node (it drains first), start it
        again on the same address, wait until the balancer has it back."""
        node = self.nodes[index]
        node.drain_stop()
        self.nodes[index] = self.start_node(node.port, node.balancer_port)
        wait_for(lambda: self.balancer.up() == 2, 30, f"the balancer to take node {index} back")

    def stop(self) -> None:
        self.balancer.stop()
        for node in self.nodes:
            node.stop()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    postgres = Postgres()
    redis_server = Redis()
    pgbouncer = PgBouncer(postgres.url)
    try:
        started = time.monotonic()
        cluster = Cluster(postgres, redis_server, pgbouncer)
        print(f"\ntwo nodes {[n.port for n in cluster.nodes]} behind the balancer on "
              f"{cluster.balancer.port} in {time.monotonic() - started:.1f} s")  # fmt: skip
        yield cluster
        cluster.stop()
    finally:
        pgbouncer.stop()
        redis_server.stop()
        postgres.destroy()


_names = iter(range(10**6))


class NodePlayer(Player):
    """A Player that also notes where each 5xx came from: the balancer (its error file, no
    request id) or a node (nginx or the app: with the request id nginx gives)."""

    def __init__(self, base_url: str, name: str) -> None:
        self.failures: list[str] = []
        super().__init__(base_url, name)

    def _send(self, method: str, path: str, body: Any) -> httpx.Response | None:
        response = super()._send(method, path, body)
        if response is not None and response.status_code >= 500:
            via = "node" if "x-request-id" in response.headers else "balancer"
            self.failures.append(f"{time.strftime('%X')} {response.status_code} from {via}")
        return response


def new_players(base_url: str, count: int) -> list[Player]:
    players = [NodePlayer(base_url, f"node{next(_names)}") for _ in range(count)]
    for player in players:
        player.new_game(daily=True, draw=3)
    return players


def check_logs_match(players: list[Player]) -> None:
    """Every action a client was answered 2xx for (or found applied on a retry) is in the
    database's log, in order, and nothing else is."""
    for player in players:
        logged = player.logged()
        assert [row["n"] for row in logged] == list(range(1, len(player.sent) + 1)), player.name
        assert [row["type"] for row in logged] == player.sent, player.name
        assert player.server_game()["moves"] == len(player.sent), player.name


def ws_url(base_url: str, date: str) -> str:
    return base_url.replace("http://", "ws://") + f"/ws/daily/{date}/3/"


def entries(message: dict[str, Any]) -> list[dict[str, Any]]:
    return message["entries"] if message["type"] == "entries" else []


def test_a_listener_on_node_b_sees_the_actions_played_on_node_a(cluster):
    # given: a player on node A (its own address, not the balancer's) and a listener on node B
    node_a, node_b = cluster.nodes
    player = new_players(node_a.base_url, 1)[0]
    date = player.game["daily"]["date"]

    # when: the player acts on A once the listener has its snapshot
    seen: list[int] = []
    with connect(ws_url(node_b.base_url, date), origin=node_b.base_url, open_timeout=10) as ws:
        snapshot = json.loads(ws.recv(timeout=10))
        assert snapshot["type"] == "snapshot"
        for _ in range(3):
            player.act()
        deadline = time.monotonic() + 15
        while 3 not in seen:
            remaining = deadline - time.monotonic()
            assert remaining > 0, seen
            message = json.loads(ws.recv(timeout=remaining))
            seen += [e["moves"] for e in entries(message) if e["player"] == player.name]

    # then: B's listener got A's changes live (through Redis), up to the third move
    print(f"{player.name} played 3 actions on node A; node B's listener saw moves {seen}")
    assert seen == sorted(seen) and seen[-1] == 3


def play_now(balancer_url: str, csrf: str, address: str) -> httpx.Response:
    """The home page's "Play now" of a new visitor (no session: a new guest) from `address`."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=balancer_url, transport=transport, timeout=30) as http:
        http.cookies.set("csrftoken", csrf)
        return http.post("/play/now", data={"csrfmiddlewaretoken": csrf})


def test_each_client_is_counted_by_its_own_address_whichever_node_it_reaches(cluster):
    balancer = cluster.balancer
    clear_of_the_hours_end()  # (the guests' limit counts per clock hour)
    since = [node.log_size() for node in cluster.nodes]
    csrf = net.get(f"{balancer.base_url}/", timeout=30).cookies["csrftoken"]

    # when: a visitor at 127.0.0.2 makes a guest one more time than its address may, through
    # the balancer (round robin: its requests go to both nodes), then one at 127.0.0.3
    first = [play_now(balancer.base_url, csrf, "127.0.0.2") for _ in range(GUEST_LIMIT + 1)]
    other = play_now(balancer.base_url, csrf, "127.0.0.3")

    # then: the first address meets its limit, counted over both nodes together; the other
    # address is counted apart
    assert [r.status_code for r in first] == [302] * GUEST_LIMIT + [429]
    assert other.status_code == 302

    def served() -> dict[str, tuple[str, str]]:
        """Request id -> (node, client address the app saw), from the nodes' request logs."""
        return {
            line["request_id"]: (name, line["client"])
            for name, node, offset in zip("AB", cluster.nodes, since, strict=True)
            for line in node.log_lines(offset)
            if line.get("event") == "request" and line.get("path") == "/play/now"
        }

    ids = [r.headers["x-request-id"] for r in [*first, other]]
    wait_for(lambda: set(ids) <= set(served()), 10, "the nodes to log the requests")
    seen = served()
    assert {seen[i][1] for i in ids[:-1]} == {"127.0.0.2"}
    assert seen[ids[-1]][1] == "127.0.0.3"
    assert {seen[i][0] for i in ids[:-1]} == {"A", "B"}

    # and the games keep the hash of the client's own address (the fair-play review's)
    def address_hash(address: str) -> str:
        secret = cluster.env["DJANGO_SECRET_KEY"]
        return salted_hmac(
            "canfield.client_address", address, secret=secret, algorithm="sha256"
        ).hexdigest()

    games = [r.headers["location"].rstrip("/").rpartition("/")[2] for r in [*first[:-1], other]]
    with psycopg.connect(cluster.postgres.url) as conn:
        hashes = dict(
            conn.execute(
                "SELECT CAST(id AS text), address_hash FROM games_game WHERE CAST(id AS text)"
                " = ANY(%s)",
                [games],
            ).fetchall()
        )
    assert [hashes[game] for game in games] == [address_hash("127.0.0.2")] * GUEST_LIMIT + [
        address_hash("127.0.0.3")
    ]
    print(f"127.0.0.2 made {GUEST_LIMIT} guests (then 429) through nodes "
          f"{sorted({seen[i][0] for i in ids[:-1]})}, 127.0.0.3 one: each counted and hashed "
          "by its own address")  # fmt: skip


class Listener(threading.Thread):
    """A live board through the balancer that reconnects whenever its socket is closed, as the
    browser's table does; records the close codes and what each connection received."""

    def __init__(self, base_url: str, date: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.url = ws_url(base_url, date)
        self.origin = base_url
        self.stop = stop
        self.closes: list[int | None] = []
        self.failed_connects: list[str] = []
        self.connections: list[list[str]] = []  # per connection: the message types received
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    ws = connect(self.url, origin=self.origin, open_timeout=10)
                except Exception as error:  # refused, or a handshake answered 503
                    self.failed_connects.append(repr(error))
                    self.stop.wait(0.1)
                    continue
                received: list[str] = []
                self.connections.append(received)
                with ws:
                    while not self.stop.is_set():
                        try:
                            message = json.loads(ws.recv(timeout=0.5))
                        except TimeoutError:
                            continue
                        except ConnectionClosed as closed:
                            self.closes.append(closed.rcvd.code if closed.rcvd else None)
                            break
                        received.append(message["type"])
        except BaseException as error:  # reported by the test, not lost in a thread
            self.error = error


def play_until(players: list[Player], stop: threading.Event, pause: float = 0) -> tuple[list, list]:
    """Each player acts until `stop`, `pause` seconds between its actions (a steady load that
    leaves the restarting node's processes some CPU)."""
    errors: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            while not stop.is_set():
                player.act()
                if pause:
                    stop.wait(pause)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(p,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    return threads, errors


def applied(players: list[Player]) -> int:
    return sum(len(player.sent) for player in players)


def test_a_rolling_restart_of_both_nodes_under_load_fails_no_request(cluster):
    # given: 6 players and 6 live listeners, all through the balancer
    balancer = cluster.balancer
    players = new_players(balancer.base_url, 6)
    date = players[0].game["daily"]["date"]
    for player in players:
        player.statuses.clear()  # from here on: the load
    stop = threading.Event()
    listeners = [Listener(balancer.base_url, date, stop) for _ in range(6)]
    for listener in listeners:
        listener.start()
    wait_for(
        lambda: all(len(lis.connections) == 1 for lis in listeners), 20, "listeners to connect"
    )
    threads, errors = play_until(players, stop, pause=0.2)
    wait_for(lambda: applied(players) >= 30, 30, "play to get going")

    # when: node A is restarted (drain, graceful stop, start), then node B, as players play on
    steps = []
    for index in (0, 1):
        before = applied(players)
        started = time.monotonic()
        cluster.restart(index)
        steps.append(
            f"node {'AB'[index]}: {time.monotonic() - started:.1f} s, "
            f"{applied(players) - before} actions meanwhile"
        )
    # and both serve again: every listener is back, and play goes on through both
    wait_for(
        lambda: all(len(lis.connections) == len(lis.closes) + 1 for lis in listeners),
        20,
        "every listener to reconnect",
    )
    after = applied(players)
    wait_for(lambda: applied(players) >= after + 30, 30, "play after the restarts")
    wait_for(
        lambda: all("entries" in lis.connections[-1] for lis in listeners),
        20,
        "live entries on every listener's last connection",
    )
    stop.set()
    for thread in [*threads, *listeners]:
        thread.join(30)

    # then: not one request failed, not one retry was needed, nothing was lost or duplicated
    statuses: Counter = Counter()
    for player in players:
        statuses.update(player.statuses)
    print("; ".join(steps))
    failures = [f for player in players for f in player.failures]  # type: ignore[attr-defined]
    print(f"failed answers: {len(failures)} {failures[:5]}")
    print(f"{applied(players)} actions by {len(players)} players answered {dict(statuses)}")
    closes = Counter(code for lis in listeners for code in lis.closes)
    print(
        f"listeners: closes {dict(closes)}, "
        f"connections {[len(lis.connections) for lis in listeners]}"
    )
    assert errors == [] and all(lis.error is None for lis in listeners), errors
    assert set(statuses) == {200}, statuses
    assert sum(player.reconciled for player in players) == 0
    check_logs_match(players)
    # Each listener's node went down once at least, and each close was the restart's 1012.
    assert all(lis.closes and set(lis.closes) == {1012} for lis in listeners), closes
    assert all(lis.failed_connects == [] for lis in listeners)
    assert all(lis.connections[0][0] == "snapshot" for lis in listeners)
    assert all(conn and conn[0] == "snapshot" for lis in listeners for conn in lis.connections)
    print("checked: 0 failed requests, every log equals its client's, every close 1012, "
          "every listener reconnected and got a snapshot and live entries")  # fmt: skip


def test_node_a_killed_under_20_players_loses_no_acknowledged_action(cluster):
    # given: 20 players through the balancer, each with a daily game
    balancer = cluster.balancer
    node_a = cluster.nodes[0]
    players = new_players(balancer.base_url, 20)
    actions = 20

    # when: they play, and every process of node A is killed with SIGKILL mid-play
    stop = threading.Event()
    threads, errors = play_until(players, stop)
    wait_for(lambda: applied(players) >= 20 * actions // 3, 60, "play to get going")
    node_a.kill()
    at = applied(players)
    try:
        wait_for(lambda: balancer.states().get("node-1") == "DOWN", 10, "node A out of the pool")
    except AssertionError as error:
        # (once in CI, 2026-12-07: what HAProxy's checks saw, and what listens on the port)
        listening = subprocess.run(
            ["ss", "-ltnp", f"sport = :{node_a.balancer_port}"], capture_output=True, text=True
        ).stdout
        rows = {
            name: {k: row.get(k) for k in CHECK_FIELDS} for name, row in balancer.stats().items()
        }
        raise AssertionError(f"{error}: {rows}; on node A's port: {listening}") from None
    wait_for(lambda: applied(players) >= 20 * actions, 90, "the players to play on")
    stop.set()
    for thread in threads:
        thread.join(30)

    # then: the players went on through node B; what any client was told is in the database
    statuses: Counter = Counter()
    for player in players:
        statuses.update(player.statuses)
        assert player.bad_bodies == [], player.bad_bodies[:3]
    print(f"killed node A at {at} actions; {applied(players)} in all, answered {dict(statuses)}, "
          f"{sum(p.reconciled for p in players)} found applied on a retry")  # fmt: skip
    assert errors == [], errors
    assert balancer.states() == {"node-1": "DOWN", "node-2": "UP"}
    check_logs_match(players)
    assert net.get(f"{balancer.base_url}/readyz", timeout=5).status_code == 200
    print("checked: every acknowledged action is in the database, in order, nothing else")
