"""Reads of the daily challenges: boards in rank order, a player's rank, daily info, stats.

The order is score (desc), moves, seconds, then who reached the figures first. Seconds are live
for a game in progress (up to the end of its day), so the order by (score, moves) is kept
(indexed in PostgreSQL, and as the board's ranking in Redis: leaderboard.boards) and the few rows
of one (score, moves) group are sorted by time on the fly. Counting never walks the board when
the ranking is in Redis: how many entries rank ahead of a (score, moves), the board's size, and
the (score, moves) at a page's first row are O(log n) there. Without it (the embedded mode, or
while Redis is unreachable) the same counts are index counts in the database (the board index is
per population and holds only `ON_BOARD` entries).
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any, TypedDict, TypeVar

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
    Value,
)
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce, TruncWeek
from django.utils.translation import gettext as _
from django_stubs_ext import WithAnnotations

from accounts.identity import player_is_bot
from core.errors import NotFound
from games.days import day_today, day_zone, month_next
from games.models import DailyChallenge, Game
from games.selectors import games_counted
from leaderboard import boards
from leaderboard.models import Entry

PAGE_SIZE = 50
# A day's boards' populations (R34), as `?players=` names them: people by default.
POPULATIONS = ("people", "bots")
BOARD_ORDER = ("-score", "moves", "span", "reached_at", "id")
# What an ENTRY shows: nothing else is read (plain rows, no model instances: a page's time
# goes mostly into building Python objects).
ENTRY_FIELDS = (
    "player__username", "score", "moves", "span", "status", "game_id", "bot", "home",
    "provisional",
)  # fmt: skip
# R35: an entry held by the fair-play review (fairplay) is off the public boards, as a
# disqualified one is, until staff clear it ("cleared": back on the boards).
HELD, CLEARED = "held", "cleared"
# What a board ranks. R36: a provisional entry (its account not in good standing when it
# started the day's game) is never ranked; it is listed apart (`provisional_entries`).
ON_BOARD = Q(disqualified=False) & ~Q(review=HELD) & Q(provisional=False)
# A day's boards' sections, as `?section=` names them: the ranks, or the provisional entries.
SECTIONS = ("ranked", "provisional")


def board_group(date: dt.date, draw: int, *, bots: bool = False) -> str:
    """The channel-layer group of a board's live listeners (its people's or its bots')."""
    return f"daily.{date.isoformat()}.{draw}{'.bots' if bots else ''}"


def challenge_is_over(challenge: DailyChallenge, now: dt.datetime) -> bool:
    return now >= challenge.ends_at


def _span(challenge: DailyChallenge, now: dt.datetime) -> ExpressionWrapper[CombinedExpression]:
    """The ranked time: to the end of the game, else now, but never past the end of the day."""
    cap = min(now, challenge.ends_at)
    return ExpressionWrapper(
        Coalesce(F("ended_at"), Value(cap, output_field=DateTimeField())) - F("started_at"),
        output_field=DurationField(),
    )


def ranked_entries(challenge: DailyChallenge, *, bots: bool = False) -> QuerySet[Entry]:
    """The entries a public board ranks: its people's, or its bots' (R34: each population is
    ranked among itself); never the disqualified, nor those held for review (R35), nor the
    provisional (R36). Every board read starts here."""
    return Entry.objects.filter(ON_BOARD, challenge=challenge, bot=bots)


class _Span(TypedDict):
    span: dt.timedelta  # how long the entry took (`_span`)


def _board(
    challenge: DailyChallenge, now: dt.datetime, bots: bool
) -> QuerySet[WithAnnotations[Entry, _Span]]:
    return ranked_entries(challenge, bots=bots).annotate(span=_span(challenge, now))


def _entry_dict(
    rank: int | None,
    username: str,
    score: int,
    moves: int,
    span: dt.timedelta,
    status: str,
    game_id: Any,
    bot: bool,
    home: int,
    provisional: bool,
) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": username,
        "score": score,
        "moves": moves,
        "seconds": round(span.total_seconds(), 3),
        "status": status,
        "game": str(game_id),
        "bot": bot,
        "home": home,
        "provisional": provisional,
    }


T = TypeVar("T")


Ranking = boards.RedisBoards | boards.LocalBoards | boards.RankingStandIn


