"""The live board's consumer in process (any channel layer): snapshot, entries, close codes."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from canfield_site.asgi import application
from leaderboard import services
from leaderboard.days import day_today

ORIGIN = [(b"origin", b"http://127.0.0.1")]


async def open_socket(path: str):
    socket = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await socket.connect()
    assert connected
    return socket


@pytest.mark.django_db(transaction=True)
def test_snapshot_then_entries_as_players_act(make_user):
    today = day_today().isoformat()
    alice = make_user("alice")
    game, _ = services.daily_game_get_or_create(player=alice, draw=3)

    async def scenario():
        socket = await open_socket(f"/ws/daily/{today}/3/")
        snapshot = await socket.receive_json_from(timeout=2)
        # as the write path does after a commit
        await database_sync_to_async(services.entry_publish)(game_id=game.pk)
        entry = await socket.receive_json_from(timeout=2)
        await socket.disconnect()
        return snapshot, entry

    snapshot, entry = async_to_sync(scenario)()

    assert snapshot["type"] == "snapshot"
    assert [e["player"] for e in snapshot["results"]] == ["alice"]
    assert entry["type"] == "entry"
    assert entry["entry"]["game"] == str(game.pk) and entry["entry"]["rank"] == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/ws/daily/2026-02-30/3/", 4400),
        ("/ws/daily/today/3/", 4400),
        ("/ws/daily/{today}/2/", 4400),
        ("/ws/daily/{today}/x/", 4400),
        ("/ws/daily/2001-01-01/3/", 4404),
        ("/ws/daily/{tomorrow}/3/", 4404),
    ],
)
def test_bad_date_or_draw_closes_with_a_clear_code(path, code):
    today = day_today()
    tomorrow = today.fromordinal(today.toordinal() + 1)
    path = path.format(today=today.isoformat(), tomorrow=tomorrow.isoformat())

    async def scenario():
        socket = await open_socket(path)
        message = await socket.receive_output(timeout=2)
        await socket.wait()
        return message

    message = async_to_sync(scenario)()

    assert message["type"] == "websocket.close"
    assert message["code"] == code
