"""What a WebSocket may cost, on real servers over real sockets: client frames over 4 KiB close
with 1009 on both servers (uvicorn, scripts/serve-ws.sh, in production; daphne under
`runserver`, `make run`), at most WS_PER_ADDRESS sockets per client address across processes,
browser origins of CORS_ALLOWED_ORIGINS, and live boards that recover from a Redis restart.

The servers run on an SQLite database of this module's own and a Redis of its own
(tests/ops/stack.py), which the recovery test stops and starts again: neither DATABASE_URL nor
REDIS_URL counts here, so CI runs this module in its SQLite pass only (.ci/run). The same limits
in the test process itself, on the run's database and channel layer, are
test_socket_limits_in_process.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
import redis.asyncio
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from core.redis_clients import redis_async_client
from core.sockets import AddressPlaces
from games.days import day_today
from tests import net
from tests.leaderboard.test_live_servers import start_server, stopped
from tests.ops.stack import REDIS_SERVER, Redis, free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server")

LIMIT = 50
KiB = 1024


@pytest.fixture(scope="module")
def redis_server() -> Iterator[Redis]:
    server = Redis()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def env(tmp_path_factory, redis_server, migrated_sqlite) -> dict[str, str]:
    """The servers' environment: a migrated SQLite file (a copy of tests/conftest.py's), the
    module's Redis, one proxy in front (the client address is X-Forwarded-For's), an allowed
    third-party origin."""
    database = tmp_path_factory.mktemp("sockets") / "db.sqlite3"
    shutil.copy(migrated_sqlite, database)
    env = dict(
        os.environ,
        DJANGO_DEBUG="1",
        DATABASE_URL=f"sqlite:///{database}",
        REDIS_URL=redis_server.url,
        PROXY_COUNT="1",
        CORS_ALLOWED_ORIGINS="https://app.example.org",
        THROTTLE_REGISTER="1000/hour",
    )
    # (tests/settings.py would move a pytest-xdist worker's servers to another Redis db)
    env["REDIS_URL_WORKER"] = os.environ.get("PYTEST_XDIST_WORKER", "")
    return env


@pytest.fixture(scope="module")
def uvicorns(env) -> Iterator[list[str]]:
    """Two production WebSocket processes (scripts/serve-ws.sh) on the same database and Redis."""
    started = [start_server(env) for _ in range(2)]
    yield [base for _, base in started]
    for process, _ in started:
        process.terminate()
    assert all(stopped(process) for process, _ in started)


@pytest.fixture(scope="module")
def runserver(env) -> Iterator[str]:
    """`make run`'s server: runserver with the daphne app (HTTP and WebSockets)."""
    base = f"127.0.0.1:{free_port()}"
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", base, "--noreload"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip

    def answers() -> bool:
        assert process.poll() is None, "runserver exited"
        try:
            return net.get(f"http://{base}/api/v1/daily", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    wait_for(answers, 60, "runserver")
    yield base
    process.terminate()
    assert stopped(process)


def board() -> str:
    return f"/ws/daily/{day_today().isoformat()}/3/"


def listen(base: str, address: str = "203.0.113.1", **options) -> ClientConnection:
    """A listener of today's board, through a proxy that saw `address`."""
    headers = {"X-Forwarded-For": address}
    return connect(f"ws://{base}{board()}", additional_headers=headers, open_timeout=5, **options)


@contextlib.contextmanager
def listen_once_freed(
    base: str, address: str = "203.0.113.1", seconds: float = 5.0
) -> Iterator[ClientConnection]:
    """A listener once the address has a place again. A socket's place is given back when its
    server hears the disconnect, just after the client's close handshake ends: a new socket
    opened at once may still meet 4429 for a few milliseconds."""
    deadline = time.monotonic() + seconds
    while True:
        with listen(base, address=address) as ws:
            try:
                snapshot_of(ws)
            except ConnectionClosed:
                if ws.close_code != 4429 or time.monotonic() > deadline:
                    raise
            else:
                yield ws
                return
        time.sleep(0.05)


def snapshot_of(ws: ClientConnection) -> dict:
    message = json.loads(ws.recv(timeout=5))
    assert message["type"] == "snapshot", message
    return message


def close_code(ws: ClientConnection) -> int | None:
    """The code the server closed `ws` with (after whatever it sent first)."""
    with pytest.raises(ConnectionClosed):  # noqa: PT012 (whatever it sent first, then the close)
        while True:
            ws.recv(timeout=5)
    return ws.close_code


def frame_header_only(base: str, announced: int, sent: int) -> int | None:
    """Opens a board on a raw socket and, once its snapshot came, sends a text frame's header
    announcing `announced` bytes but only `sent` of them: the close code the server answers
    with (None: it closed without one)."""
    host, port = base.split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(
            f"GET {board()} HTTP/1.1\r\nHost: {base}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
        )
        frames = server_frames(sock)
        assert next(frames)[0] == 1  # the snapshot (text)
        header = bytes([0x81, 0x80 | 127]) + announced.to_bytes(8, "big") + b"\0\0\0\0"
        sock.sendall(header + b"x" * sent)
        for opcode, payload in frames:
            if opcode == 8:
                return int.from_bytes(payload[:2], "big")
    return None


def server_frames(sock: socket.socket) -> Iterator[tuple[int, bytes]]:
    """(opcode, payload) of each frame the server sends after its handshake answer (server
    frames are unmasked), until it closes the connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    data = data[data.index(b"\r\n\r\n") + 4 :]
    while True:
        while len(data) >= 2:
            length, start = data[1] & 0x7F, 2
            if length == 126:
                length, start = int.from_bytes(data[2:4], "big"), 4
            elif length == 127:
                length, start = int.from_bytes(data[2:10], "big"), 10
            if len(data) < start + length:
                break
            yield data[0] & 0x0F, data[start : start + length]
            data = data[start + length :]
        chunk = sock.recv(65536)
        if not chunk:
            return
        data += chunk


@pytest.mark.parametrize("server", ["uvicorn", "runserver"])
def test_a_client_frame_over_4_kib_closes_with_1009_before_it_is_read(server, request):
    base = request.getfixturevalue("uvicorns")[0] if server == "uvicorn" else None
    base = base or request.getfixturevalue("runserver")

    # a 4 KiB frame is ignored: the socket stays open
    with listen(base) as ws:
        snapshot_of(ws)
        ws.send("x" * (4 * KiB))
        assert ws.ping().wait(timeout=5)
    # a 5 KiB frame closes it with 1009
    with listen(base) as ws:
        snapshot_of(ws)
        with contextlib.suppress(ConnectionClosed):  # the close may come while it is sent
            ws.send("x" * (5 * KiB))
        assert close_code(ws) == 1009
    # so does a 5 KiB message in two frames of 2.5 KiB
    with listen(base) as ws:
        snapshot_of(ws)
        with contextlib.suppress(ConnectionClosed):  # closed before the second frame is sent
            ws.send(iter(["x" * (5 * KiB // 2)] * 2))
        assert close_code(ws) == 1009
    # a header announcing 16 MiB is answered at once: the server waits for none of it
    assert frame_header_only(base, announced=16 * KiB * KiB, sent=KiB) == 1009


def test_one_address_holds_50_sockets_across_processes_the_51st_is_closed_with_4429(uvicorns):
    a, b = uvicorns
    # (an address of this test's own: the module's other tests' sockets of theirs are given
    # back when their servers hear the disconnect, which may come after this test begins)
    mine = "198.51.100.50"
    with ExitStack() as held:
        # given: 30 sockets of one address on one process, 20 on the other
        sockets = [held.enter_context(listen(base, mine)) for base in [a] * 30 + [b] * 20]
        for ws in sockets:
            snapshot_of(ws)

        # when/then: its 51st is closed with 4429 on either process; another address listens
        for base in (a, b):
            with listen(base, mine) as refused:
                assert close_code(refused) == 4429
        with listen(a, address="203.0.113.2") as other:
            snapshot_of(other)

        # when: one of the 50 closes (on the other process), its place is free again
        sockets.pop().close()
        # then: and taken again
        with listen_once_freed(a, mine), listen(a, mine) as refused:
            assert close_code(refused) == 4429


def test_an_ipv6_client_s_sockets_count_per_64_as_every_other_counter_does(uvicorns):
    a, b = uvicorns
    network = "2001:db8:1:2::"
    with ExitStack() as held:
        # given: 50 sockets from two addresses of one /64, on both processes
        sockets = [
            held.enter_context(listen(base, address=f"{network}{n % 2 + 1}"))
            for n, base in enumerate([a, b] * (LIMIT // 2))
        ]
        for ws in sockets:
            snapshot_of(ws)

        # when/then: a third address of that /64 is closed with 4429, another /64 listens
        with listen(a, address=f"{network}abcd:1") as refused:
            assert close_code(refused) == 4429
        with listen(b, address="2001:db8:1:3::1") as other:
            snapshot_of(other)


def test_a_browser_origin_of_cors_allowed_origins_may_listen_a_foreign_one_may_not(uvicorns):
    base = uvicorns[0]

    with listen(base, origin="https://app.example.org") as ws:
        snapshot_of(ws)
    with listen(base, origin=f"http://{base}") as ws:  # the site's own
        snapshot_of(ws)
    with pytest.raises(InvalidStatus) as refused:
        listen(base, origin="https://evil.example")
    assert refused.value.response.status_code == 403


def places(url: str, lease: float = 30.0) -> AddressPlaces:
    """The places of one process (another AddressPlaces is another process)."""
    return AddressPlaces(2, redis.asyncio.Redis.from_url(url), "ws:test", lease=lease)


def test_places_of_a_process_that_died_free_themselves_a_live_one_keeps_its_own(redis_server):
    async def scenario() -> list[bool]:
        # given: two processes holding the address's two places on leases of 0.5 s
        alive, dying = places(redis_server.url, lease=0.5), places(redis_server.url, lease=0.5)
        other = places(redis_server.url)
        seen = [await alive.take("a") is not None, await dying.take("a") is not None]
        seen.append(await other.take("a") is not None)  # both places are taken
        # when: one dies (nothing given back, nothing renewed); the other renews its lease
        dying.renewer.cancel()
        await asyncio.sleep(1)
        # then: the dead one's place is free, the live one's is not
        seen += [await other.take("a") is not None, await other.take("a") is not None]
        alive.renewer.cancel()
        return seen

    assert asyncio.run(scenario()) == [True, True, False, True, False]


def test_a_burst_of_openings_waits_for_a_redis_connection_and_counts_every_place(
    redis_server, settings
):
    # given: a process's places on the project's Redis client (core/redis_clients.py)
    settings.REDIS_URL = redis_server.url

    async def burst() -> tuple[list[str | None], int]:
        # (a timeout that a loaded machine's connecting never reaches: what is checked is the
        # wait for a connection, not its time)
        client = redis_async_client(timeout=10)
        held = AddressPlaces(1000, client, "ws:burst")
        # when: 200 sockets of one address open at once, twice the client's connections
        taken = await asyncio.gather(*(held.take("a") for _ in range(200)))
        counted = await client.zcard("ws:burst:a")
        assert held.renewer is not None
        held.renewer.cancel()
        await client.aclose()
        return taken, counted

    taken, counted = asyncio.run(burst())

    # then: each took its place in Redis (none let through uncounted for want of a connection)
    assert all(place is not None for place in taken)
    assert counted == 200


def test_while_redis_is_down_each_process_still_holds_its_own_count():
    async def scenario() -> list[bool]:
        down = places(f"redis://127.0.0.1:{free_port()}/0")
        taken = [await down.take("a") for _ in range(3)]
        assert taken[0] is not None
        await down.give_back("a", taken[0])
        return [place is not None for place in [*taken, await down.take("a")]]

    assert asyncio.run(scenario()) == [True, True, False, True]


@pytest.mark.parametrize("after", ["a change after", "no change after"])
def test_a_live_board_recovers_by_itself_when_redis_answers_again(env, after):
    # given: a server on a Redis of this test's own, a listener that has had a batch
    name = "alice" if after == "a change after" else "bob"  # (the server's database is shared)
    redis_server = Redis()
    process, base = start_server(env | {"REDIS_URL": redis_server.url})
    try:
        token = net.post(
            f"http://{base}/api/v1/auth/register",
            json={"username": name, "password": "correct-horse-battery"},
        ).json()["token"]
        alice = httpx.Client(
            base_url=f"http://{base}/api/v1", headers={"Authorization": f"Token {token}"}
        )
        game = alice.post("/games", json={"daily": True}).json()["id"]

        def draw() -> int:
            response = alice.post(f"/games/{game}/actions", json={"type": "draw"})
            assert response.status_code == 200, response.text
            return response.json()["game"]["moves"]

        with listen(base) as ws:
            snapshot_of(ws)
            draw()
            assert json.loads(ws.recv(timeout=5))["type"] == "entries"

            # when: Redis restarts (it keeps nothing: the group's members are gone) while alice
            # plays on
            redis_server.stop()
            moves = draw()
            time.sleep(1.5)  # the hub's receive loop and ticks meet the outage
            redis_server.start()
            if after == "a change after":
                moves = draw()

            # then: the listener hears of it by itself: the batch, or (it missed the outage's
            # changes) 4408 and, reconnected, a snapshot with them and the next batch
            try:
                message = json.loads(ws.recv(timeout=10))
            except ConnectionClosed:
                message = None

        def moves_of(entries: list[dict]) -> int:
            return next(entry["moves"] for entry in entries if entry["player"] == name)

        if message is not None:
            assert message["type"] == "entries" and moves_of(message["entries"]) == moves
        else:
            assert ws.close_code == 4408
            with listen(base) as again:
                assert moves_of(snapshot_of(again)["results"]) == moves
                moves = draw()
                message = json.loads(again.recv(timeout=10))
                assert message["type"] == "entries" and moves_of(message["entries"]) == moves
        print(f"after the restart: {'4408, then a batch' if ws.close_code else 'a batch'}")
    finally:
        process.terminate()
        assert stopped(process)
        redis_server.stop()