def _from_ranking(
    challenge: DailyChallenge, bots: bool, read: Callable[[Ranking, int], T | None]
) -> T | None:
    """A read of the board's ranking in Redis (`read` given the store and the board's id); if
    Redis has none, a small board's is built first, a big board's is built in the background
    and meanwhile `read` is given its stand-in (boards.ranking_stand_in); None where there is
    none to read (the embedded mode, Redis unreachable, a build under way elsewhere)."""
    board = boards.board_id(challenge.pk, bots=bots)
    try:
        return read(boards.store(), board)
    except boards.NotReady:
        stand_in = boards.ranking_stand_in(challenge, bots=bots)
        if stand_in is not None:
            return read(stand_in, board)
    try:
        return read(boards.store(), board)
    except boards.NotReady:
        return None


def _ahead(
    challenge: DailyChallenge,
    figures: list[tuple[int, int]],
    bots: bool,
    read: dict[str, tuple[int, int] | None],
) -> list[int]:
    """For each (score, moves): how many ranked entries have a better score, or the same score
    and fewer moves; the games of `read` counted by the figures the caller read in the database
    (None: off the board), not by the ranking's, which may be older (its writers merge into it
    after their commits): an entry is never counted ahead of itself by its own stale figures."""
    keys = [boards.rank_key(score, moves) for score, moves in figures]
    read_keys = {
        game: None if game_figures is None else boards.rank_key(*game_figures)
        for game, game_figures in read.items()
    }
    counted = _from_ranking(
        challenge, bots, lambda ranking, board: ranking.ranked_before(board, keys, read_keys)
    )
    if counted is not None:
        return counted
    ranked = ranked_entries(challenge, bots=bots)
    return [
        ranked.filter(score__gt=score).count() + ranked.filter(score=score, moves__lt=moves).count()
        for score, moves in figures
    ]


def board_count(*, challenge: DailyChallenge, bots: bool = False) -> int:
    counted = _from_ranking(challenge, bots, lambda ranking, board: ranking.ranked_count(board))
    return ranked_entries(challenge, bots=bots).count() if counted is None else counted


def board_page(
    *,
    challenge: DailyChallenge,
    page: int,
    now: dt.datetime,
    size: int = PAGE_SIZE,
    bots: bool = False,
) -> list[dict[str, Any]]:
    """The entries ranked (page - 1) * size + 1 onwards, as docs/api.md's ENTRY."""
    offset = (page - 1) * size
    board = _board(challenge, now, bots).order_by(*BOARD_ORDER).values_list(*ENTRY_FIELDS)
    found = None
    if offset:
        found = _from_ranking(
            challenge, bots, lambda ranking, board: ranking.ranked_at(board, offset)
        )
    if found is None:
        # Page 1, or no ranking to count with: the database skips `offset` rows along the index.
        rows = list(board[offset : offset + size])
    elif not found:
        return []
    else:
        # The ranking names the (score, moves) group of the page's first row and how many rank
        # ahead of that group; the page is the rest of that group (sorted by time), then on.
        key, ahead = found
        score, moves = boards.key_figures(key)
        skip = offset - ahead
        # Two index ranges, the rest of this score and then the lower scores (one query with
        # an OR would read the skipped part of the score too).
        rows = list(board.filter(score=score, moves__gte=moves)[skip : skip + size])
        if len(rows) < size:
            rows += board.filter(score__lt=score)[: size - len(rows)]
    return [_entry_dict(offset + i + 1, *row) for i, row in enumerate(rows)]


def provisional_entries(challenge: DailyChallenge, *, bots: bool = False) -> QuerySet[Entry]:
    """R36: the board's provisional entries (its population's, R34), apart from its ranks:
    never the disqualified nor those held for review (R35)."""
    return Entry.objects.filter(
        challenge=challenge, bot=bots, provisional=True, disqualified=False
    ).exclude(review=HELD)


def provisional_count(*, challenge: DailyChallenge, bots: bool = False) -> int:
    return provisional_entries(challenge, bots=bots).count()


def provisional_page(
    *,
    challenge: DailyChallenge,
    page: int,
    now: dt.datetime,
    size: int = PAGE_SIZE,
    bots: bool = False,
) -> list[dict[str, Any]]:
    """The board's provisional entries (page - 1) * size + 1 onwards, as ENTRY with `rank`
    null (never ranked), in the board's order. Few (an account is provisional for its first
    day or so), so read from the database, never from the ranking."""
    offset = (page - 1) * size
    rows = (
        provisional_entries(challenge, bots=bots)
        .annotate(span=_span(challenge, now))
        .order_by(*BOARD_ORDER)
        .values_list(*ENTRY_FIELDS)[offset : offset + size]
    )
    return [_entry_dict(None, *row) for row in rows]


