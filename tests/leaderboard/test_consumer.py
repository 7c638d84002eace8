"""The live board's consumer in process (any channel layer): snapshot, batches once a second
while the board changes and none while it is still, removed entries, close codes, origins."""

import asyncio
import json

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from websockets.frames import Frame, Opcode

from canfield_site.asgi import application
from core import hub
from games import services as game_services
from games.days import day_today
from leaderboard import boards, services
from leaderboard.consumers import Board, frames
from leaderboard.models import Entry
from tests.conftest import requires_redis

ORIGIN = [(b"origin", b"http://127.0.0.1")]


@pytest.fixture
def alice_on_board(make_user):
    """(today's date, alice, her game on today's 3-card board)."""
    alice = make_user("alice")
    game, _ = services.daily_game_get_or_create(player=alice, draw=3)
    return day_today().isoformat(), alice, game


async def open_socket(path: str, headers=ORIGIN):
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


@database_sync_to_async
def draw(player, game_id) -> None:
    game = game_services.game_get_for(game_id=game_id, user=player)
    game_services.game_act(game=game, user=player, action={"type": "draw"}, expect=None)


async def next_message(socket, timeout: float = 5.0) -> dict:
    return await socket.receive_json_from(timeout=timeout)


async def drain(socket) -> None:
    """Takes the batch of the players' joining the board, if no tick fell since they joined
    (it may come after the snapshot): what the test does next is then the next message."""
    while not await socket.receive_nothing(timeout=1.5, interval=0.05):
        await next_message(socket)


async def listening(path: str):
    """A listener of the board at `path` that has had everything so far: its snapshot taken,
    and the batch of the players' joining if one follows it."""
    socket = await open_socket(path)
    await next_message(socket)
    await drain(socket)
    return socket


@pytest.mark.django_db(transaction=True)
def test_batches_come_while_the_board_changes_stop_when_it_is_still_and_resume(make_user):
    # given: alice and bob on today's board, and a listener
    today = day_today().isoformat()
    alice, bob = make_user("alice"), make_user("bob")
    alice_game, _ = services.daily_game_get_or_create(player=alice, draw=3)
    bob_game, _ = services.daily_game_get_or_create(player=bob, draw=3)

    async def scenario():
        socket = await open_socket(f"/ws/daily/{today}/3/")
        snapshot = await next_message(socket)
        await drain(socket)
        # when: both draw (bob twice); one batch carries both with current ranks
        await draw(bob, bob_game.pk)
        await draw(bob, bob_game.pk)
        await draw(alice, alice_game.pk)
        batches = [await next_message(socket)]
        latest = {e["player"]: e for e in batches[0]["entries"]}
        while latest.get("bob", {}).get("moves") != 2 or latest.get("alice", {}).get("moves") != 1:
            batches.append(await next_message(socket))  # a tick fell between the draws
            latest |= {e["player"]: e for e in batches[-1]["entries"]}
        # then: nothing while nobody acts (more than two ticks)
        still = await socket.receive_nothing(timeout=2.5, interval=0.05)
        # when: bob draws again: batches resume, with only what changed
        await draw(bob, bob_game.pk)
        resumed = await next_message(socket)
        await socket.disconnect()
        return snapshot, batches, latest, still, resumed

    snapshot, batches, latest, still, resumed = async_to_sync(scenario)()

    assert snapshot["type"] == "snapshot" and snapshot["count"] == 2
    assert {e["player"] for e in snapshot["results"]} == {"alice", "bob"}
    assert len(batches) <= 3
    assert all(batch["type"] == "entries" and batch["count"] == 2 for batch in batches)
    assert sorted((e["rank"], e["player"], e["moves"]) for e in latest.values()) == [
        (1, "alice", 1),
        (2, "bob", 2),
    ]
    assert still is True
    assert resumed["type"] == "entries"
    assert [(e["player"], e["moves"], e["rank"]) for e in resumed["entries"]] == [("bob", 3, 2)]


@pytest.mark.django_db(transaction=True)
def test_a_disqualified_entry_is_removed_from_the_live_board(alice_on_board):
    today, alice, game = alice_on_board

    async def scenario():
        socket = await listening(f"/ws/daily/{today}/3/")
        await database_sync_to_async(services.entries_disqualify)(
            entries=Entry.objects.filter(game=game), by=None
        )
        removed = await next_message(socket)
        await socket.disconnect()
        return removed

    assert async_to_sync(scenario)() == {"type": "removed", "player": "alice"}


