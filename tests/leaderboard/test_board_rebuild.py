"""A Redis that restarts empty loses every board's ranking: a big board's is rebuilt in the
background while its reads stay exact and fast, counted with a stand-in (the entries per
(score, moves) group, one index-only query) instead of walking the board in the database."""

import threading
import time

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
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


def interrupted(slices: boards.BuildSlices, after: int, meanwhile) -> boards.BuildSlices:
    """The rebuild's own slices, with `meanwhile()` run once `after` of them have reached Redis
    (what another process does while the rebuild runs)."""

    def interrupted_slices(ranking: str, versions: str):
        for sent, made in enumerate(slices(ranking, versions)):
            if sent == after:
                meanwhile()
            yield made

    return interrupted_slices


@requires_postgres
@requires_redis
@pytest.mark.django_db(transaction=True)
def test_writes_made_while_a_ranking_is_rebuilt_are_kept_and_reads_never_see_it_half_built(
    player_entry, monkeypatch
):
    # given a board of 12 entries, each game at its 5th action, its ranking lost
    monkeypatch.setattr(boards, "BUILD_SLICE", 2)
    entries = [player_entry(f"p{i:02}", score=5 * (i % 4), moves=20 + i) for i in range(12)]
    Game.objects.filter(pk__in=[e.game_id for e in entries]).update(actions_count=5)
    challenge = entries[0].challenge
    store = boards.store()
    assert isinstance(store, boards.RedisBoards)
    store.client.flushdb()
    moved, removed, late = entries[1], entries[2], entries[3]
    seen: dict[str, object] = {}

    def meanwhile() -> None:
        # while the rebuild runs (its rows read from PostgreSQL before these writes): the
        # ranking read meanwhile is not the half-built one
        with pytest.raises(boards.NotReady):
            store.ranked_count(challenge.pk)
        seen["new keys"] = store.client.zcard(store._key(challenge.pk, "new-ranking"))
        # a game moves to the top (its action committed, then written to the ranking)
        Game.objects.filter(pk=moved.game_id).update(score=255, moves=99, actions_count=6)
        Entry.objects.filter(pk=moved.pk).update(score=255, moves=99)
        services.entry_mark(Game.objects.get(pk=moved.game_id), NOON)
        # an entry is disqualified
        services.entries_disqualify(entries=Entry.objects.filter(pk=removed.pk), by=None)
        # and a writer that lagged writes an older figure than the rows' (version 4 < 5)
        board = boards.board_id(challenge.pk, bots=False)
        stale = (str(late.game_id), 4, boards.rank_key(250, 1))
        store.entries_changed(board, challenge.ends_at, [stale])

    # when the ranking is rebuilt, those writes arriving after 2 of its 6 slices
    slices = interrupted(boards._rebuild_slices(challenge, False), 2, meanwhile)
    assert store.ranking_build(challenge.pk, challenge.ends_at, slices)

    # then the rebuild had filled its own keys apart (2 slices of 2 entries)
    assert seen["new keys"] == 4
    # and the ranking holds the newer writes, not the lagging one
    ranking = store._key(challenge.pk, "ranking")
    assert store.client.zscore(ranking, str(moved.game_id)) == boards.rank_key(255, 99)
    assert store.client.zscore(ranking, str(removed.game_id)) is None
    assert store.client.zscore(ranking, str(late.game_id)) == boards.rank_key(15, 23)
    versions = store.client.hgetall(store._key(challenge.pk, "versions"))
    assert int(versions[str(moved.game_id).encode()]) == 6
    assert int(versions[str(removed.game_id).encode()]) == boards.REMOVED
    assert int(versions[str(late.game_id).encode()]) == 5
    assert not store.client.exists(store._key(challenge.pk, "new-ranking"))
    assert not store.client.exists(store._key(challenge.pk, "building"))
    with time_machine.travel(NOON, tick=False):
        with CaptureQueriesContext(connection) as queries:
            assert store.ranked_count(challenge.pk) == 11
        assert len(queries) == 0
        assert_board_matches_full_sort(challenge, NOON, 4)


@requires_postgres
@requires_redis
@pytest.mark.django_db(transaction=True)
def test_a_rebuild_that_lost_its_hold_puts_nothing_in_place(player_entry, monkeypatch):
    # given a board of 6 entries, its ranking lost
    monkeypatch.setattr(boards, "BUILD_SLICE", 2)
    entries = [player_entry(f"p{i}", score=5 * i, moves=20) for i in range(6)]
    challenge = entries[0].challenge
    store = boards.store()
    assert isinstance(store, boards.RedisBoards)
    store.client.flushdb()

    # when its ranking is forgotten while a rebuild runs (the rebuild's hold with it)
    forget = lambda: store.ranking_forget(challenge.pk)  # noqa: E731
    slices = interrupted(boards._rebuild_slices(challenge, False), 1, forget)

    # then that rebuild puts nothing in place and leaves nothing behind: the next one builds it
    assert not store.ranking_build(challenge.pk, challenge.ends_at, slices)
    with pytest.raises(boards.NotReady):
        store.ranked_count(challenge.pk)
    assert not store.client.exists(
        *(store._key(challenge.pk, part) for part in ("new-ranking", "new-versions", "building"))
    )
    assert boards.ranking_rebuild(challenge)
    assert store.ranked_count(challenge.pk) == 6
