"""The client's matches against a real server: two players from two addresses join a duel,
each follows it live (the other's figures, never a card), both games end, and the finished
match, the ratings board and the player's ratings agree with what the stream said."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from canfield_client import (
    AsyncClient,
    Client,
    Match,
    MatchFinished,
    MatchRated,
    MatchSnapshot,
    MatchView,
    NotFound,
    SeatChanged,
)

from tests.clients.play import foundation_first
from tests.web.helpers import PASSWORD, open_duels_filled, unique_name


def fill_match_deals(run_on_server, draw: int, size: int) -> None:
    """The scheduler's pool of solver-proved deals, made before the joins (R32)."""
    run_on_server(
        f"from matches.deals import match_deals_fill\nmatch_deals_fill(draw={draw}, size={size})\n"
    )


def player_from(base_url: str, address: str, client=Client):
    """A client whose requests come from `address` (the test server trusts one proxy): the
    matchmaking never seats two accounts of one address together (R32)."""
    return client(base_url, headers={"X-Forwarded-For": address})


async def next_event(stream, kind, timeout: float = 10):
    while True:
        event = await asyncio.wait_for(stream.__anext__(), timeout)
        if isinstance(event, kind):
            return event


# The server's live messages reach other processes (the review's, run_on_server's) through
# Redis only: the embedded default's in-memory channel layer stays in its process.
LIVE_ACROSS_PROCESSES = bool(os.environ.get("REDIS_URL"))

# `review_games`' work on the server's database (R35: a match is rated after its games' review).
REVIEW = "from fairplay.services import reviews_run; reviews_run(budget=30)"


def test_a_duel_through_the_client_and_its_live_stream(base_url, run_on_server):
    fill_match_deals(run_on_server, draw=3, size=2)
    open_duels_filled(base_url)
    anna_name, bela_name = unique_name("anna"), unique_name("bela")
    with (
        player_from(base_url, "10.23.0.1") as anna,
        player_from(base_url, "10.23.0.2") as bela,
    ):
        anna.register(anna_name, PASSWORD)
        bela.register(bela_name, PASSWORD)

        # given anna's match: her game is dealt at once, the deal's code hidden
        match = anna.join_match(size=2, draw=3)
        assert (match.size, match.draw, match.status, match.code) == (2, 3, "open", None)
        assert [seat.player for seat in match.players] == [anna_name]
        assert match.game is not None
        game = anna.game(match.game)
        assert (game.match, game.status, game.draw, game.code) == (match.id, "playing", 3, None)
        assert anna.join_match(size=2, draw=3).id == match.id  # joining again: the same one
        for _ in range(9):  # with her resignation, the 10 actions of a seat played (R33a)
            anna.draw(match.game)

        async def follow() -> tuple[list[Match], Match]:
            seen: list[Match] = []
            view = MatchView()
            async with AsyncClient(base_url) as reader, reader.live_match(match) as stream:
                snapshot = await next_event(stream, MatchSnapshot)
                view.apply(snapshot)
                seen.append(snapshot.match)
                # when bela joins and plays: anna's stream has his figures, live
                joined = await asyncio.to_thread(bela.join_match, size=2, draw=3)
                assert joined.id == match.id
                bela_game = await asyncio.to_thread(bela.game, joined.game)
                assert bela_game.tableau == game.tableau  # one deal for the match
                while True:
                    changed = await next_event(stream, SeatChanged)
                    seen.append(view.apply(changed))
                    if changed.seat.player == bela_name:
                        break
                played = 0
                for _ in range(3):
                    move = foundation_first(
                        await asyncio.to_thread(bela.legal_actions, joined.game)
                    )
                    await asyncio.to_thread(bela.act, joined.game, move)
                    played += 1
                while True:
                    changed = await next_event(stream, SeatChanged)
                    seen.append(view.apply(changed))
                    if changed.seat.player == bela_name and changed.seat.moves == played:
                        break
                # and both games end, bela's after 6 more draws or recycles (10 actions with
                # the resignation: a seat played, R33a)
                for _ in range(6):
                    move = foundation_first(
                        await asyncio.to_thread(bela.legal_actions, joined.game)
                    )
                    await asyncio.to_thread(bela.act, joined.game, move)
                await asyncio.to_thread(bela.resign, joined.game)
                await asyncio.to_thread(anna.resign, match.game)
                finished = await next_event(stream, MatchFinished)
                view.apply(finished)
                # the finished match is rated after the fair-play review (R35): the review
                # runs (`review_games`), both games clean, and `rated` follows
                assert not finished.match.rated
                assert {seat.rating_after for seat in finished.match.players} == {None}
                await asyncio.to_thread(run_on_server, REVIEW)
                if not LIVE_ACROSS_PROCESSES:
                    # (the review ran in another process, which the in-memory channel layer
                    # does not reach: read the rated match as a reconnection would)
                    rated = MatchRated(await asyncio.to_thread(anna.match, match.id))
                    return seen, rated.match
                rated = await next_event(stream, MatchRated)
                view.apply(rated)
                with pytest.raises(StopAsyncIteration):  # nothing follows: settled
                    await stream.__anext__()
            assert view.match == rated.match
            assert [s.place for s in rated.match.players] == [
                s.place for s in finished.match.players
            ]
            return seen, rated.match

        seen, final = asyncio.run(follow())

        async def follow_again() -> list[object]:
            # a settled match's stream: its snapshot, then the end
            async with AsyncClient(base_url) as reader, reader.live_match(match.id) as stream:
                return [event async for event in stream]

        [again] = asyncio.run(follow_again())
        assert isinstance(again, MatchSnapshot) and again.match.over and again.match.rated
        assert again.match.players == final.players
        assert anna.match(match.id).players == final.players

    # then the stream showed bela's figures as they changed, and never anything else of his
    bela_rows = [m.seat(bela_name) for m in seen if m.seat(bela_name) is not None]
    assert [row.moves for row in bela_rows][-1] == 3
    assert all(row.place is None and row.rating_after is None for row in bela_rows)
    # the finished match: places 1 and 2, ratings moved apart, the deal's code shown
    assert (final.status, final.cancelled, final.rated) == ("finished", False, True)
    assert [seat.aborted for seat in final.players] == [False, False]
    assert final.code is not None and final.code.startswith("CF2-")
    places = {seat.player: seat.place for seat in final.players}
    assert sorted(places.values()) == [1, 2]
    first = next(seat for seat in final.players if seat.place == 1)
    second = next(seat for seat in final.players if seat.place == 2)
    assert first.rating_change is not None and second.rating_change is not None
    assert first.rating_change > 0 > second.rating_change
    with Client(base_url) as reader:
        again = reader.match(final.id)
        assert (again.players, again.code, again.status) == (final.players, final.code, "finished")
        board = reader.ratings(size=2, draw=3)
        ranked = {entry.player: entry for entry in board.results}
        assert ranked[first.player].rating == first.rating_after
        assert ranked[first.player].rank < ranked[second.player].rank
        assert ranked[first.player].matches == 1 and ranked[first.player].provisional
        profile = reader.player(first.player).rating(2, 3)
        assert profile is not None and (profile.rating, profile.matches) == (first.rating_after, 1)
        assert reader.player(first.player).rating(4, 3) is None
        [change] = reader.rating_history(first.player, size=2, draw=3)
        assert (change.match, change.place) == (final.id, 1)
        assert (change.rating_before, change.rating_after) == (
            first.rating_before,
            first.rating_after,
        )
        with pytest.raises(NotFound):
            reader.match("00000000-0000-0000-0000-000000000000")
    with Client(base_url) as anna:
        anna.login(anna_name, PASSWORD)
        assert [m.id for m in anna.matches(status="finished").results] == [final.id]
        assert anna.matches(status="open").count == 0
        weekly = anna.weekly_ratings(size=2, draw=3)
        gains = {entry.player: entry.gain for entry in weekly.results}
        assert gains[first.player] == first.rating_change and weekly.week.weekday() == 0