@pytest.mark.django_db(transaction=True)
def test_client_frames_are_ignored_and_a_client_without_origin_may_listen(alice_on_board):
    today, alice, game = alice_on_board

    async def scenario():
        socket = await open_socket(f"/ws/daily/{today}/3/", headers=[])
        snapshot = await next_message(socket)
        await drain(socket)
        await socket.send_to(text_data="not json {")
        await socket.send_to(bytes_data=b"\x00\xff")
        await socket.send_json_to({"type": "subscribe"})
        await draw(alice, game.pk)
        batch = await next_message(socket)
        await socket.disconnect()
        return snapshot, batch

    snapshot, batch = async_to_sync(scenario)()

    assert snapshot["type"] == "snapshot"
    assert batch["type"] == "entries" and batch["entries"][0]["moves"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_foreign_browser_origin_is_refused():
    async def scenario():
        headers = [(b"origin", b"https://evil.example")]
        socket = WebsocketCommunicator(application, f"/ws/daily/{day_today()}/3/", headers)
        connected, _ = await socket.connect()
        return connected

    # the handshake is refused (a real server answers it with 403: test_live_servers.py)
    assert async_to_sync(scenario)() is False


@pytest.mark.django_db(transaction=True)
def test_a_listener_that_missed_a_batch_is_closed_with_4408(make_user):
    today = day_today()
    alice = make_user("alice")
    game, _ = services.daily_game_get_or_create(player=alice, draw=3)

    async def scenario():
        socket = await open_socket(f"/ws/daily/{today.isoformat()}/3/")
        await next_message(socket)
        await draw(alice, game.pk)
        batch = await next_message(socket)
        # when: the channel layer lost a batch on its way to this process (next one is 2 on)
        seq = await database_sync_to_async(services.board_snapshot)(challenge=game.challenge)
        message = {"type": "board.batch", "seq": seq[0] + 2, "messages": [], "snapshot": "{}"}
        await get_channel_layer().group_send(
            hub.layer_group(f"daily.{today.isoformat()}.3"), message
        )
        closed = await socket.receive_output(timeout=3)
        await socket.wait()
        return batch, closed

    batch, closed = async_to_sync(scenario)()

    assert batch["type"] == "entries"
    assert closed == {"type": "websocket.close", "code": 4408, "reason": "fell behind: reconnect"}


@requires_redis
@pytest.mark.django_db(transaction=True)
def test_a_board_of_another_database_on_the_same_redis_is_not_heard(alice_on_board):
    # given: alice on today's board and a listener that has had everything so far
    today, alice, game = alice_on_board

    async def scenario():
        socket = await listening(f"/ws/daily/{today}/3/")
        # when: a process of another database on this Redis publishes its board of the same
        # day, numbered far ahead (its batches count from its own first one), then alice draws
        foreign = hub.layer_group(f"daily.{today}.3", database="another_database")
        stranger = json.dumps({"type": "entries", "count": 1, "entries": [{"player": "eve"}]})
        message = {"type": "board.batch", "seq": 9 * 10**12, "messages": [stranger]}
        await get_channel_layer().group_send(foreign, message | {"snapshot": "{}"})
        await draw(alice, game.pk)
        heard = await next_message(socket)
        await socket.disconnect()
        return heard

    heard = async_to_sync(scenario)()

    # then: the listener hears its own board only, alice's draw among it
    assert [(e["player"], e["moves"]) for e in heard["entries"]] == [("alice", 1)]


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
        ("/ws/nothing/here/", 4404),
        ("/ws/daily/{today}/3", 4404),
        ("/", 4404),
    ],
)
def test_bad_paths_close_with_a_clear_code(path, code):
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