def _span_of(entry: Entry, now: dt.datetime) -> dt.timedelta:
    """`_span` of one loaded entry, in Python."""
    return (entry.ended_at or min(now, entry.challenge.ends_at)) - entry.started_at


def entry_rank(*, entry: Entry, now: dt.datetime) -> int:
    """The entry's position on its whole board (its population's: R34) (1 = first), ties
    broken as the board does."""
    challenge = entry.challenge
    figures = (entry.score, entry.moves)
    ahead = _ahead(challenge, [figures], entry.bot, {str(entry.game_id): figures})[0]
    span = _span_of(entry, now)
    # Within its (score, moves) group: the group's few rows, by time and arrival.
    ahead_in_group = (
        _board(challenge, now, entry.bot)
        .filter(score=entry.score, moves=entry.moves)
        .filter(
            Q(span__lt=span)
            | Q(span=span, reached_at__lt=entry.reached_at)
            | Q(span=span, reached_at=entry.reached_at, pk__lt=entry.pk)
        )
        .count()
    )
    return ahead + ahead_in_group + 1


def game_standing(*, game: Game, now: dt.datetime) -> dict[str, Any] | None:
    """A finished daily game's place on its board (`rank` of `players`) and its fair-play
    `review` (R35: null, "held", "cleared"), for its end screen; only the review while held;
    None while it is in progress, or once disqualified."""
    if game.challenge_id is None or game.status == Game.Status.PLAYING:
        return None
    entry = Entry.objects.filter(game=game, disqualified=False).select_related("challenge").first()
    if entry is None:
        return None
    if entry.review == HELD:
        return {"review": HELD}
    if entry.provisional:  # R36: listed apart, never ranked
        return {"provisional": True, "review": entry.review}
    return {
        "rank": entry_rank(entry=entry, now=now),
        "players": board_count(challenge=entry.challenge, bots=entry.bot),
        "review": entry.review,
    }