def test_a_player_message_is_read_as_the_seat_it_carries():
    # given a player row as the match socket sends it (its fields in the message itself)
    from canfield_client.models import match_event

    row = {"player": "anna", "bot": False, "score": 15, "moves": 9, "seconds": 31.5}
    row |= {"status": "playing", "place": None, "rating_before": 1500, "rating_after": None}
    event = match_event(json.loads(json.dumps({"type": "player", **row})))
    assert isinstance(event, SeatChanged) and event.seat.moves == 9 and event.seat.score == 15
    assert match_event({"type": "something newer"}) is None


def test_a_table_of_four_places_its_players_by_their_figures(base_url, run_on_server):
    fill_match_deals(run_on_server, draw=3, size=1)
    names = [unique_name(f"four{i}") for i in range(4)]
    clients = [player_from(base_url, f"10.23.4.{i + 1}") for i in range(4)]
    try:
        # given four players joining a table of 4, one after the other
        matches = []
        for client, name in zip(clients, names, strict=True):
            client.register(name, PASSWORD)
            matches.append(client.join_match(size=4, draw=3))
        assert len({match.id for match in matches}) == 1
        assert [seat.player for seat in matches[-1].players] == names
        assert clients[0].matches(status="open").results[0].id == matches[0].id

        # when each draws 9 times and as many more as their seat number, then resigns (10
        # actions or more: every seat played, R33a)
        for seat, (client, match) in enumerate(zip(clients, matches, strict=True)):
            for _ in range(9 + seat):
                client.draw(match.game)
            client.resign(match.game)

        # then the places follow the figures (same score: fewer moves first) and, once the
        # fair-play review has run (R35), the ratings the places, best first
        assert not clients[0].match(matches[0].id).rated
        run_on_server(REVIEW)
        final = clients[0].match(matches[0].id)
    finally:
        for client in clients:
            client.close()
    assert final.status == "finished" and final.rated
    assert [seat.place for seat in final.players] == [1, 2, 3, 4]
    assert [seat.moves for seat in final.players] == [9, 10, 11, 12]
    assert not any(seat.aborted for seat in final.players)
    after = [seat.rating_after for seat in final.players]
    assert after == sorted(after, reverse=True) and len(set(after)) == 4