@pytest.mark.django_db(transaction=True)
def test_a_batch_the_layer_could_not_send_is_sent_again_at_the_next_tick(
    alice_on_board, monkeypatch
):
    # given: alice on today's board and a listener that has had everything so far
    today, alice, game = alice_on_board
    layer = get_channel_layer()
    send = layer.group_send
    failed: list[str] = []

    async def send_once_failing(group, message):
        if message.get("type") == "board.batch" and not failed:
            failed.append(group)
            raise ConnectionError("Redis restarted: the pooled connection is gone")
        await send(group, message)

    async def scenario():
        socket = await listening(f"/ws/daily/{today}/3/")
        # when: alice draws and the tick's batch cannot be sent
        monkeypatch.setattr(layer, "group_send", send_once_failing)
        await draw(alice, game.pk)
        # then: the listener still hears of it, from a later tick: the batch again (it had
        # seen no later one) or, having missed a number, 4408 (reconnect for a snapshot)
        heard = await socket.receive_output(timeout=5)
        await socket.disconnect()
        return heard

    heard = async_to_sync(scenario)()

    assert failed == [hub.layer_group(f"daily.{today}.3")]
    if heard["type"] == "websocket.close":
        assert heard["code"] == 4408
    else:
        entries = json.loads(heard["text"])["entries"]
        assert [(e["player"], e["moves"]) for e in entries] == [("alice", 1)]


@requires_redis
@pytest.mark.django_db(transaction=True)
def test_a_take_redis_ran_but_answered_too_late_loses_nothing(alice_on_board, monkeypatch):
    # given: alice on today's board and a listener that has had everything so far
    today, alice, game = alice_on_board
    store = boards.store()
    take = store.scripts["take"]
    lost: list[list[bytes]] = []

    def take_answered_too_late(*, keys, args):
        taken = take(keys=keys, args=args)
        if taken and not lost:  # run by Redis, its answer lost on the way back
            lost.append(taken)
            raise redis.TimeoutError("Timeout reading from socket")
        return taken

    async def scenario():
        socket = await listening(f"/ws/daily/{today}/3/")
        # when: alice draws, and the tick that takes her change never hears what it took
        monkeypatch.setitem(store.scripts, "take", take_answered_too_late)
        await draw(alice, game.pk)
        # then: the next tick's batch carries it (the board was let go at once: within the
        # 5 s a hold would last)
        heard = await next_message(socket, timeout=4)
        await socket.disconnect()
        return heard

    heard = async_to_sync(scenario)()

    assert lost == [[str(game.pk).encode()]]
    assert heard["type"] == "entries"
    assert [(e["player"], e["moves"]) for e in heard["entries"]] == [("alice", 1)]


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536, 200_000])
def test_a_batch_s_frames_are_what_the_websockets_library_makes_of_its_messages(size):
    # (the frames a hub writes to every listener's socket itself, under uvicorn)
    messages = ["é" * (size // 2) + "x" * (size % 2), '{"type": "entries"}']

    expected = b"".join(
        Frame(Opcode.TEXT, message.encode()).serialize(mask=False, extensions=[])
        for message in messages
    )

    assert frames(messages) == expected


@pytest.mark.django_db(transaction=True)
def test_a_batch_being_sent_when_the_last_listener_leaves_is_still_sent(
    alice_on_board, monkeypatch
):
    # given: alice on today's board, this process's one listener, and another process's
    # channel in the board's group (its listeners)
    today, alice, game = alice_on_board
    layer = get_channel_layer()
    send = layer.group_send
    close = Board.close

    async def scenario():
        sending, go, closing = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def send_held(group, message):
            if message.get("type") == "board.batch" and not go.is_set():
                sending.set()
                await go.wait()
            await send(group, message)

        async def close_noted(board):
            closing.set()
            await close(board)

        socket = await listening(f"/ws/daily/{today}/3/")
        other = await layer.new_channel()
        await layer.group_add(hub.layer_group(f"daily.{today}.3"), other)
        monkeypatch.setattr(layer, "group_send", send_held)
        monkeypatch.setattr(Board, "close", close_noted)
        # when: alice draws, the tick numbers its batch, and while it is on its way the
        # listener leaves (a process's graceful stop closes its sockets first)
        await draw(alice, game.pk)
        await asyncio.wait_for(sending.wait(), 5)
        leaving = asyncio.create_task(socket.disconnect())
        await asyncio.wait_for(closing.wait(), 5)
        go.set()
        await asyncio.wait_for(leaving, 5)
        # then: the batch reaches the other process (no number is lost: a gap would close
        # every listener there with 4408)
        return await asyncio.wait_for(layer.receive(other), 5)

    batch = async_to_sync(scenario)()

    assert batch["type"] == "board.batch"
    entries = json.loads(batch["messages"][-1])["entries"]
    assert [(e["player"], e["moves"]) for e in entries] == [("alice", 1)]
