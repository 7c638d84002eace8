"""The match live (`WS /ws/matches/{id}/`) over a real WebSocket, in process: a snapshot, a
player row after each change, `finished` at the end, and never a card before it."""

import asyncio
import json
import re
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from canfield_site.asgi import application
from fairplay.services import reviews_run
from games import services as game_services
from matches import services

# A card's name (R1): 10H, QS, AD...; none may appear in any message before the end.
CARD = re.compile(r"\b(?:10|[2-9AJQK])[HSDC]\b")


async def open_socket(path: str):
    socket = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await socket.connect()
    assert connected
    return socket


@database_sync_to_async
def act(player, game_id, action) -> None:
    game = game_services.game_get_for(game_id=game_id, user=player)
    game_services.game_act(game=game, user=player, action=action, expect=None)


@pytest.mark.django_db(transaction=True)
def test_players_rows_come_live_without_a_card_until_the_match_is_finished(pool, make_user):
    # given: a duel of anna and bob, from addresses of their own
    pool(1)
    anna, bob = make_user("anna"), make_user("bob")
    match = services.match_join(player=anna, size=2, draw=3, address_hash="a" * 64).match
    services.match_join(player=bob, size=2, draw=3, address_hash="b" * 64)
    games = {seat.player.username: seat.game_id for seat in match.players.all()}
    # each has drawn 8 times before anyone watches (so that both seats are played, R33a)
    for player in (anna, bob):
        for _ in range(8):
            async_to_sync(act)(player, games[player.username], {"type": "draw"})

    async def scenario():
        socket = await open_socket(f"/ws/matches/{match.pk}/")
        texts = [await socket.receive_from(timeout=5)]
        # when: anna draws and moves what she can, bob draws, then both resign
        await act(anna, games["anna"], {"type": "draw"})
        texts.append(await socket.receive_from(timeout=5))
        await act(bob, games["bob"], {"type": "draw"})
        texts.append(await socket.receive_from(timeout=5))
        await act(anna, games["anna"], {"type": "resign"})
        texts.append(await socket.receive_from(timeout=5))
        await act(bob, games["bob"], {"type": "resign"})
        rest = [await socket.receive_from(timeout=5) for _ in range(2)]
        # and the fair-play review of both games ends clean: the match is rated (R35)
        await database_sync_to_async(reviews_run)(budget=30)
        rated = await socket.receive_from(timeout=5)
        await socket.disconnect()
        return texts, rest, rated

    texts, rest, rated = async_to_sync(scenario)()

    # then: the snapshot and each change, as figures only
    messages = [json.loads(text) for text in texts]
    assert messages[0]["type"] == "snapshot" and messages[0]["match"]["code"] is None
    assert [m["type"] for m in messages[1:]] == ["player", "player", "player"]
    assert [(m["player"], m["moves"], m["status"]) for m in messages[1:]] == [
        ("anna", 9, "playing"), ("bob", 9, "playing"), ("anna", 9, "resigned"),
    ]  # fmt: skip
    for text in texts:
        assert not CARD.search(text), text
        assert "actions" not in text and "tableau" not in text
    # and at the end: bob's row, then the finished match with its code and places, unrated
    # until the review
    final = [json.loads(text) for text in rest]
    kinds = sorted(m["type"] for m in final)
    assert kinds == ["finished", "player"]
    finished = next(m for m in final if m["type"] == "finished")["match"]
    assert finished["status"] == "finished" and finished["code"].startswith("CF2-D3-")
    assert sorted(row["place"] for row in finished["players"]) == [1, 2]
    assert not finished["rated"]
    assert all(row["rating_after"] is None for row in finished["players"])
    # then, once reviewed: `rated` with the match's rating changes (`finished` came once)
    message = json.loads(rated)
    assert message["type"] == "rated" and message["match"]["rated"]
    assert sorted(row["place"] for row in message["match"]["players"]) == [1, 2]
    assert all(row["rating_after"] is not None for row in message["match"]["players"])


@pytest.mark.django_db(transaction=True)
def test_bad_paths_close_with_clear_codes():
    async def scenario():
        codes = []
        for path in ("/ws/matches/nope/", "/ws/matches/00000000-0000-0000-0000-000000000000/"):
            socket = await open_socket(path)
            codes.append((await socket.receive_output(timeout=5))["code"])
            await socket.disconnect()
        return codes

    assert async_to_sync(scenario)() == [4400, 4404]


@pytest.mark.django_db(transaction=True)
def test_an_unknown_match_closes_with_4404_even_when_a_cancel_is_lost(monkeypatch):
    # given: a channel layer whose receive, cancelled, goes on waiting once: as the Redis layer's
    # was seen to (a topic's receive left waiting on its next read, "cancelling"), which held the
    # topic's close, and this socket's 4404 behind it, for good
    layer = get_channel_layer()
    receive = layer.receive
    lost: list[str] = []

    async def losing_receive(channel):
        try:
            return await receive(channel)
        except asyncio.CancelledError:
            if lost:
                raise
            lost.append(channel)
            return await receive(channel)

    monkeypatch.setattr(layer, "receive", losing_receive)

    # when: a socket asks for a match that does not exist
    async def scenario():
        socket = await open_socket(f"/ws/matches/{uuid.uuid4()}/")
        closed = await socket.receive_output(timeout=10)
        await socket.disconnect()
        return closed

    closed = async_to_sync(scenario)()

    # then: the topic's receive lost its first cancel, and the socket is closed with 4404 all
    # the same (its task cancelled again: core/hub.py, `_cancelled`)
    assert lost
    assert closed == {"type": "websocket.close", "code": 4404, "reason": "no such match"}
