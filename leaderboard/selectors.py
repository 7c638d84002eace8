"""Reads of the daily challenges: boards in rank order, a player's rank, daily info, stats.

Ranking stays in the database. The order is score (desc), moves, seconds, then who reached
the figures first. Seconds are live for a game in progress (up to the end of its day), so
the index covers (score, moves) and the few rows of a (score, moves) group are sorted by
time on the fly. A deep page or one player's rank counts along the index instead of
numbering every row before it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    Count,
    DateTimeField,
    DurationField,
    ExpressionWrapper,
    F,
    Max,
    Min,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Coalesce

from games.engine import DealCode
from games.errors import NotFound
from games.models import Game
from leaderboard.days import day_today
from leaderboard.models import DailyChallenge, Entry

PAGE_SIZE = 50
BOARD_ORDER = ("-score", "moves", "span", "reached_at", "id")
# What an ENTRY shows and the board sorts by: nothing else is read.
ENTRY_FIELDS = ("status", "score", "moves", "started_at", "ended_at", "reached_at", "game_id")


def board_group(date: dt.date, draw: int) -> str:
    """The channel-layer group of a board's live listeners."""
    return f"daily.{date.isoformat()}.{draw}"


def challenge_is_over(challenge: DailyChallenge, now: dt.datetime) -> bool:
    return now >= challenge.ends_at


def _span(challenge: DailyChallenge, now: dt.datetime) -> ExpressionWrapper:
    """The ranked time: to the end of the game, else now, but never past the end of the day."""
    cap = min(now, challenge.ends_at)
    return ExpressionWrapper(
        Coalesce(F("ended_at"), Value(cap, output_field=DateTimeField())) - F("started_at"),
        output_field=DurationField(),
    )


def _board(challenge: DailyChallenge, now: dt.datetime) -> QuerySet[Entry]:
    return Entry.objects.filter(challenge=challenge, disqualified=False).annotate(
        span=_span(challenge, now)
    )


def _entry_dict(entry: Entry, rank: int) -> dict[str, Any]:
    span: dt.timedelta = entry.span  # type: ignore[attr-defined]
    return {
        "rank": rank,
        "player": entry.player.username,
        "score": entry.score,
        "moves": entry.moves,
        "seconds": round(span.total_seconds(), 3),
        "status": entry.status,
        "game": str(entry.game_id),
    }


def _before_group(challenge: DailyChallenge, score: int, moves: int) -> int:
    """How many entries rank in a better (score, moves) group: two index range counts."""
    board = Entry.objects.filter(challenge=challenge, disqualified=False)
    return (
        board.filter(score__gt=score).count() + board.filter(score=score, moves__lt=moves).count()
    )


def board_count(*, challenge: DailyChallenge) -> int:
    return Entry.objects.filter(challenge=challenge, disqualified=False).count()


def board_page(
    *, challenge: DailyChallenge, page: int, now: dt.datetime, size: int = PAGE_SIZE
) -> list[dict[str, Any]]:
    """The entries ranked (page - 1) * size + 1 onwards, as API.md's ENTRY."""
    offset = (page - 1) * size
    board = (
        _board(challenge, now)
        .select_related("player")
        .only(*ENTRY_FIELDS, "player__username")
        .order_by(*BOARD_ORDER)
    )
    if offset == 0:
        rows = list(board[:size])
    else:
        # Find the (score, moves) group holding the first row of the page along the index,
        # then sort only from that group on.
        boundary = (
            Entry.objects.filter(challenge=challenge, disqualified=False)
            .order_by("-score", "moves")
            .values_list("score", "moves")[offset : offset + 1]
        )
        first = boundary.first()
        if first is None:
            return []
        score, moves = first
        skip = offset - _before_group(challenge, score, moves)
        tail = board.filter(score__lte=score).exclude(score=score, moves__lt=moves)
        rows = list(tail[skip : skip + size])
    return [_entry_dict(entry, offset + i + 1) for i, entry in enumerate(rows)]


