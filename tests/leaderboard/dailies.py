"""Finished ranked dailies written straight into the database on fixed dates (the archive's and
the streak's tests, the browser's too through `manage.py shell`): no clock is read."""

from __future__ import annotations

import datetime as dt
from typing import Any

from games.days import day_deal, day_ends_at
from games.engine import DealCode
from games.models import DailyChallenge, Game
from games.services import game_create
from leaderboard.models import Entry


def challenge_on(date: dt.date, draw: int = 3, par: int | None = None) -> DailyChallenge:
    """That day's challenge in that draw mode (made without the solver; `par` as given)."""
    challenge, _ = DailyChallenge.objects.get_or_create(
        date=date,
        draw=draw,
        defaults={
            "deal_code": str(day_deal(date, draw)),
            "attempt": 0,
            "ends_at": day_ends_at(date),
            "par": par,
            "par_exact": par is not None,
        },
    )
    return challenge


def daily_finished(
    player: Any,
    date: dt.date,
    *,
    draw: int = 3,
    status: str = "won",
    moves: int = 100,
    par: int | None = None,
    finished_at: dt.datetime | None = None,
) -> Entry:
    """A ranked daily of `player` on `date`, finished (won or ended by the player) an hour
    before its day ended, unless `finished_at` says when."""
    challenge = challenge_on(date, draw, par)
    game = game_create(owner=player, code=DealCode.parse(challenge.deal_code), challenge=challenge)
    ended = finished_at or challenge.ends_at - dt.timedelta(hours=1)
    score = 260 if status == Game.Status.WON else 40
    Game.objects.filter(pk=game.pk).update(
        status=status, moves=moves, score=score, finished_at=ended
    )
    return Entry.objects.create(
        challenge=challenge,
        player=player,
        game=game,
        status=status,
        score=score,
        moves=moves,
        started_at=ended - dt.timedelta(minutes=10),
        ended_at=ended,
        reached_at=ended,
    )
