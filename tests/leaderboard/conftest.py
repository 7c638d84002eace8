import datetime as dt

import pytest
import time_machine

from leaderboard import boards, consumers, services
from leaderboard.models import Entry

NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _fresh_boards(monkeypatch):
    """Each test starts with no live board state in this process (Redis's is flushed with the
    cache): ids are reused once a test's rows are gone."""
    monkeypatch.setattr(boards, "_store", None)
    monkeypatch.setattr(boards, "_stand_ins", {})
    monkeypatch.setattr(boards, "_rebuild_tried", {})
    monkeypatch.setattr(consumers, "_challenges", {})


@pytest.fixture
def noon():
    """Frozen at noon UTC on 2026-11-29 (ticking, so that created games get distinct times)."""
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller


@pytest.fixture
def player_entry(make_user):
    """A player with today's ranked game, its entry set to the given figures."""

    def make(name: str, *, score: int = 0, moves: int = 0, draw: int = 3, **fields) -> Entry:
        user = make_user(name)
        game, _ = services.daily_game_get_or_create(player=user, draw=draw)
        Entry.objects.filter(game=game).update(score=score, moves=moves, **fields)
        # Written around the services: the board's ranking is rebuilt from the entries.
        boards.store().ranking_forget(game.challenge_id)
        return Entry.objects.select_related("challenge", "player").get(game=game)

    return make
