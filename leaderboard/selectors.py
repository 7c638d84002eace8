"""Reads of the daily challenges: boards in rank order, a player's rank, daily info, stats.

Ranking stays in the database. The order is score (desc), moves, seconds, then who reached
the figures first. Seconds are live for a game in progress (up to the end of its day), so
the index covers (score, moves) and the few rows of a (score, moves) group are sorted by
time on the fly. Counting never walks the board: the per-score counters (BoardScore) give the
board's size and how many entries have a better score, so a deep page or one player's rank
counts along the index only within one score.
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
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from games.errors import NotFound
from games.models import Game
from leaderboard.days import day_today
from leaderboard.models import BoardScore, DailyChallenge, Entry

PAGE_SIZE = 50
BOARD_ORDER = ("-score", "moves", "span", "reached_at", "id")
# What an ENTRY shows: nothing else is read (plain rows, no model instances: a page's time
# goes mostly into building Python objects).
ENTRY_FIELDS = ("player__username", "score", "moves", "span", "status", "game_id")


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


def _entry_dict(
    rank: int,
    username: str,
    score: int,
    moves: int,
    span: dt.timedelta,
    status: str,
    game_id: Any,
) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": username,
        "score": score,
        "moves": moves,
        "seconds": round(span.total_seconds(), 3),
        "status": status,
        "game": str(game_id),
    }


def _ranked(challenge: DailyChallenge) -> QuerySet[Entry]:
    # Matches the board index's condition, so counts over it are index-only scans.
    return Entry.objects.filter(challenge=challenge, disqualified=False)


def _score_counts(challenge: DailyChallenge) -> list[tuple[int, int]]:
    """(score, ranked entries) of the board, best score first: at most 52 rows."""
    return list(
        BoardScore.objects.filter(challenge=challenge)
        .order_by("-score")
        .values_list("score", "entries")
    )


def _score_at(challenge: DailyChallenge, offset: int) -> tuple[int, int, int] | None:
    """(score, entries with a better score, entries with this score) of the entry `offset`
    rows down the board."""
    better = 0
    for score, entries in _score_counts(challenge):
        if better + entries > offset:
            return score, better, entries
        better += entries
    return None


def board_scores_recounted(*, challenge: DailyChallenge) -> dict[int, int]:
    """What the board's counters should hold, counted over its entries: {score: entries}."""
    counted = _ranked(challenge).values("score").annotate(entries=Count("id"))
    return {group["score"]: group["entries"] for group in counted.order_by()}


def board_count(*, challenge: DailyChallenge) -> int:
    total = BoardScore.objects.filter(challenge=challenge).aggregate(total=Sum("entries"))
    return total["total"] or 0


def board_page(
    *, challenge: DailyChallenge, page: int, now: dt.datetime, size: int = PAGE_SIZE
) -> list[dict[str, Any]]:
    """The entries ranked (page - 1) * size + 1 onwards, as API.md's ENTRY."""
    offset = (page - 1) * size
    board = _board(challenge, now).order_by(*BOARD_ORDER).values_list(*ENTRY_FIELDS)
    if offset == 0:
        rows = list(board[:size])
    else:
        # The counters name the score holding the page's first row; along the index within
        # that score, find its (score, moves) group, then sort only from that group on.
        found = _score_at(challenge, offset)
        if found is None:
            return []
        score, better, entries = found
        within = offset - better
        same_score = _ranked(challenge).filter(score=score).values_list("moves", flat=True)
        # Walk the index from the nearer end of the score: at most half of it is read.
        from_top = within < entries // 2
        at = within if from_top else entries - 1 - within
        moves = same_score.order_by("moves" if from_top else "-moves")[at : at + 1].first()
        if moves is None:  # the counters ran ahead of this read by a concurrent commit
            return []
        if from_top:
            fewer_moves = same_score.filter(moves__lt=moves).count()
        else:
            fewer_moves = entries - same_score.filter(moves__gte=moves).count()
        skip = within - fewer_moves
        # Two index ranges, the rest of this score and then the lower scores (one query with
        # an OR would read the skipped part of the score too).
        rows = list(board.filter(score=score, moves__gte=moves)[skip : skip + size])
        if len(rows) < size:
            rows += board.filter(score__lt=score)[: size - len(rows)]
    return [_entry_dict(offset + i + 1, *row) for i, row in enumerate(rows)]


def _span_of(entry: Entry, now: dt.datetime) -> dt.timedelta:
    """`_span` of one loaded entry, in Python."""
    return (entry.ended_at or min(now, entry.challenge.ends_at)) - entry.started_at


def entry_rank(*, entry: Entry, now: dt.datetime) -> int:
    """The entry's position on its whole board (1 = first), ties broken as the board does."""
    challenge = entry.challenge
    better_score = BoardScore.objects.filter(challenge=challenge, score__gt=entry.score).aggregate(
        total=Sum("entries")
    )["total"]
    span = _span_of(entry, now)
    # Fewer moves: an index-only count. Same moves: the group's few rows, by time and arrival.
    fewer_moves = _ranked(challenge).filter(score=entry.score, moves__lt=entry.moves).count()
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
    return (better_score or 0) + fewer_moves + ahead_in_group + 1


