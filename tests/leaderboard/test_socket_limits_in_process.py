"""What a WebSocket may cost, in the test process itself (the ASGI application, no server): at
most WS_PER_ADDRESS sockets per client address, and a board's batches numbered without a gap,
on the run's own database and channel layer: the embedded mode's (no REDIS_URL) in CI's SQLite
pass, Redis's in its PostgreSQL pass. The same on real servers: test_socket_limits.py."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from canfield_site.asgi import application
from core import hub
from games.days import day_today
from tests.leaderboard.test_socket_limits import LIMIT


@pytest.mark.django_db(transaction=True)
def test_in_process_the_51st_socket_of_an_address_is_closed_with_4429_until_one_closes():
    # (the embedded mode's count without REDIS_URL; with it, this process's and Redis's)
    path = f"/ws/daily/{day_today().isoformat()}/3/"

    async def opened() -> tuple[WebsocketCommunicator, dict]:
        listener = WebsocketCommunicator(application, path)
        connected, _ = await listener.connect(timeout=10)
        assert connected
        return listener, await listener.receive_output(timeout=10)

    async def scenario() -> list[str | int]:
        sockets = [await opened() for _ in range(LIMIT + 1)]
        seen: list[str | int] = [json.loads(first["text"])["type"] for _, first in sockets[:-1]]
        seen.append(sockets[-1][1]["code"])
        await sockets.pop(0)[0].disconnect()
        again, first = await opened()
        seen.append(json.loads(first["text"])["type"])
        for listener in [again, *(listener for listener, _ in sockets)]:
            await listener.disconnect()
        return seen

    assert async_to_sync(scenario)() == ["snapshot"] * LIMIT + [4429, "snapshot"]


@pytest.mark.django_db(transaction=True)
def test_a_board_s_first_batch_may_have_any_number_a_gap_after_it_closes_with_4408():
    # (after a Redis restart, batch numbers go on from the milliseconds of the first batch)
    today = day_today().isoformat()
    first = 1_800_000_000_000
    entries = json.dumps({"type": "entries", "count": 0, "entries": []})

    async def batch(seq: int) -> None:
        message = {"type": "board.batch", "seq": seq, "messages": [entries], "snapshot": "{}"}
        await get_channel_layer().group_send(hub.layer_group(f"daily.{today}.3"), message)

    async def scenario() -> tuple[dict, dict, dict]:
        listener = WebsocketCommunicator(application, f"/ws/daily/{today}/3/")
        await listener.connect(timeout=10)
        snapshot = await listener.receive_json_from(timeout=10)  # no batch before it: seq 0
        await batch(first)
        taken = await listener.receive_json_from(timeout=5)
        await batch(first + 2)
        closed = await listener.receive_output(timeout=5)
        await listener.wait()
        return snapshot, taken, closed

    snapshot, taken, closed = async_to_sync(scenario)()

    assert (snapshot["type"], snapshot["count"]) == ("snapshot", 0)
    assert taken == json.loads(entries)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4408)
