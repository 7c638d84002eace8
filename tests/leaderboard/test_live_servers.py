"""Live boards over real connections: two ASGI server processes (scripts/serve-ws.sh, the
production WebSocket server) sharing PostgreSQL and the Redis channel layer, driven as a
third-party client would (HTTP + WebSocket)."""

import asyncio
import contextlib
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
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from core import hub
from games.days import day_today
from tests import net
from tests.conftest import requires_postgres, requires_redis

ROOT = Path(__file__).resolve().parents[2]


def start_server(env: dict[str, str], *options: str) -> tuple[subprocess.Popen, str]:
    """scripts/serve-ws.sh (uvicorn, with `options` after its own) on a socket bound here to a
    free port (no port is fixed or guessed)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    process = subprocess.Popen(
        ["bash", "scripts/serve-ws.sh", "--fd", str(listener.fileno()), *options],
        cwd=ROOT, env=env | {"VENV_BIN": str(Path(sys.executable).parent)},
        pass_fds=[listener.fileno()],
    )  # fmt: skip
    listener.close()
    base = f"127.0.0.1:{port}"
    for _ in range(100):
        try:
            if net.get(f"http://{base}/api/v1/daily", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def server_env(settings) -> dict[str, str]:
    database = settings.DATABASES["default"]
    return dict(
        os.environ,
        DATABASE_URL=(
            f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
            f"{database['NAME']}"
        ),
        THROTTLE_REGISTER="1000/hour",
        CONN_MAX_AGE="0",
    )


def stopped(process: subprocess.Popen) -> bool:
    """Waits for a server sent SIGTERM: whether it stopped within 10 s (else it is killed)."""
    try:
        process.wait(timeout=10)
        return True
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
        return False


@pytest.fixture
def servers(transactional_db, settings):
    env = server_env(settings)
    started = [start_server(env) for _ in range(2)]
    yield [base for _, base in started]
    for process, _ in started:
        process.terminate()
    hung = [process.pid for process, _ in started if not stopped(process)]
    # A server stops within a fraction of a second of SIGTERM once its sockets are gone; one
    # that does not has a connection's task still waiting (a stray socket's channel layer read
    # did, 20 s each time, until NoRouteConsumer dropped the layer).
    assert not hung, f"servers {hung} did not stop within 10 s of SIGTERM"


def register(base: str, name: str) -> httpx.Client:
    response = net.post(
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
def test_an_action_on_one_process_reaches_a_listener_on_the_other(servers):
    a, b = servers
    today = day_today().isoformat()
    alice = register(a, f"alice-{uuid.uuid4().hex[:8]}")
    game = alice.post("/games", json={"daily": True}).json()

    with listen(b, f"/ws/daily/{today}/3/") as ws:
        snapshot = json.loads(ws.recv(timeout=5))
        assert snapshot["type"] == "snapshot"
        assert [e["game"] for e in snapshot["results"]] == [game["id"]]

        response = alice.post(f"/games/{game['id']}/actions", json={"type": "draw"})
        assert response.status_code == 200
        # (how soon: bench/live.py's change-to-screen figures; the deadline only ends a failure)
        deadline = time.monotonic() + 30
        latest = entries_until(ws, deadline, lambda seen: seen.get(game["id"], {}).get("moves"))

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

    board = net.get(f"http://{a}/api/v1/daily/{today}/leaderboard?draw=3").json()
    assert [(e["player"], e["rank"], e["moves"]) for e in board["results"]] == [
        (f"alice-{suffix}", 1, 1),
        (f"bob-{suffix}", 2, 2),
    ]
    with listen(a, f"/ws/daily/{today}/3/") as ws:
        snapshot = json.loads(ws.recv(timeout=5))
    assert snapshot["count"] == 2
    assert [e["game"] for e in snapshot["results"]] == [alice_id, bob_id]
    info = net.get(f"http://{b}/api/v1/daily").json()
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


def close_code_of_silent_client(sock: socket.socket, seconds: float) -> int | None:
    """Reads what the server sends a client that never answers (unmasked frames) for up to
    `seconds`: the close code, or None if the socket is still open then."""
    deadline = time.monotonic() + seconds
    data = b""
    while True:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return None
        if not chunk:
            break
        data += chunk
    data = data[data.index(b"\r\n\r\n") + 4 :]  # after the handshake's answer
    while data:
        opcode, length, start = data[0] & 0x0F, data[1] & 0x7F, 2
        if length == 126:
            length, start = int.from_bytes(data[2:4], "big"), 4
        if opcode == 8:
            return int.from_bytes(data[start : start + 2], "big")
        data = data[start + length :]
    return None


@requires_postgres
def test_idle_listeners_answering_pings_stay_up_silent_ones_are_closed(transactional_db, settings):
    # given: the production server with pings every 0.5 s, answered within 1 s (20 and 20 there)
    process, base = start_server(
        server_env(settings), "--ws-ping-interval", "0.5", "--ws-ping-timeout", "1"
    )
    path = f"/ws/daily/{day_today().isoformat()}/3/"
    try:
        # a client library that answers pings (and sends none of its own), and a raw socket
        # that completes the handshake and never answers anything
        with connect(f"ws://{base}{path}", open_timeout=5, ping_interval=None) as answering:
            assert json.loads(answering.recv(timeout=5))["type"] == "snapshot"
            host, port = base.split(":")
            silent = socket.create_connection((host, int(port)), timeout=5)
            silent.sendall(
                f"GET {path} HTTP/1.1\r\nHost: {base}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
            )
            # when: both stay idle through several ping intervals
            silent_code = close_code_of_silent_client(silent, 6)
            silent.close()
            time.sleep(2)
            # then: the silent one was closed (1011), the answering one is still up
            assert silent_code == 1011
            assert answering.ping().wait(timeout=5)
            # when: the server stops (a restart or a deploy)
            process.terminate()
            # then: the listener is told so (1012: reconnect)
            with pytest.raises(ConnectionClosed):
                answering.recv(timeout=10)
        assert answering.close_code == 1012
    finally:
        process.terminate()
        assert stopped(process)


def first_frame_arrived(sock: socket.socket, seconds: float) -> None:
    """Waits until the handshake's answer and a whole first frame are in the socket's buffer,
    without reading them (MSG_PEEK: the buffer stays as full as the server made it)."""
    deadline = time.monotonic() + seconds
    data = b""
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        with contextlib.suppress(TimeoutError):
            data = sock.recv(1 << 16, socket.MSG_PEEK)
        _, upgraded, frames = data.partition(b"\r\n\r\n")
        if upgraded and len(frames) >= 4:  # (a snapshot is under 64 KiB: a 16-bit length at most)
            length, start = frames[1] & 0x7F, 2
            if length == 126:
                length, start = int.from_bytes(frames[2:4], "big"), 4
            if len(frames) >= start + length:
                return
    raise AssertionError(f"no whole frame within {seconds} s: {data[:200]!r}")


def read_frames(sock: socket.socket, seconds: float) -> tuple[list[str], int | None]:
    """A raw client's texts (unmasked text frames after the handshake's answer) until the
    server closes or `seconds` pass, and the close code (None if still open)."""
    deadline = time.monotonic() + seconds
    data = b""
    texts: list[str] = []
    upgraded = False
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(1 << 20)
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
        if not upgraded:
            if b"\r\n\r\n" not in data:
                continue
            assert data.startswith(b"HTTP/1.1 101"), data[:100]
            data = data[data.index(b"\r\n\r\n") + 4 :]
            upgraded = True
        while len(data) >= 2:
            opcode, length, start = data[0] & 0x0F, data[1] & 0x7F, 2
            if length == 126:
                length, start = int.from_bytes(data[2:4], "big"), 4
            elif length == 127:
                length, start = int.from_bytes(data[2:10], "big"), 10
            if len(data) < start + length:
                break
            payload, data = data[start : start + length], data[start + length :]
            if opcode == 8:
                return texts, int.from_bytes(payload[:2], "big")
            if opcode == 1:
                texts.append(payload.decode())
    return texts, None


@requires_postgres
@requires_redis
def test_a_listener_that_stops_reading_is_closed_with_4408_one_that_reads_gets_every_batch(
    transactional_db, settings
):
    # given: the production server, a listener that reads at once and one that stops reading
    # after the handshake (a small receive buffer: the server's writes back up sooner)
    process, base = start_server(server_env(settings))
    today = day_today().isoformat()
    path = f"/ws/daily/{today}/3/"
    host, port = base.split(":")
    try:
        with connect(f"ws://{base}{path}", open_timeout=5, max_queue=None) as reading:
            assert json.loads(reading.recv(timeout=5))["type"] == "snapshot"
            slow = socket.socket()
            slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            slow.connect((host, int(port)))
            slow.sendall(
                f"GET {path} HTTP/1.1\r\nHost: {base}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
            )
            first_frame_arrived(slow, 30)  # its snapshot (no batch yet: one may have any number)
            # when: 200 batches of 64 KiB each (more than the kernel's buffers and the outbox
            # of 30 batches hold) reach the board's group, as the ticks publish them
            first = 1_800_000_000_000
            pad = "x" * 65536

            async def publish() -> None:
                layer = get_channel_layer()
                for n in range(200):
                    text = json.dumps({"type": "entries", "count": n, "entries": [], "pad": pad})
                    batch = {"seq": first + n, "messages": [text], "snapshot": "{}"}
                    await layer.group_send(
                        hub.layer_group(f"daily.{today}.3"), {"type": "board.batch", **batch}
                    )
                    await asyncio.sleep(0.005)

            async_to_sync(publish)()
            got = [json.loads(reading.recv(timeout=10))["count"] for _ in range(200)]
            texts, code = read_frames(slow, 30)
    finally:
        process.terminate()
        assert stopped(process)

    # then: the reader got every batch in order; the other, once it read again, its snapshot
    # and the batches in order up to where it fell behind, then 4408
    assert got == list(range(200))
    assert json.loads(texts[0])["type"] == "snapshot"
    counts = [json.loads(text)["count"] for text in texts[1:]]
    assert counts == list(range(len(counts)))
    assert 30 < len(counts) < 200
    assert code == 4408


@requires_postgres
def test_the_ws_process_runs_at_the_niceness_ws_nice_gives(transactional_db, settings):
    # (a positive one: a negative one needs root, which CI may not have)
    process, _ = start_server(server_env(settings) | {"WS_NICE": "5"})
    try:
        niceness = os.getpriority(os.PRIO_PROCESS, process.pid)
        command = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
    finally:
        process.terminate()
        assert stopped(process)

    assert niceness == 5
    assert any(part.endswith(b"uvicorn") for part in command)  # the server itself, no wrapper
