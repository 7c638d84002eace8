"""Faults against real processes on loopback: the production topology (nginx, gunicorn with two
workers, uvicorn) on a PostgreSQL cluster and a Redis of the tests' own, which the tests kill,
stop and restart. Each test prints what it did and what it checked.

Runs in CI's PostgreSQL + Redis pass only (DATABASE_URL set), where the tools exist.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import connect

from tests import net
from tests.games.helpers import StreamLines
from tests.ops.stack import Player, Postgres, Redis, Topology, tools_missing, wait_for

missing = tools_missing()
pytestmark = [
    pytest.mark.topology,  # started first (tests/conftest.py)
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="fault tests run in the PostgreSQL + Redis pass",
    ),
    pytest.mark.skipif(missing is not None, reason=str(missing)),
]

PLAYERS = 20
# Pages and API reads beside the players' actions, fetched while the database is down.
# Names of this module's players: other modules' topologies may share the database (the
# address tests make a player0 of their own).
NAME = f"fault{secrets.token_hex(3)}x"
PAGES = ("/", "/admin/login/", "/api/v1/daily", f"/api/v1/players/{NAME}0")


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    server = Postgres()
    yield server
    server.destroy()


@pytest.fixture(scope="module")
def redis_server() -> Iterator[Redis]:
    server = Redis()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def topology(postgres, redis_server) -> Iterator[Topology]:
    stack = Topology(database_url=postgres.url, redis_url=redis_server.url)
    print(f"\ntopology on {stack.base_url}: gunicorn workers {stack.web_workers()}")
    yield stack
    stack.stop()


_names = iter(range(10**6))


def new_players(topology: Topology, count: int, **game: object) -> list[Player]:
    players = [Player(topology.base_url, f"{NAME}{next(_names)}") for _ in range(count)]
    for player in players:
        player.new_game(**game)
    return players


def play_in_threads(players: list[Player], actions: int) -> tuple[list[threading.Thread], list]:
    errors: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            for _ in range(actions):
                player.act()
        except BaseException as error:  # reported by the test, not lost in a thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    return threads, errors


def applied(players: list[Player]) -> int:
    return sum(len(player.sent) for player in players)


def check_nothing_lost_or_duplicated(players: list[Player], actions: int) -> None:
    for player in players:
        logged = player.logged()
        game = player.server_game()
        assert [row["n"] for row in logged] == list(range(1, actions + 1)), player.name
        assert [row["type"] for row in logged] == player.sent, player.name
        assert game["moves"] == actions, player.name


def check_all_answers_clean(players: list[Player]) -> Counter:
    statuses: Counter = Counter()
    for player in players:
        statuses.update(player.statuses)
        assert player.bad_bodies == [], player.bad_bodies[:3]
    assert not any(isinstance(s, int) and s >= 500 and s != 503 for s in statuses), statuses
    return statuses


def check_verify_games(topology: Topology) -> None:
    result = topology.manage("verify_games")
    print(f"verify_games: {result.stdout.strip()} {result.stderr.strip()}")
    assert result.returncode == 0


def test_kill_9_of_one_of_two_http_workers_loses_and_duplicates_nothing(topology):
    # given: 20 players, each with a game, and gunicorn's two workers
    actions = 25
    players = new_players(topology, PLAYERS)
    master = topology.web_master()
    workers = topology.web_workers()
    assert len(workers) == 2

    # when: they play, and one worker is killed with SIGKILL mid-play
    threads, errors = play_in_threads(players, actions)
    wait_for(lambda: applied(players) >= PLAYERS * actions // 3, 60, "play to get going")
    victim = workers[0]
    os.kill(victim, signal.SIGKILL)
    at = applied(players)
    for thread in threads:
        thread.join(120)

    # then
    statuses = check_all_answers_clean(players)
    reconciled = sum(player.reconciled for player in players)
    print(
        f"killed worker {victim} (SIGKILL) after {at} of {PLAYERS * actions} actions; "
        f"answers {dict(statuses)}; retries settled by `stale` + read: {reconciled}"
    )
    assert errors == []
    check_nothing_lost_or_duplicated(players, actions)
    print(f"checked: each of {PLAYERS} logs holds exactly the {actions} actions its client made")
    wait_for(lambda: len(topology.web_workers()) == 2, 30, "gunicorn to replace the worker")
    assert victim not in topology.web_workers()
    assert topology.web_master() == master
    print(f"checked: gunicorn {master} replaced the worker: {topology.web_workers()}")
    check_verify_games(topology)


def test_postgres_restart_during_play_gives_503s_then_play_resumes(topology, postgres):
    # given
    actions = 20
    players = new_players(topology, PLAYERS)
    workers = topology.web_workers()

    # when: PostgreSQL stops mid-play (`pg_ctl -w`: stopped when it returns) until the players
    # have been answered 503 during the outage, then starts again
    threads, errors = play_in_threads(players, actions)
    wait_for(lambda: applied(players) >= PLAYERS * actions // 4, 60, "play to get going")
    postgres.stop()
    at = applied(players)
    during = net.get(f"{topology.base_url}/readyz", timeout=5)
    pages = {path: net.get(f"{topology.base_url}{path}", timeout=5) for path in PAGES}
    wait_for(
        lambda: sum(player.statuses[503] for player in players) >= PLAYERS,
        60,
        "the players to be answered 503 during the outage",
    )
    postgres.start()
    for thread in threads:
        thread.join(120)

    # then
    statuses = check_all_answers_clean(players)
    print(
        f"stopped PostgreSQL after {at} of {PLAYERS * actions} actions; answers "
        f"{dict(statuses)}; /readyz during the outage: {during.status_code} {during.json()}"
    )
    assert errors == []
    assert statuses[503] > 0
    assert statuses[500] == 0
    assert during.status_code == 503
    assert during.json()["checks"]["database"].startswith("unavailable")
    for path, page in pages.items():
        print(f"GET {path} during the outage: {page.status_code}")
        assert page.status_code in {200, 302, 503}, (path, page.status_code)
        assert "Traceback" not in page.text
    print("checked: the outage answered 503 `unavailable` (no 500, no traceback)")
    check_nothing_lost_or_duplicated(players, actions)
    assert topology.web_workers() == workers
    assert net.get(f"{topology.base_url}/readyz", timeout=5).status_code == 200
    print(f"checked: every player finished its {actions} actions on the same workers {workers}")
    check_verify_games(topology)


def board_messages(url: str, origin: str, until, timeout: float) -> list[dict]:
    """Listen to a live board until `until(messages)` holds."""
    messages: list[dict] = []
    with connect(url, origin=origin, open_timeout=5) as ws:
        deadline = time.monotonic() + timeout
        while not until(messages):
            remaining = deadline - time.monotonic()
            assert remaining > 0, messages
            messages.append(json.loads(ws.recv(timeout=remaining)))
    return messages


def test_redis_stop_keeps_actions_working_and_live_updates_come_back(topology, redis_server):
    # given: a player on today's daily challenge, and its live board
    player = new_players(topology, 1, daily=True, draw=3)[0]
    date = player.game["daily"]["date"]
    ws_url = f"ws://127.0.0.1:{topology.port}/ws/daily/{date}/3/"
    origin = topology.base_url

    # when: Redis stops; the player plays on
    redis_server.stop()
    log_from = topology.log_size()
    for _ in range(5):
        player.act()
    ready = net.get(f"{topology.base_url}/readyz", timeout=5)
    warnings = [
        line
        for line in topology.log_lines(log_from)
        if line.get("level") in {"warning", "error"} and "redis" in json.dumps(line).lower()
    ]

    # then: the actions succeeded, a warning was logged, /readyz tells
    statuses = check_all_answers_clean([player])
    print(f"stopped Redis; 5 actions answered {dict(statuses)}; /readyz: {ready.json()}")
    print(f"logged while Redis was down: {[line['event'][:80] for line in warnings][:3]}")
    assert player.game["moves"] == 5
    assert statuses[200] >= 5
    assert ready.status_code == 503
    assert ready.json()["checks"]["redis"].startswith("unavailable")
    assert warnings

    # when: Redis is back (nothing restarted), a listener (re)connects and the player acts
    redis_server.start()
    wait_for(
        lambda: net.get(f"{topology.base_url}/readyz", timeout=5).status_code == 200,
        15,
        "/readyz to see Redis again",
    )

    def entry_seen(messages: list[dict]) -> bool:
        if messages and len(messages) == 1:
            player.act()  # after the snapshot: the change must arrive live
        return any(
            entry["player"] == player.name and entry["moves"] == 6
            for m in messages
            if m["type"] == "entries"
            for entry in m["entries"]
        )

    messages = board_messages(ws_url, origin, entry_seen, timeout=10)

    # then: the snapshot has the moves made while Redis was down, and live batches flow again
    snapshot = messages[0]
    assert snapshot["type"] == "snapshot"
    mine = [entry for entry in snapshot["results"] if entry["player"] == player.name]
    assert mine and mine[0]["moves"] == 5
    print(f"Redis back: snapshot shows {player.name} at 5 moves, then a live entry at 6 moves")
    check_verify_games(topology)


def test_a_game_stream_through_nginx_and_a_redis_outage(topology, redis_server):
    """A stream (served by the ws process, through nginx unbuffered) gets each action; with
    Redis down the wake-up is lost and the stream still gets it, at the latest at its process's
    timed check (10 s; sooner when its subscriber's failure woke it after the action); with
    Redis back too. (How soon a line follows its action is bench/streams.py's figure.)"""
    player = new_players(topology, 1, draw=1)[0]
    path = f"/api/v1/games/{player.game['id']}/stream"
    with httpx.Client(base_url=topology.base_url, timeout=30) as client:
        lines = StreamLines(client, path, dict(player.http.headers))
        seen = 0

        def next_event() -> tuple[float, dict | None]:
            """The next line that is not the idle keep-alive: (when, event or None at the end)."""
            nonlocal seen
            while True:
                at, line = lines.wait(seen + 1, timeout=15)[seen]
                seen += 1
                if line == b"<closed>":
                    return at, None
                if line.strip():
                    return at, json.loads(line)

        def acted() -> float:
            sent = time.monotonic()
            player.act()
            at, event = next_event()
            assert event and event["type"] == "action", event
            assert event["game"]["moves"] == player.game["moves"]
            return at - sent

        _, first = next_event()
        # (nginx reads the app's X-Accel-Buffering: no and keeps it to itself)
        assert first and first["type"] == "game" and lines.status == 200
        fast = acted()
        redis_server.stop()
        try:
            slow = acted()
        finally:
            redis_server.start()
        wait_for(
            lambda: net.get(f"{topology.base_url}/readyz", timeout=5).status_code == 200,
            15,
            "/readyz to see Redis again",
        )
        again = acted()
        player._call("POST", f"/api/v1/games/{player.game['id']}/actions", {"type": "resign"})
        _, resigned = next_event()
        _, end = next_event()
        _, closed = next_event()
        lines.thread.join(5)

    print(f"stream: {fast * 1000:.0f} ms; Redis down: {slow:.1f} s; back: {again * 1000:.0f} ms")
    assert resigned and resigned["action"]["type"] == "resign"
    assert end and end["type"] == "end" and closed is None


def test_a_killed_ws_process_is_restarted_and_readiness_tells_while_it_is_down(topology):
    # given: a player on today's daily challenge, its live board through the proxy
    player = new_players(topology, 1, daily=True, draw=3)[0]
    date = player.game["daily"]["date"]
    ws_url = f"ws://127.0.0.1:{topology.port}/ws/daily/{date}/3/"
    ws_ready = f"{topology.base_url}/ws/readyz"

    def ws_readiness() -> int:
        return net.get(ws_ready, timeout=5).status_code

    assert ws_readiness() == 200

    # when: the WebSocket process is stopped
    stopped = topology.programs("stop", "ws-1")
    down = net.get(ws_ready, timeout=5)

    # then: readiness through the proxy tells, in the API's shape, while the HTTP side is fine
    print(f"{stopped.stdout.strip()}; /ws/readyz: {down.status_code} {down.text[:80]}")
    assert down.status_code == 503
    assert down.json()["error"]["code"] == "unavailable"
    assert net.get(f"{topology.base_url}/readyz", timeout=5).status_code == 200
    topology.programs("start", "ws-1")
    wait_for(lambda: ws_readiness() == 200, 30, "the ws process to start again")

    # when: the ws process is killed with SIGKILL
    victim = topology.pid("ws-1")
    os.kill(victim, signal.SIGKILL)

    # then: supervisord starts a new one, and live boards work again through the proxy
    wait_for(lambda: topology.pid("ws-1") not in {0, victim}, 30, "supervisord to restart it")
    wait_for(lambda: ws_readiness() == 200, 30, "the new ws process to answer")

    def entry_seen(messages: list[dict]) -> bool:
        if len(messages) == 1:
            player.act()  # after the snapshot: the change must arrive live
        return any(
            m["type"] == "entries" and any(e["player"] == player.name for e in m["entries"])
            for m in messages
        )

    messages = board_messages(ws_url, topology.base_url, entry_seen, timeout=10)
    assert messages[0]["type"] == "snapshot"
    print(f"killed ws process {victim}; supervisord started {topology.pid('ws-1')}; a live board "
          f"got its snapshot and a live entry through the proxy")  # fmt: skip


def test_account_events_resume_with_since_across_a_killed_ws_process(topology):
    """The account event stream is served by the ws process through nginx; killed, its client
    opens it again with `since` (its last event's id) and gets what happened meanwhile."""
    player = new_players(topology, 1, draw=1)[0]
    game_id = player.game["id"]
    path = "/api/v1/account/events"
    with httpx.Client(base_url=topology.base_url, timeout=30) as client:
        lines = StreamLines(client, path, dict(player.http.headers))
        assert lines.wait_open() == 200

        # given: an event received (the game resigned)
        player._call("POST", f"/api/v1/games/{game_id}/actions", {"type": "resign"})
        ended = _next_event(lines, 0)
        assert ended["type"] == "game_ended" and ended["data"]["game"] == game_id

        # when: the ws process is killed, and a game is dealt before it is back
        victim = topology.pid("ws-1")
        os.kill(victim, signal.SIGKILL)
        lines.wait_closed(15)
        dealt = player._call("POST", "/api/v1/games", {"draw": 1})
        wait_for(lambda: topology.pid("ws-1") not in {0, victim}, 30, "supervisord to restart it")

        # then: opened again after `ended`, the stream sends that game's start first
        def reopened() -> bool:
            answer = client.get(f"{path}?since=x", headers=dict(player.http.headers))
            return answer.status_code == 400  # (the app's answer: the process is back)

        wait_for(reopened, 30, "the new ws process to answer")
        again = StreamLines(client, f"{path}?since={ended['id']}", dict(player.http.headers))
        assert again.wait_open() == 200
        started = _next_event(again, 0)
    assert started["type"] == "game_started" and started["data"]["game"] == dealt["id"]
    print(f"killed ws process {victim}; resumed after event {ended['id']}: {started['type']}")


def _next_event(lines: StreamLines, after: int) -> dict:
    """The first event of the stream after its first `after` lines, keep-alives and the opening
    line (`stream_opened`: where the stream starts) left out."""
    seen = after
    while True:
        seen += 1
        line = lines.wait(seen, timeout=15)[seen - 1][1]
        assert line != b"<closed>"
        if line.strip() and (event := json.loads(line))["type"] != "stream_opened":
            return event


def raw_request(port: int, request: bytes, *, reset: bool) -> None:
    """Send bytes and hang up without reading the answer (with a TCP reset if `reset`)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if reset:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    sock.sendall(request)
    sock.close()


def settled(player: Player) -> dict:
    """The game once no request of the hung-up client is still being served."""
    game = player.server_game()
    while True:
        time.sleep(0.3)
        again = player.server_game()
        if again["moves"] == game["moves"]:
            return again
        game = again


def test_a_client_that_hangs_up_mid_request_leaves_all_or_nothing(topology):
    # given
    player = new_players(topology, 1)[0]
    game_id = player.game["id"]
    token = player.http.headers["Authorization"]

    def post(body: bytes, length: int) -> bytes:
        return (
            f"POST /api/v1/games/{game_id}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n"
        ).encode() + body

    # when: the body is cut short, then the connection closes
    before = player.server_game()["moves"]
    body = json.dumps({"type": "draw", "expect": before}).encode()
    raw_request(topology.port, post(body[:10], len(body)), reset=False)
    settled(player)

    # then: nothing happened
    assert player.server_game()["moves"] == before
    assert len(player.logged()) == before
    print("a request cut off mid-body applied nothing")

    # when: whole requests whose client hangs up (some with a reset) before the answer
    outcomes = Counter()
    for attempt in range(12):
        moves = player.server_game()["moves"]
        body = json.dumps({"type": "draw", "expect": moves}).encode()
        raw_request(topology.port, post(body, len(body)), reset=attempt % 2 == 0)
        game = settled(player)
        # then: the action landed whole (game, log and figures agree) or not at all
        assert game["moves"] in {moves, moves + 1}
        assert len(player.logged()) == game["moves"]
        outcomes["applied" if game["moves"] == moves + 1 else "not applied"] += 1
    print(f"12 whole requests whose client hung up: {dict(outcomes)}, each all or nothing")
    check_verify_games(topology)
