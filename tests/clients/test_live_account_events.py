"""The Python client's account events over the WebSocket (`/ws/account/events`) against the
suite's server: `AsyncClient.live_account_events()` and `Client.live_account_events()` see the
games another client of the account plays; a connection killed under them is reopened with
`since` the last event given, and what happened while it was down comes once, none lost and
none repeated."""

from __future__ import annotations

import asyncio
import socket

import pytest
from canfield_client import (
    AccountEvent,
    AsyncClient,
    Client,
    Forbidden,
    InvalidRequest,
    LiveAccountEvents,
    NotAuthenticated,
)

from tests.web.helpers import PASSWORD

# A played game's events, in order.
TWO = ("game_started", "game_ended")
# The longest wait for an event (the promise is a second: this is a deadline, not a measure).
DEADLINE = 15.0


def other_client(base_url: str, player: Client) -> Client:
    """Another client of the player's account: a key of its own, made by logging in."""
    other = Client(base_url)
    other.login(player.account().username, PASSWORD)
    return other


def play(client: Client) -> str:
    """A game dealt and resigned: its game_started and game_ended events."""
    game = client.new_game(draw=3)
    client.resign(game)
    return game.id


def told(events: list[AccountEvent]) -> list[tuple[str, str]]:
    return [(event.type, str(event.data.get("game"))) for event in events]


def test_async_live_events_resume_after_a_killed_connection(base_url, player):
    with other_client(base_url, player) as other:
        asyncio.run(_async_live(base_url, player.token, other))


async def _async_live(base_url: str, token: str, other: Client) -> None:
    async def next_events(live: LiveAccountEvents, count: int) -> list[AccountEvent]:
        return [await asyncio.wait_for(anext(live), DEADLINE) for _ in range(count)]

    async with AsyncClient(base_url, token=token) as client:
        # given: the socket open (`async with` connects), another client plays a game
        async with client.live_account_events(backoff=0.05) as live:
            first = await asyncio.to_thread(play, other)
            seen = await next_events(live, 2)
            assert told(seen) == [("game_started", first), ("game_ended", first)]
            assert live.since == seen[-1].id and live.connections == 1

            # when: the network kills the connection and two games are played while it is down
            assert live._ws is not None
            live._ws.transport.abort()
            second = await asyncio.to_thread(play, other)
            third = await asyncio.to_thread(play, other)

            # then: reopened after the last event seen: the four events, once each, in order
            after = await next_events(live, 4)
            assert live.connections == 2
            assert told(after) == [
                ("game_started", second),
                ("game_ended", second),
                ("game_started", third),
                ("game_ended", third),
            ]
            # and what comes next is new (nothing is sent twice)
            fourth = (await asyncio.to_thread(other.new_game)).id
            assert told(await next_events(live, 1)) == [("game_started", fourth)]
        ids = [event.id for event in seen + after]
        assert ids == sorted(set(ids))


def test_blocking_live_events_resume_across_a_killed_connection_and_a_new_socket(base_url, player):
    with other_client(base_url, player) as other:
        # given: the socket open, another client plays
        with player.live_account_events(backoff=0.05) as live:
            first = play(other)
            seen = [live.receive(DEADLINE), live.receive(DEADLINE)]
            assert told(seen) == [("game_started", first), ("game_ended", first)]

            # when: the connection is cut under the socket while a game is played
            assert live._ws is not None
            live._ws.socket.shutdown(socket.SHUT_RDWR)
            second = play(other)

            # then: the game's two events once, after a reconnection
            after = [live.receive(DEADLINE), live.receive(DEADLINE)]
            assert told(after) == [("game_started", second), ("game_ended", second)]
            assert live.connections == 2
            kept = live.since
        assert kept == after[-1].id

        # and a new socket (another process, later) resumes from the id kept
        third = play(other)
        with player.live_account_events(since=kept) as resumed:
            again = [resumed.receive(DEADLINE), resumed.receive(DEADLINE)]
        assert told(again) == [("game_started", third), ("game_ended", third)]
        assert again[0].id > kept


def test_refusals_are_typed_errors(base_url, player):
    # an unknown `since` (4400), no credential (4401), a key without account:read (4403)
    unknown = player.live_account_events(since=10**12)
    with pytest.raises(InvalidRequest) as refused, unknown:
        unknown.receive(DEADLINE)
    assert refused.value.status == 4400
    with Client(base_url) as anonymous, pytest.raises(NotAuthenticated) as no_key:
        anonymous.live_account_events().receive(DEADLINE)
    assert no_key.value.status == 4401
    key = player.create_token("board only", ["board:read"]).token
    with pytest.raises(Forbidden) as narrow:
        asyncio.run(_first_event(base_url, key))
    assert narrow.value.status == 4403


async def _first_event(base_url: str, token: str | None) -> AccountEvent:
    async with AsyncClient(base_url, token=token) as client, client.live_account_events() as live:
        return await asyncio.wait_for(anext(live), DEADLINE)


def test_a_socket_opened_without_since_loses_nothing_to_a_cut_before_any_event(base_url, player):
    # given: the socket opened without `since` (`with` returns once it knows where it starts)
    with other_client(base_url, player) as other, player.live_account_events(backoff=0.05) as live:
        opened = live.since
        assert opened is not None and live.connections == 1

        # when: the connection is cut before any event, and two games are played meanwhile
        assert live._ws is not None
        live._ws.socket.shutdown(socket.SHUT_RDWR)
        games = [play(other), play(other)]

        # then: reconnected from the opening's position: the four events, once each
        after = [live.receive(DEADLINE) for _ in range(4)]
        assert told(after) == [(kind, game) for game in games for kind in TWO]
        assert live.connections == 2 and after[0].id > opened
        # and nothing more was waiting (no repeat): the next event is a new game's
        later = other.new_game(draw=3).id
        assert told([live.receive(DEADLINE)]) == [("game_started", later)]


def test_an_async_socket_opened_without_since_loses_nothing_to_a_cut(base_url, player):
    with other_client(base_url, player) as other:
        asyncio.run(_async_cut_before_any_event(base_url, player.token, other))


async def _async_cut_before_any_event(base_url: str, token: str, other: Client) -> None:
    async with (
        AsyncClient(base_url, token=token) as client,
        client.live_account_events(backoff=0.05) as live,
    ):
        assert live.since is not None  # the opening's position, before any event
        assert live._ws is not None
        live._ws.transport.abort()
        games = [await asyncio.to_thread(play, other), await asyncio.to_thread(play, other)]
        after = [await asyncio.wait_for(anext(live), DEADLINE) for _ in range(4)]
        assert told(after) == [(kind, game) for game in games for kind in TWO]
        assert live.connections == 2
