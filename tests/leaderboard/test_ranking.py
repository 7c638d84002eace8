import datetime as dt

from leaderboard import selectors, services
from leaderboard.models import Entry
from tests.leaderboard.conftest import NOON

START = NOON - dt.timedelta(hours=1)


def at(seconds: float) -> dt.datetime:
    return START + dt.timedelta(seconds=seconds)


def finished(seconds: float, reached: float | None = None) -> dict:
    return {
        "status": "won",
        "started_at": START,
        "ended_at": at(seconds),
        "reached_at": at(reached if reached is not None else seconds),
    }


def names(results: list[dict]) -> list[str]:
    return [entry["player"] for entry in results]


def test_board_ranks_score_then_moves_then_seconds_then_who_got_there_first(noon, player_entry):
    # given ties on score, on moves and on seconds
    player_entry("a", score=10, moves=50, **finished(100))
    player_entry("b", score=10, moves=40, **finished(3000))
    player_entry("c", score=20, moves=200, **finished(3500))
    player_entry("d", score=10, moves=50, **finished(90))
    player_entry("e", score=10, moves=50, **finished(100, reached=150))
    # in progress for 95 seconds now: live time, between d and a
    player_entry("f", score=10, moves=50, started_at=NOON - dt.timedelta(seconds=95))

    # when
    results = selectors.board_page(challenge=Entry.objects.first().challenge, page=1, now=NOON)

    # then
    assert names(results) == ["c", "b", "d", "f", "a", "e"]
    assert [entry["rank"] for entry in results] == [1, 2, 3, 4, 5, 6]
    assert results[3] | {"game": None} == {
        "rank": 4,
        "player": "f",
        "score": 10,
        "moves": 50,
        "seconds": 95.0,
        "status": "playing",
        "game": None,
        "bot": False,
        "home": 1,
        "provisional": False,
    }
    assert results[0]["seconds"] == 3500.0 and results[0]["status"] == "won"


def test_pages_and_own_ranks_agree_with_the_whole_board(noon, player_entry):
    # given 23 entries in few (score, moves) groups, so that pages start inside groups
    entries = [
        player_entry(f"p{i:02}", score=(i * 7) % 3 * 5, moves=40 + i % 2, **finished(50 + i % 4))
        for i in range(23)
    ]
    expected = sorted(
        entries, key=lambda e: (-e.score, e.moves, e.ended_at - e.started_at, e.reached_at, e.pk)
    )
    challenge = entries[0].challenge

    # when
    pages = [
        selectors.board_page(challenge=challenge, page=page, now=NOON, size=5)
        for page in range(1, 7)
    ]

    # then
    flat = [entry for page in pages for entry in page]
    assert names(flat) == [e.player.username for e in expected]
    assert [entry["rank"] for entry in flat] == list(range(1, 24))
    assert pages[5] == []
    for position, entry in enumerate(expected, start=1):
        assert selectors.entry_rank(entry=entry, now=NOON) == position


def test_a_game_left_unfinished_keeps_its_time_at_the_end_of_the_day(noon, player_entry):
    entry = player_entry("a", score=5, moves=3)
    ends_at = entry.challenge.ends_at

    later = selectors.board_page(challenge=entry.challenge, page=1, now=ends_at + dt.timedelta(1))

    assert later[0]["seconds"] == (ends_at - entry.started_at).total_seconds()
    assert later[0]["status"] == "playing"


def test_a_live_batch_carries_the_board_entries_of_the_changed_games(noon, player_entry):
    # given: three entries, b and c tied on every figure (c joined later), a disqualified
    a = player_entry("a", score=30, moves=10)
    b = player_entry("b", score=20, moves=10)
    c = player_entry("c", score=20, moves=10)
    services.entries_disqualify(entries=Entry.objects.filter(pk=a.pk), by=None)
    changed = [str(entry.game_id) for entry in (c, a, b)]

    # when
    entries, removed = selectors.board_changes(challenge=b.challenge, games=changed, now=NOON)

    # then: the batch's entries are the board's, ranks included, and a is named as removed
    board = selectors.board_page(challenge=b.challenge, page=1, now=NOON)
    assert entries == board
    assert [(e["player"], e["rank"]) for e in entries] == [("b", 1), ("c", 2)]
    assert removed == ["a"]