def entry_rank(*, entry: Entry, now: dt.datetime) -> int:
    """The entry's position on its whole board (1 = first), ties broken as the board does."""
    challenge = entry.challenge
    span = _board(challenge, now).filter(pk=entry.pk).values_list("span", flat=True).get()
    ahead_in_group = (
        _board(challenge, now)
        .filter(score=entry.score, moves=entry.moves)
        .filter(
            Q(span__lt=span)
            | Q(span=span, reached_at__lt=entry.reached_at)
            | Q(span=span, reached_at=entry.reached_at, pk__lt=entry.pk)
        )
        .count()
    )
    return _before_group(challenge, entry.score, entry.moves) + ahead_in_group + 1


def entry_payload(*, entry: Entry, now: dt.datetime) -> dict[str, Any]:
    """API.md's ENTRY for one entry (the live board's `entry` message)."""
    entry.span = (entry.ended_at or min(now, entry.challenge.ends_at)) - entry.started_at  # type: ignore[attr-defined]
    return _entry_dict(entry, entry_rank(entry=entry, now=now))


def challenge_find(*, date: dt.date, draw: int) -> DailyChallenge | None:
    return DailyChallenge.objects.filter(date=date, draw=draw).first()


def daily_info(*, date: dt.date, now: dt.datetime) -> dict[str, Any]:
    """API.md's daily info: the day's boards, their player counts, and the codes once over."""
    challenges = list(
        DailyChallenge.objects.filter(date=date)
        .annotate(players=Count("entries", filter=Q(entries__disqualified=False)))
        .order_by("-draw")
    )
    if not challenges:
        raise NotFound(f"there is no daily challenge on {date.isoformat()}")
    ends_at = challenges[0].ends_at
    return {
        "date": date.isoformat(),
        "ends_at": ends_at.isoformat().replace("+00:00", "Z"),
        "boards": [
            {
                "draw": challenge.draw,
                "players": challenge.players,  # type: ignore[attr-defined]
                "code": _revealed_code(challenge, now),
            }
            for challenge in challenges
        ],
    }


def _revealed_code(challenge: DailyChallenge, now: dt.datetime) -> str | None:
    if not challenge_is_over(challenge, now):
        return None
    return str(DealCode(challenge.deal_number, challenge.draw))


def player_stats(*, username: str, now: dt.datetime) -> dict[str, Any]:
    """API.md's player figures. Custom deals are left out: anyone can stack a deck."""
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        raise NotFound("no such player")
    won = Q(status=Game.Status.WON)
    figures = (
        Game.objects.filter(owner=player)
        .exclude(deal_number=None)
        .aggregate(
            games=Count("id"),
            wins=Count("id", filter=won),
            best_score=Max("score"),
            best_win_seconds=Min(
                ExpressionWrapper(F("finished_at") - F("created_at"), output_field=DurationField()),
                filter=won,
            ),
            best_win_moves=Min("moves", filter=won),
        )
    )
    best = figures["best_win_seconds"]
    return {
        "username": player.username,
        "games": figures["games"],
        "wins": figures["wins"],
        "best_score": figures["best_score"],
        "best_win_seconds": None if best is None else round(best.total_seconds(), 3),
        "best_win_moves": figures["best_win_moves"],
        "daily_streak": daily_streak(player=player, now=now),
    }


def daily_streak(*, player: Any, now: dt.datetime) -> int:
    """Consecutive days with a daily game, back from today (or from yesterday while today's is
    not played yet: the streak is still alive until the day ends)."""
    days = (
        Entry.objects.filter(player=player)
        .order_by("-challenge__date")
        .values_list("challenge__date", flat=True)
        .distinct()
    )
    expected = day_today(now)
    streak = 0
    for day in days.iterator():
        if streak == 0 and day == expected - dt.timedelta(days=1):
            expected = day
        if day != expected:
            break
        streak += 1
        expected -= dt.timedelta(days=1)
    return streak
