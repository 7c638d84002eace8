"""Live boards over real connections: two ASGI server processes sharing PostgreSQL and the
Redis channel layer, driven as a third-party client would (HTTP + WebSocket)."""

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from leaderboard.days import day_today
from tests.conftest import requires_postgres, requires_redis

ROOT = Path(__file__).resolve().parents[2]


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """uvicorn on a socket bound here to a free port (no port is fixed or guessed)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "canfield_site.asgi:application", "--fd",
         str(listener.fileno()), "--log-level", "warning"],
        cwd=ROOT, env=env, pass_fds=[listener.fileno()],
    )  # fmt: skip
    listener.close()
    base = f"127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx.get(f"http://{base}/api/v1/daily", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


@pytest.fixture
def servers(transactional_db, settings):
    database = settings.DATABASES["default"]
    env = dict(
        os.environ,
        DATABASE_URL=(
            f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
            f"{database['NAME']}"
        ),
        THROTTLE_REGISTER="1000/hour",
        CONN_MAX_AGE="0",
    )
    started = [start_server(env) for _ in range(2)]
    yield [base for _, base in started]
    for process, _ in started:
        process.terminate()
    hung = []
    for process, _ in started:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            hung.append(process.pid)
            process.kill()
            process.wait(timeout=10)
    # A server stops within a fraction of a second of SIGTERM once its sockets are gone; one
    # that does not has a connection's task still waiting (a stray socket's channel layer read
    # did, 20 s each time, until NoRouteConsumer dropped the layer).
    assert not hung, f"servers {hung} did not stop within 10 s of SIGTERM"


def register(base: str, name: str) -> httpx.Client:
    response = httpx.post(
        f"http://{base}/api/v1/auth/register",
        json={"username": name, "password": "correct-horse-battery"},
    )
    assert response.status_code == 201, response.text
    token = response.json()["token"]
    return httpx.Client(
        base_url=f"http://{base}/api/v1", headers={"Authorization": f"Token {token}"}
    )


def listen(base: str, path: str):
    return connect(f"ws://{base}{path}", origin=f"http://{base}", open_timeout=5)


def entries_until(ws, deadline: float, done) -> dict[str, dict]:
    """The latest ENTRY of each game from the `entries` batches, until `done(latest)` holds or
    `deadline` (time.monotonic) passes; checks each batch's shape on the way."""
    latest: dict[str, dict] = {}
    while not done(latest):
        message = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
        assert message["type"] == "entries", message
        assert [e["rank"] for e in message["entries"]] == sorted(
            e["rank"] for e in message["entries"]
        )
        latest.update({entry["game"]: entry for entry in message["entries"]})
    return latest


@requires_postgres
@requires_redis
def test_an_action_on_one_process_reaches_a_listener_on_the_other_in_the_next_batch(servers):
    a, b = servers
    today = day_today().isoformat()
    alice = register(a, f"alice-{uuid.uuid4().hex[:8]}")
    game = alice.post("/games", json={"daily": True}).json()

    with listen(b, f"/ws/daily/{today}/3/") as ws:
        snapshot = json.loads(ws.recv(timeout=5))
        assert snapshot["type"] == "snapshot"
        assert [e["game"] for e in snapshot["results"]] == [game["id"]]

        sent = time.monotonic()
        response = alice.post(f"/games/{game['id']}/actions", json={"type": "draw"})
        assert response.status_code == 200
        latest = entries_until(ws, sent + 2.5, lambda seen: seen.get(game["id"], {}).get("moves"))

    # a batch goes out at most a second after the change, plus its own making
    assert time.monotonic() - sent < 2.5
    entry = latest[game["id"]]
    assert (entry["moves"], entry["rank"]) == (1, 1)


@requires_postgres
@requires_redis
def test_two_players_play_the_daily_and_the_board_shows_them_in_order(servers):
    a, b = servers
    today = day_today().isoformat()
    suffix = uuid.uuid4().hex[:8]
    alice, bob = register(a, f"alice-{suffix}"), register(b, f"bob-{suffix}")

    with listen(b, f"/ws/daily/{today}/3/") as ws:
        assert json.loads(ws.recv(timeout=5)) == {"type": "snapshot", "count": 0, "results": []}

        # both play today's daily: alice one draw, bob two, so alice ranks first (fewer moves)
        alice_game = alice.post("/games", json={"daily": True})
        bob_game = bob.post("/games", json={"daily": True})
        assert alice_game.status_code == 201 and bob_game.status_code == 201
        assert bob.post("/games", json={"daily": True}).status_code == 200
        alice_id, bob_id = alice_game.json()["id"], bob_game.json()["id"]
        for client, game_id, draws in ((bob, bob_id, 2), (alice, alice_id, 1)):
            for _ in range(draws):
                assert client.post(f"/games/{game_id}/actions", json={"type": "draw"}).is_success

        def both_played(seen: dict) -> bool:
            return (
                seen.get(alice_id, {}).get("moves") == 1 and seen.get(bob_id, {}).get("moves") == 2
            )

        last = entries_until(ws, time.monotonic() + 5, both_played)

    assert (last[alice_id]["rank"], last[alice_id]["moves"]) == (1, 1)
    assert (last[bob_id]["rank"], last[bob_id]["moves"]) == (2, 2)

    board = httpx.get(f"http://{a}/api/v1/daily/{today}/leaderboard?draw=3").json()
    assert [(e["player"], e["rank"], e["moves"]) for e in board["results"]] == [
        (f"alice-{suffix}", 1, 1),
        (f"bob-{suffix}", 2, 2),
    ]
    with listen(a, f"/ws/daily/{today}/3/") as ws:
        snapshot = json.loads(ws.recv(timeout=5))
    assert snapshot["count"] == 2
    assert [e["game"] for e in snapshot["results"]] == [alice_id, bob_id]
    info = httpx.get(f"http://{b}/api/v1/daily").json()
    assert (info["boards"][0]["draw"], info["boards"][0]["players"]) == (3, 2)


@requires_postgres
@requires_redis
def test_any_client_without_origin_listens_a_foreign_browser_is_refused(servers):
    a, _ = servers
    path = f"/ws/daily/{day_today().isoformat()}/3/"

    with connect(f"ws://{a}{path}", open_timeout=5) as ws:  # no Origin: a bot, a CLI
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://{a}{path}", origin="https://evil.example", open_timeout=5)
    assert refused.value.response.status_code == 403
    with connect(f"ws://{a}/ws/nowhere", open_timeout=5) as ws, pytest.raises(ConnectionClosed):
        ws.recv(timeout=5)
    assert ws.close_code == 4404
