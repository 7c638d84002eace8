"""A Redis that restarts empty loses every board's ranking: a big board's is rebuilt in the
background while its reads stay exact and fast, counted with a stand-in (the entries per
(score, moves) group, one index-only query) instead of walking the board in the database."""

import threading
import time

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leaderboard import boards, selectors, services
from leaderboard.models import Entry
from tests.conftest import requires_postgres, requires_redis
from tests.leaderboard.conftest import NOON
from tests.leaderboard.test_board_ranking import assert_board_matches_full_sort, full_sort


def wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the deadline"
        time.sleep(0.02)


def ranking_ready(store: boards.RedisBoards, board: int) -> bool:
    try:
        store.ranked_count(board)
    except boards.NotReady:
        return False
    return True


@requires_postgres
@requires_redis
@pytest.mark.django_db(transaction=True)
def test_a_board_redis_lost_is_rebuilt_in_the_background_and_read_exactly_meanwhile(
    player_entry, settings, monkeypatch
):
    # (a ticking clock: the stand-in ages, the rebuild is retried)
    with time_machine.travel(NOON, tick=True):
        rebuilt_in_the_background(player_entry, settings, monkeypatch)


def rebuilt_in_the_background(player_entry, settings, monkeypatch) -> None:
    # given a board bigger than the inline rebuild's limit, its ranking built in Redis
    settings.BOARD_REBUILD_INLINE_MAX = 4
    monkeypatch.setattr(boards, "STAND_IN_SECONDS", 0.05)
    monkeypatch.setattr(boards, "REBUILD_RETRY_SECONDS", 0.05)
    entries = [player_entry(f"p{i:02}", score=5 * (i % 4), moves=20 + i % 3) for i in range(11)]
    challenge = entries[0].challenge
    services.entries_disqualify(entries=Entry.objects.filter(pk=entries[3].pk), by=None)
    store = boards.store()
    assert isinstance(store, boards.RedisBoards)
    assert boards.ranking_rebuild(challenge)
    assert store.ranked_count(challenge.pk) == 10

    # when Redis restarts empty (its own db flushed) while another process holds the build
    store.client.flushdb()
    building = store._key(challenge.pk, "building")
    store.client.set(building, "another process", ex=60)

    # then every read is exact, from the stand-in: no read walks the board or rebuilds it
    with CaptureQueriesContext(connection) as queries:
        assert_board_matches_full_sort(challenge, NOON, 3)
    sql = [query["sql"] for query in queries.captured_queries]
    assert not any("actions_count" in query for query in sql)
    assert len([query for query in sql if "GROUP BY" in query]) == 1  # the stand-in, once
    assert not ranking_ready(store, challenge.pk)

    # and a change made meanwhile (written around Redis) shows within the stand-in's age
    Entry.objects.filter(pk=entries[0].pk).update(score=255, moves=99)

    def shows_the_change() -> bool:  # p07 led the board, now p00 does
        entry = Entry.objects.select_related("challenge").get(pk=entries[7].pk)
        return selectors.entry_rank(entry=entry, now=NOON) == 2

    wait_for(shows_the_change)
    assert_board_matches_full_sort(challenge, NOON, 4)

    # when the other process gives the build up, this one's background thread rebuilds it
    # (reads going on meanwhile)
    store.client.delete(building)
    wait_for(
        lambda: (
            selectors.board_count(challenge=challenge) == 10 and ranking_ready(store, challenge.pk)
        )
    )

    # then the counts come from Redis again, exactly, with no query
    expected = full_sort(challenge, NOON)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.board_count(challenge=challenge) == len(expected) == 10
        assert store.ranked_before(challenge.pk, [boards.rank_key(255, 99)]) == [0]
    assert len(queries) == 0
    assert_board_matches_full_sort(challenge, NOON, 3)
    wait_for(lambda: not any(t.name.startswith("board-") for t in threading.enumerate()))


@requires_redis
def test_a_small_board_redis_lost_is_rebuilt_by_the_read_that_finds_it_missing(
    noon, player_entry, settings
):
    # given a board within the inline limit, with a held, a cleared and a disqualified entry
    # (R35), its ranking lost
    settings.BOARD_REBUILD_INLINE_MAX = 10
    entries = [player_entry(f"p{i}", score=5 * (i % 3), moves=10 + i) for i in range(6)]
    Entry.objects.filter(pk=entries[1].pk).update(review="held")
    Entry.objects.filter(pk=entries[2].pk).update(review="cleared")
    Entry.objects.filter(pk=entries[3].pk).update(disqualified=True)
    challenge = entries[0].challenge
    store = boards.store()
    store.client.flushdb()

    # when it is read, then the read has rebuilt it (no thread), and counts come from Redis
    assert selectors.board_count(challenge=challenge) == 4
    assert store.ranked_count(challenge.pk) == 4
    assert not any(t.name.startswith("board-") for t in threading.enumerate())
    versions = store.client.hgetall(store._key(challenge.pk, "versions"))
    assert {int(versions[str(entries[i].game_id).encode()]) for i in (1, 2, 3)} == {
        boards.HELD,
        boards.CLEARED,
        boards.REMOVED,
    }
    ranking = store._key(challenge.pk, "ranking")
    on_board = {member.decode() for member in store.client.zrange(ranking, 0, -1)}
    assert on_board == {str(entries[i].game_id) for i in (0, 2, 4, 5)}
    expected = sorted(
        (-e.score, e.moves) for e in entries if e.pk not in (entries[1].pk, entries[3].pk)
    )
    assert [
        boards.key_figures(int(key))
        for _, key in store.client.zrange(ranking, 0, -1, withscores=True)
    ] == [(-score, moves) for score, moves in expected]