def board_changes(
    *, challenge: DailyChallenge, games: list[str], now: dt.datetime, bots: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """A live batch: (ENTRY of each of these games still on the board, by rank; the players of
    those disqualified or held). A handful of queries whatever the number of games: one for the
    games' entries, one count per (score, moves) in Redis (or the database), one for their
    groups."""
    rows = list(
        # (R36: a provisional entry is in no batch: never ranked, never taken off a ranking)
        Entry.objects.filter(challenge=challenge, game_id__in=games, provisional=False)
        .annotate(span=_span(challenge, now))
        .values_list(
            "id", "player__username", "score", "moves", "span", "status", "game_id",
            "bot", "home", "provisional", "reached_at", "disqualified", "review",
        )
    )  # fmt: skip
    off = [row[-2] or row[-1] == HELD for row in rows]
    removed = [row[1] for row, gone in zip(rows, off, strict=True) if gone]
    ranked = [row for row, gone in zip(rows, off, strict=True) if not gone]
    groups = sorted({(row[2], row[3]) for row in ranked})
    if not groups:
        return [], removed
    read = {
        str(row[6]): None if gone else (row[2], row[3]) for row, gone in zip(rows, off, strict=True)
    }
    ahead = dict(zip(groups, _ahead(challenge, groups, bots, read), strict=True))
    in_group = Q()
    for score, moves in groups:
        in_group |= Q(score=score, moves=moves)
    members: dict[tuple[int, int], list[tuple[dt.timedelta, dt.datetime, int]]] = defaultdict(list)
    for pk, score, moves, span, reached in (
        _board(challenge, now, bots)
        .filter(in_group)
        .values_list("id", "score", "moves", "span", "reached_at")
    ):
        members[(score, moves)].append((span, reached, pk))
    for group in members.values():
        group.sort()
    entries = [
        _entry_dict(
            ahead[(score, moves)] + bisect_left(members[(score, moves)], (span, reached, pk)) + 1,
            name,
            score,
            moves,
            span,
            status,
            game,
            bot,
            home,
            provisional,
        )  # fmt: skip
        for pk, name, score, moves, span, status, game, bot, home, provisional, *_ in ranked
    ]
    return sorted(entries, key=lambda entry: entry["rank"]), removed


def challenge_find(*, date: dt.date, draw: int) -> DailyChallenge | None:
    return DailyChallenge.objects.filter(date=date, draw=draw).first()


def daily_info(*, date: dt.date, now: dt.datetime) -> dict[str, Any]:
    """docs/api.md's daily info: the day's boards, their player counts, and the codes once over."""
    challenges = list(DailyChallenge.objects.filter(date=date).order_by("-draw"))
    if not challenges:
        raise NotFound(_("There is no daily challenge on %(date)s.") % {"date": date.isoformat()})
    ends_at = challenges[0].ends_at
    return {
        "date": date.isoformat(),
        "ends_at": ends_at.isoformat().replace("+00:00", "Z"),
        "boards": [
            _board_info(
                challenge,
                now,
                players=board_count(challenge=challenge),
                bots=board_count(challenge=challenge, bots=True),
            )
            for challenge in challenges
        ],
    }


def _board_info(
    challenge: DailyChallenge, now: dt.datetime, *, players: int, bots: int
) -> dict[str, Any]:
    """One board of docs/api.md's daily info: the code and par only once its day is over."""
    return {
        "draw": challenge.draw,
        "players": players,
        "bots": bots,
        "code": _revealed_code(challenge, now),
        "par": challenge_par(challenge, now),
    }


def daily_month(*, month: dt.date, now: dt.datetime) -> dict[str, Any]:
    """docs/api.md's month of dailies (the archive): the days of `month` up to today that have
    a challenge, oldest first, each as `daily_info` (a code and par once the day is over, so
    never today's), with the nearest months before and after that have one (`previous`,
    `next`: "YYYY-MM", null when none). Three queries whatever the number of days (the
    boards' counts are the database's, as `board_count` without Redis)."""
    today = day_today(now)
    after = month_next(month)
    challenges = list(
        DailyChallenge.objects.filter(date__gte=month, date__lt=after, date__lte=today).order_by(
            "date", "-draw"
        )
    )
    counts = {
        (challenge, bot): count
        for challenge, bot, count in Entry.objects.filter(ON_BOARD, challenge__in=challenges)
        .order_by()
        .values_list("challenge", "bot")
        .annotate(count=Count("id"))
    }
    around = DailyChallenge.objects.aggregate(
        before=Max("date", filter=Q(date__lt=month)),
        later=Min("date", filter=Q(date__gte=after, date__lte=today)),
    )
    days = []
    for date, of_day in groupby(challenges, key=lambda challenge: challenge.date):
        boards_of_day = list(of_day)
        days.append(
            {
                "date": date.isoformat(),
                "ends_at": boards_of_day[0].ends_at.isoformat().replace("+00:00", "Z"),
                "boards": [
                    _board_info(
                        challenge,
                        now,
                        players=counts.get((challenge.pk, False), 0),
                        bots=counts.get((challenge.pk, True), 0),
                    )
                    for challenge in boards_of_day
                ],
            }
        )
    return {
        "month": month.strftime("%Y-%m"),
        "previous": None if around["before"] is None else around["before"].strftime("%Y-%m"),
        "next": None if around["later"] is None else around["later"].strftime("%Y-%m"),
        "days": days,
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
    """docs/api.md's player figures, of the games that count (games.selectors.games_counted):
    random and daily games that are over, played without a hint, with a move made, and not left
    idle. Practice games (dealt from a code or a deck the player chose, R19) are left out,
    since their cards are known in advance, and so are games that asked the solver (R30).
    Guests have no player page: NotFound."""
    player = player_find(username=username)
    won = Q(status=Game.Status.WON)
    figures = games_counted(Game.objects.filter(owner=player)).aggregate(
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
        "bot": player_is_bot(user=player),
        "games": figures["games"],
        "wins": figures["wins"],
        "best_score": figures["best_score"],
        "best_win_seconds": None if best is None else round(best.total_seconds(), 3),
        "best_win_moves": figures["best_win_moves"],
        "daily_streak": player_streak(player=player, now=now).current,
    }


def player_find(*, username: str) -> Any:
    """The player of a name, without regard to case (docs/api.md: /players/ALICE is alice; an
    exact match first, for the few names made before that rule that differ only in case).
    Guests have no player page: NotFound."""
    users = get_user_model().objects.exclude(player__guest=True)
    player = users.filter(username=username).first()
    if player is None:
        player = users.filter(username__iexact=username).order_by("id").first()
    if player is None:
        raise NotFound(_("No such player."))
    return player


@dataclass(frozen=True)
class Streak:
    """Consecutive days with a finished ranked daily: the run that is still alive (`current`,
    0 if none) and the longest ever (`best`)."""

    current: int
    best: int


def finished_dailies(*, player: Any) -> QuerySet[Entry]:
    """The player's finished ranked dailies: won, or ended by the player, before their day
    ended (`ended_at`; a game the day's end stopped does not count), and on the boards' terms
    (neither disqualified nor held for review, R35)."""
    return Entry.objects.filter(player=player, ended_at__isnull=False, disqualified=False).exclude(
        review=HELD
    )


def streak_of(days: Iterable[dt.date], today: dt.date) -> Streak:
    """The streak of the days (dates of the daily time zone, games.days) with a finished
    ranked daily. The current run ends today, or yesterday: it is alive until today is over."""
    best = run = 0
    last: dt.date | None = None
    for day in sorted(set(days)):
        run = run + 1 if last is not None and (day - last).days == 1 else 1
        best = max(best, run)
        last = day
    alive = last is not None and (today - last).days <= 1
    return Streak(current=run if alive else 0, best=best)


def player_streak(*, player: Any, now: dt.datetime | None = None) -> Streak:
    """The player's daily streak (current and best) at `now` (default: now): one query."""
    days = finished_dailies(player=player).order_by().values_list("challenge__date", flat=True)
    return streak_of(days.distinct(), day_today(now))


# The player page's history: the heat map's days and the charts' weeks.
HEAT_DAYS = 365
CHART_WEEKS = 26


def player_history_stats(*, player: Any, now: dt.datetime) -> dict[str, Any]:
    """docs/api.md's `players/{username}/stats`: the streak (`player_streak`); `days`, the days
    of the last HEAT_DAYS (daily time zone) with finished ranked dailies, how many `played`
    and `won` (days without are left out); `weeks`, the last CHART_WEEKS weeks (Monday first,
    oldest first, every week) of the games that count (`games_counted`, by when they ended):
    `games`, `wins`, `win_rate` (whole percent, null without a game); `par`, the won dailies
    of the last HEAT_DAYS whose day is over and has a par (R31): `moves`, `par` and `over`
    (moves - par). Two queries."""
    today = day_today(now)
    since = today - dt.timedelta(days=HEAT_DAYS - 1)
    rows = list(
        finished_dailies(player=player)
        .order_by("challenge__date", "-challenge__draw")
        .values_list(
            "challenge__date", "challenge__draw", "status", "moves", "challenge__par",
            "challenge__ends_at",
        )
    )  # fmt: skip
    days: dict[dt.date, dict[str, Any]] = {}
    par = []
    for date, draw, status, moves, day_par, ends_at in rows:
        if date < since:
            continue
        day = days.setdefault(date, {"date": date.isoformat(), "played": 0, "won": 0})
        day["played"] += 1
        day["won"] += status == Game.Status.WON
        if status == Game.Status.WON and day_par is not None and now >= ends_at:
            par.append(
                {"date": date.isoformat(), "draw": draw, "moves": moves, "par": day_par,
                 "over": moves - day_par}
            )  # fmt: skip
    first_week = today - dt.timedelta(days=today.weekday() + 7 * (CHART_WEEKS - 1))
    zone = day_zone()
    counted = {
        row["week"].astimezone(zone).date(): row
        for row in games_counted(Game.objects.filter(owner=player))
        .filter(finished_at__gte=dt.datetime.combine(first_week, dt.time(), tzinfo=zone))
        .annotate(week=TruncWeek("finished_at", tzinfo=zone))
        .order_by()
        .values("week")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(status=Game.Status.WON)))
    }
    weeks = []
    for back in range(CHART_WEEKS):
        week = first_week + dt.timedelta(weeks=back)
        games, wins = (counted[week]["games"], counted[week]["wins"]) if week in counted else (0, 0)
        weeks.append(
            {"week": week.isoformat(), "games": games, "wins": wins,
             "win_rate": round(100 * wins / games) if games else None}
        )  # fmt: skip
    streak = streak_of((row[0] for row in rows), today)
    return {
        "username": player.username,
        "streak": {"current": streak.current, "best": streak.best},
        "days": list(days.values()),
        "weeks": weeks,
        "par": par,
    }


# ---- fair-play review (leaderboard/admin.py) -------------------------------------------------


def _games_sharing(*, address_hash: Any, player: Any, date: Any, deal_code: Any) -> QuerySet[Game]:
    """Other accounts' games dealt from the same address hash that played that day's deals
    (their ranked games of the day) or explored the entry's deal (practice games of it)."""
    return (
        Game.objects.filter(address_hash=address_hash)
        .exclude(address_hash="")
        .exclude(owner=player)
        .filter(Q(challenge__date=date) | Q(challenge__isnull=True, deal_code=deal_code))
    )


class Sharing(TypedDict):
    sharing_accounts: int  # (`entries_with_sharing`)


def entries_with_sharing(*, entries: QuerySet[Entry]) -> QuerySet[WithAnnotations[Entry, Sharing]]:
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
