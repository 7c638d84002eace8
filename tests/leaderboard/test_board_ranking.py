"""The board's pages, count and ranks, read through its ranking (in Redis, or counted in the
database), always equal a full sort of its entries: after creating, acting, undoing and
disqualifying, and from pages that start anywhere inside a (score, moves) group."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services as game_services
from games.engine import Game as EngineGame
from games.models import DailyChallenge
from leaderboard import boards, selectors, services
from leaderboard.models import Entry
from tests.conftest import requires_redis
from tests.leaderboard.conftest import NOON


def full_sort(challenge: DailyChallenge, now: dt.datetime) -> list[Entry]:
    """The board by the ranking rules, sorted in Python."""
    entries = Entry.objects.filter(challenge=challenge, disqualified=False)

    def key(entry: Entry):
        span = (entry.ended_at or min(now, challenge.ends_at)) - entry.started_at
        return (-entry.score, entry.moves, span, entry.reached_at, entry.pk)

    return sorted(entries.select_related("challenge", "player"), key=key)


def assert_board_matches_full_sort(challenge: DailyChallenge, now: dt.datetime, size: int):
    expected = full_sort(challenge, now)
    assert selectors.board_count(challenge=challenge) == len(expected)
    pages = [
        selectors.board_page(challenge=challenge, page=page, now=now, size=size)
        for page in range(1, len(expected) // size + 3)
    ]
    flat = [entry for page in pages for entry in page]
    assert [e["player"] for e in flat] == [e.player.username for e in expected]
    assert [e["rank"] for e in flat] == list(range(1, len(expected) + 1))
    for position, entry in enumerate(expected, start=1):
        assert selectors.entry_rank(entry=entry, now=now) == position


def test_pages_start_inside_score_buckets_and_skip_disqualified_entries(noon, player_entry):
    # given three scores; within each, ties on moves and on time, and a live game
    entries = []
    for i in range(26):
        score = (0, 5, 255)[i % 3]
        started = NOON - dt.timedelta(seconds=100 + i % 4)
        ended = None if i % 5 == 0 else NOON - dt.timedelta(seconds=i % 2)
        entries.append(
            player_entry(
                f"p{i:02}",
                score=score,
                moves=30 + i % 2,
                started_at=started,
                ended_at=ended,
                reached_at=NOON - dt.timedelta(seconds=i % 3),
                status="playing" if ended is None else "won",
            )
        )
    challenge = entries[0].challenge
    # and entries taken off the board from every score, one at a bucket's edge
    services.entries_disqualify(
        entries=Entry.objects.filter(pk__in=[entries[1].pk, entries[6].pk, entries[11].pk]), by=None
    )

    # then every page size starts pages somewhere inside a score or at its first row
    for size in (1, 2, 3, 4, 7, 8, 50):
        assert_board_matches_full_sort(challenge, NOON, size)


def test_a_page_that_crosses_several_scores(noon, player_entry):
    # given one entry per score: a page of 4 starting mid-board spans four scores
    entries = [player_entry(f"p{i}", score=5 * i, moves=10) for i in range(9)]

    page = selectors.board_page(challenge=entries[0].challenge, page=2, now=NOON, size=4)

    assert [e["score"] for e in page] == [20, 15, 10, 5]
    assert [e["rank"] for e in page] == [5, 6, 7, 8]


def test_the_board_count_and_daily_players_leave_out_disqualified_entries(noon, player_entry):
    entries = [player_entry(f"p{i}", score=5 * (i % 2)) for i in range(5)]
    challenge = entries[0].challenge

    services.entries_disqualify(entries=Entry.objects.filter(pk=entries[0].pk), by=None)

    assert selectors.board_count(challenge=challenge) == 4
    boards = selectors.daily_info(date=challenge.date, now=NOON)["boards"]
    assert {board["draw"]: board["players"] for board in boards}[3] == 4
    # disqualifying again changes nothing
    services.entries_disqualify(entries=Entry.objects.filter(pk=entries[0].pk), by=None)
    assert selectors.board_count(challenge=challenge) == 4


STEPS = st.lists(
    st.tuples(st.sampled_from(["join", "act", "undo", "disqualify"]), st.integers(0, 3)),
    min_size=5,
    max_size=30,
)


def play_until_the_score_moves(*, user, game_id) -> None:
    """Real actions of the owner: a move to a foundation when there is one, else draw or
    recycle, until the score changes (a few dozen actions at most)."""
    for _ in range(60):
        game = game_services.game_get_for(game_id=game_id, user=user)
        legal = EngineGame.from_dict(game.state).legal_actions()
        scoring = [a for a in legal if a.get("to", "").startswith("foundation")]
        turning = [a for a in legal if a["type"] in {"draw", "recycle"}]
        if not scoring + turning:
            return
        game_services.game_act(game=game, user=user, action=(scoring + turning)[0], expect=None)
        if game_services.game_get_for(game_id=game_id, user=user).score != game.score:
            return


def can_undo(*, user, game_id) -> bool:
    game = game_services.game_get_for(game_id=game_id, user=user)
    return {"type": "undo"} in EngineGame.from_dict(game.state).legal_actions()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS)
def test_the_board_equals_a_full_sort_after_create_act_undo_and_disqualify(
    db, noon, steps, django_capture_on_commit_callbacks
):
    with transaction.atomic():
        users = [get_user_model().objects.create_user(username=f"u{i}") for i in range(4)]
        for step, who in steps:
            # each step's after-commit work (the ranking in Redis) runs, as after a real commit
            with django_capture_on_commit_callbacks(execute=True):
                play_step(step, users[who], who)
        for challenge in DailyChallenge.objects.all():
            assert_board_matches_full_sort(challenge, NOON, size=2)
        transaction.set_rollback(True)


def play_step(step: str, user, who: int) -> None:
    if step == "join":
        # Players 0 and 1 play the 1-card board, where scoring comes quickly.
        services.daily_game_get_or_create(player=user, draw=1 if who < 2 else 3)
    elif step == "disqualify":
        services.entries_disqualify(entries=Entry.objects.filter(player=user), by=None)
    for game_id in Entry.objects.filter(player=user).values_list("game_id", flat=True):
        if step == "act":
            play_until_the_score_moves(user=user, game_id=game_id)
        elif step == "undo" and can_undo(user=user, game_id=game_id):
            game = game_services.game_get_for(game_id=game_id, user=user)
            game_services.game_act(game=game, user=user, action={"type": "undo"}, expect=None)


def test_players_and_games_on_a_board_cannot_be_deleted(noon, player_entry):
    # given: a ranked entry counted on its board
    entry = player_entry("alice", score=10)

    # when / then: deleting its player or its game is refused, the board stays true
    with pytest.raises(ProtectedError):
        entry.player.delete()
    with pytest.raises(ProtectedError):
        entry.game.delete()
    assert selectors.board_count(challenge=entry.challenge) == 1


@requires_redis
def test_with_redis_the_counts_come_from_the_ranking_not_the_database(noon, player_entry):
    # given a board whose ranking Redis does not have yet
    entries = [player_entry(f"p{i}", score=5 * (i % 3), moves=10 + i) for i in range(7)]
    challenge = entries[0].challenge
    store = boards.store()
    assert isinstance(store, boards.RedisBoards)
    with pytest.raises(boards.NotReady):
        store.ranked_count(challenge.pk)

    # when the board is read once (which builds the ranking from the database)
    assert selectors.board_count(challenge=challenge) == 7

    # then the counts are answered by Redis, with no query
    assert store.ranked_count(challenge.pk) == 7
    with CaptureQueriesContext(connection) as queries:
        assert selectors.board_count(challenge=challenge) == 7
        ahead = store.ranked_before(challenge.pk, [boards.rank_key(5, 0)])
    assert len(queries) == 0
    assert ahead == [sum(1 for e in entries if e.score > 5)]
    assert_board_matches_full_sort(challenge, NOON, 3)


@requires_redis
def test_a_batch_counts_its_games_by_their_rows_not_by_the_rankings_older_figures(
    noon, player_entry
):
    # given a board whose ranking Redis holds: A at (5, 0), B at (0, 1), C at (0, 0)
    a = player_entry("a", score=5, moves=0)
    b = player_entry("b", score=0, moves=1)
    c = player_entry("c", score=0, moves=0)
    challenge = a.challenge
    assert selectors.board_count(challenge=challenge) == 3
    store = boards.store()

    # when C's row moves on to (0, 2), committed, and is read before its writer's after-commit
    # merge into the ranking ran
    Entry.objects.filter(pk=c.pk).update(moves=2)
    assert store.ranked_before(challenge.pk, [boards.rank_key(0, 2)]) == [3]  # (C's old self)
    c.refresh_from_db()
    # then C's rank counts C by its row: A and B ahead of it, never its older self
    assert selectors.entry_rank(entry=c, now=NOON) == 3

    # and when A is disqualified the same way, a batch of the three ranks by their rows: B
    # first, C second, A off the board
    Entry.objects.filter(pk=a.pk).update(disqualified=True)
    entries, removed = selectors.board_changes(
        challenge=challenge, games=[str(e.game_id) for e in (a, b, c)], now=NOON
    )
    assert removed == ["a"]
    assert [(e["player"], e["rank"]) for e in entries] == [("b", 1), ("c", 2)]