def game_standing(*, game: Game, now: dt.datetime) -> dict[str, int] | None:
    """A finished daily game's place on its board (`rank` of `players`), for its end screen;
    None while it is in progress, or once disqualified."""
    if game.challenge_id is None or game.status == Game.Status.PLAYING:
        return None
    entry = Entry.objects.filter(game=game, disqualified=False).select_related("challenge").first()
    if entry is None:
        return None
    return {
        "rank": entry_rank(entry=entry, now=now),
        "players": board_count(challenge=entry.challenge),
    }


def entry_payload(*, entry: Entry, now: dt.datetime) -> dict[str, Any]:
    """API.md's ENTRY for one entry (the live board's `entry` message)."""
    rank = entry_rank(entry=entry, now=now)
    span = _span_of(entry, now)
    return _entry_dict(
        rank, entry.player.username, entry.score, entry.moves, span, entry.status, entry.game_id
    )


def challenge_find(*, date: dt.date, draw: int) -> DailyChallenge | None:
    return DailyChallenge.objects.filter(date=date, draw=draw).first()


def daily_info(*, date: dt.date, now: dt.datetime) -> dict[str, Any]:
    """API.md's daily info: the day's boards, their player counts, and the codes once over."""
    challenges = list(
        DailyChallenge.objects.filter(date=date)
        .annotate(players=Coalesce(Sum("score_counts__entries"), 0))
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
                "par": challenge_par(challenge, now),
            }
            for challenge in challenges
        ],
    }


def challenge_par(challenge: DailyChallenge, now: dt.datetime) -> dict[str, Any] | None:
    """R31 once the day is over: `moves`, the fewest of any winning line the solver found,
    and `exact`, whether that is proved to be the fewest possible (else shown "<= moves").
    None before, and for challenges created before the solver."""
    if challenge.par is None or not challenge_is_over(challenge, now):
        return None
    return {"moves": challenge.par, "exact": challenge.par_exact}


def _revealed_code(challenge: DailyChallenge, now: dt.datetime) -> str | None:
    """The deal code once the day is over (R4a), never before: it gives every hidden card."""
    if not challenge_is_over(challenge, now):
        return None
    return challenge.deal_code


def player_stats(*, username: str, now: dt.datetime) -> dict[str, Any]:
    """API.md's player figures, of the games that count: random and daily games played without
    a hint. Practice games (dealt from a code or a deck the player chose, R19) are left out,
    since their cards are known in advance, and so are games that asked the solver (R30)."""
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        raise NotFound("no such player")
    won = Q(status=Game.Status.WON)
    figures = Game.objects.filter(owner=player, practice=False, hints=0).aggregate(
        games=Count("id"),
        wins=Count("id", filter=won),
        best_score=Max("score"),
        best_win_seconds=Min(
            ExpressionWrapper(F("finished_at") - F("created_at"), output_field=DurationField()),
            filter=won,
        ),
        best_win_moves=Min("moves", filter=won),
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


# ---- fair-play review (leaderboard/admin.py) -------------------------------------------------


def _games_sharing(*, address_hash: Any, player: Any, date: Any, deal_code: Any) -> QuerySet:
    """Other accounts' games dealt from the same address hash that played that day's deals
    (their ranked games of the day) or explored the entry's deal (practice games of it)."""
    return (
        Game.objects.filter(address_hash=address_hash)
        .exclude(address_hash="")
        .exclude(owner=player)
        .filter(Q(challenge__date=date) | Q(challenge__isnull=True, deal_code=deal_code))
    )


def entries_with_sharing(*, entries: QuerySet) -> QuerySet:
    """`entries` annotated with `sharing_accounts`: how many other accounts have games from
    the entry's address hash on that day's deals (0 when the hash is gone or unshared)."""
    sharing = (
        _games_sharing(
            address_hash=OuterRef("game__address_hash"),
            player=OuterRef("player"),
            date=OuterRef("challenge__date"),
            deal_code=OuterRef("challenge__deal_code"),
        )
        .order_by()
        .values("address_hash")
        .annotate(accounts=Count("owner", distinct=True))
        .values("accounts")
    )
    return entries.annotate(
        sharing_accounts=Coalesce(Subquery(sharing, output_field=IntegerField()), 0)
    )


def entry_sharing_players(*, entry: Entry) -> list[str]:
    """The names of the accounts counted in the entry's `sharing_accounts`."""
    games = _games_sharing(
        address_hash=entry.game.address_hash,
        player=entry.player_id,
        date=entry.challenge.date,
        deal_code=entry.challenge.deal_code,
    )
    return sorted(set(games.values_list("owner__username", flat=True)))
