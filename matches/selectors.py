"""Reads of matches and ratings: the API's MATCH, rating boards, a player's ratings."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Case, Count, F, Q, QuerySet, Sum, Value, When
from django.utils import timezone

from core.rows import row_instance, row_reader
from games.days import day_today, day_zone
from games.models import Game
from games.selectors import rows_filtered
from matches.models import Challenge, Match, MatchPlayer, Rating, RatingChange
from matches.ratings import PROVISIONAL_MATCHES


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def player_row(seat: MatchPlayer) -> dict[str, Any]:
    """One players[] row of MATCH: figures only, never cards or actions (R32)."""
    game = seat.game
    end = game.finished_at or timezone.now()
    return {
        "player": seat.player.username,
        "bot": seat.bot,
        "score": game.score,
        "moves": game.moves,
        "seconds": round((end - game.created_at).total_seconds(), 3),
        "status": game.status,
        "end_reason": game.end_reason,
        "aborted": seat.aborted,
        "place": seat.place,
        "rating_before": seat.rating_before,
        "rating_after": seat.rating_after,
    }


@functools.cache
def _seats_sql() -> str:
    user = get_user_model()._meta.db_table
    return (
        f"SELECT {row_reader(MatchPlayer)[0]}, {row_reader(Game)[0]}, "
        f"{row_reader(get_user_model())[0]} FROM matches_matchplayer "
        "JOIN games_game ON games_game.id = matches_matchplayer.game_id "
        f"JOIN {user} ON {user}.id = matches_matchplayer.player_id "
        "WHERE matches_matchplayer.match_id = %s ORDER BY matches_matchplayer.seat"
    )


def match_seats(match: Match) -> list[MatchPlayer]:
    """The match's seats in order, each with its game and player: what
    `match.players.select_related("game", "player")` reads, in plain SQL (its compilation was a
    fifth of a join's CPU, bench/matches.py)."""
    db = connections[DEFAULT_DB_ALIAS]
    pk = Match._meta.pk.get_db_prep_value(match.pk, db)
    seat_width = len(MatchPlayer._meta.concrete_fields)
    game_end = seat_width + len(Game._meta.concrete_fields)
    seats = []
    with db.cursor() as cursor:
        cursor.execute(_seats_sql(), [pk])
        for row in cursor.fetchall():
            seat = row_instance(db, MatchPlayer, row[:seat_width])
            seat.game = row_instance(db, Game, row[seat_width:game_end])
            seat.player = row_instance(db, get_user_model(), row[game_end:])
            seats.append(seat)
    return seats


def match_payload(
    match: Match, *, viewer: Any, seats: list[MatchPlayer] | None = None
) -> dict[str, Any]:
    """docs/api.md's MATCH as `viewer` sees it: the code once the match is over, the viewer's own
    game id (null for others). `seats`: the match's seats with their games and players, if the
    caller has them in hand (else read)."""
    seats = match_seats(match) if seats is None else sorted(seats, key=lambda seat: seat.seat)
    over = match.status != Match.Status.OPEN
    viewer_id = getattr(viewer, "pk", None)
    mine = next((seat.game_id for seat in seats if seat.player_id == viewer_id), None)
    return {
        "id": str(match.id),
        "size": match.size,
        "draw": match.draw,
        "status": "open" if not over else "finished",
        "cancelled": match.status == Match.Status.CANCELLED,
        "rated": match.rated_at is not None,
        "duel": match.duel,
        "unrated": match.unrated,
        "created": _iso(match.created_at),
        "ends_at": _iso(match.ends_at),
        "finished_at": _iso(match.finished_at),
        "code": match.deal.deal_code if over else None,
        "game": None if mine is None else str(mine),
        "players": [player_row(seat) for seat in seats],
    }


def match_find(match_id: Any) -> Match | None:
    try:
        return Match.objects.select_related("deal").filter(pk=match_id).first()
    except Exception:  # not a UUID
        return None


def match_list_for(
    *,
    user: Any,
    status: str | None = None,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    size: int | None = None,
    draw: int | None = None,
) -> QuerySet[Match]:
    """The user's matches, newest first; `status` open or finished (cancelled ones count as
    finished), opened at or after `since` and before `until`, of a size and draw mode."""
    matches = rows_filtered(
        Match.objects.filter(players__player=user).select_related("deal"),
        {"created_at__gte": since, "created_at__lt": until, "size": size, "draw": draw},
    )
    if status == "open":
        matches = matches.filter(status=Match.Status.OPEN)
    elif status == "finished":
        matches = matches.exclude(status=Match.Status.OPEN)
    return matches.order_by("-created_at")


def ratings_board(*, size: int, draw: int, bots: bool = False) -> QuerySet[Rating]:
    """A mode's ratings, best first (people's, or bots' under `players=bots`, R34)."""
    return (
        Rating.objects.filter(size=size, draw=draw, bot=bots)
        .select_related("player")
        .order_by("-rating", "-matches", "player_id")
    )


def rating_entry(row: Rating, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": row.player.username,
        "rating": row.rating,
        "matches": row.matches,
        "provisional": row.matches < PROVISIONAL_MATCHES,
    }


def player_ratings(*, user: Any) -> dict[str, dict[str, Any]]:
    """docs/api.md's `ratings` of GET players/{username}: one per size-draw played."""
    return {
        f"{row.size}-{row.draw}": {
            "rating": row.rating,
            "mu": row.mu,
            "sigma": row.sigma,
            "matches": row.matches,
            "provisional": row.matches < PROVISIONAL_MATCHES,
        }
        for row in Rating.objects.filter(player=user).order_by("size", "-draw")
    }


def week_start(now: dt.datetime | None = None) -> dt.datetime:
    """Monday 00:00 of the current week in DAILY_TIME_ZONE: the weekly boards reset then."""
    today = day_today(now)
    monday = today - dt.timedelta(days=today.weekday())
    return dt.datetime.combine(monday, dt.time(), tzinfo=day_zone())


def weekly_gains(*, size: int, draw: int, now: dt.datetime | None = None) -> QuerySet[Any]:
    """The week's rating gains of a mode, best first: per player, the sum of their rating
    changes since Monday and how many matches."""
    return (
        RatingChange.objects.filter(size=size, draw=draw, bot=False, at__gte=week_start(now))
        .values("player_id", "player__username")
        .annotate(gain=Sum(F("rating_after") - F("rating_before")), matches=Count("id"))
        .order_by("-gain", "player_id")
    )


def rating_history(*, user: Any, size: int, draw: int, limit: int = 200) -> list[dict[str, Any]]:
    """A player's rating changes in a mode, oldest first (the chart of the Matches page)."""
    rows = RatingChange.objects.filter(player=user, size=size, draw=draw).order_by("-at")[:limit]
    return [
        {
            "match": str(row.match_id),
            "at": _iso(row.at),
            "place": row.place,
            "rating_before": row.rating_before,
            "rating_after": row.rating_after,
        }
        for row in reversed(list(rows))
    ]


# ---- challenges (matches.challenges) -----------------------------------------------------


def challenge_status(challenge: Challenge, now: dt.datetime) -> str:
    """Its state as a read sees it: a pending challenge past `expires_at` is expired, written
    or not yet."""
    if challenge.status == Challenge.Status.PENDING and now >= challenge.expires_at:
        return Challenge.Status.EXPIRED
    return challenge.status


def challenge_payload(challenge: Challenge, *, now: dt.datetime) -> dict[str, Any]:
    """docs/api.md's CHALLENGE: a pending one past its time reads `expired` (written later by
    the scheduler, or by the first write that meets it)."""
    status = challenge_status(challenge, now)
    decided = challenge.decided_at
    if status == Challenge.Status.EXPIRED and decided is None:
        decided = challenge.expires_at
    return {
        "id": str(challenge.id),
        "challenger": challenge.challenger.username,
        "player": challenge.player.username,
        "draw": challenge.draw,
        "rated": challenge.rated,
        "status": status,
        "created": _iso(challenge.created_at),
        "expires_at": _iso(challenge.expires_at),
        "decided_at": _iso(decided),
        "match": None if challenge.match_id is None else str(challenge.match_id),
    }


def challenge_list_for(*, user: Any, now: dt.datetime) -> QuerySet[Challenge]:
    """The user's challenges, sent and received: pending ones still in time first (soonest to
    expire first), then the others, newest first."""
    waiting = Q(status=Challenge.Status.PENDING, expires_at__gt=now)
    return (
        Challenge.objects.filter(Q(challenger=user) | Q(player=user))
        .select_related("challenger", "player")
        .annotate(waiting=Case(When(waiting, then=Value(0)), default=Value(1)))
        .order_by("waiting", "-created_at")
    )
