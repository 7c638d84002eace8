"""Reads for the pages that the REST API does not serve as such (a player's page: figures,
dailies and history; the frames of a replay)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import Count, DurationField, ExpressionWrapper, F, Max, Min, Q, QuerySet
from django.utils import timezone
from django.utils.html import json_script
from django.utils.translation import get_language

from games import services
from games.days import day_today
from games.engine import Action as EngineAction
from games.engine import Game as EngineGame
from games.models import Game
from games.selectors import games_counted
from leaderboard.models import Entry
from web.strings import action_caption

CALENDAR_DAYS = 30
WEEK_DAYS = 7
HISTORY_PAGE_SIZE = 20


class DailyRow(TypedDict):
    """One of the player's daily games on their page (`player_dailies`)."""

    date: dt.date
    draw: int
    status: str
    end_reason: str | None
    score: int
    moves: int
    seconds: float
    game: uuid.UUID
    home: int
    playing: bool
    open: bool
    today: bool


class DailyCell(TypedDict):
    """A day's daily of one draw mode in the calendar (`daily_calendar`): None if not played."""

    draw: int
    daily: DailyRow | None


class CalendarDay(TypedDict):
    date: dt.date
    today: bool
    cells: list[DailyCell]
    played: int
    won: int


def player_history(*, player: User, viewer: User | AnonymousUser) -> QuerySet[Game]:
    """The player's games for the history on their page, newest first: all of them for the
    player themselves (in progress too), else those anyone may see (docs/api.md: finished, and not
    a daily game whose day is still running)."""
    games = Game.objects.select_related("challenge").filter(owner=player)
    if getattr(viewer, "pk", None) != player.pk:
        games = games.exclude(status=Game.Status.PLAYING).filter(
            Q(challenge__isnull=True) | Q(challenge__ends_at__lte=timezone.now())
        )
    return games.order_by("-created_at")


def cards_home(game: Game) -> int:
    """How many cards the game has on its foundations (0..52)."""
    view = EngineGame.from_dict(game.state).public_view()
    return sum(int(foundation["count"]) for foundation in view["foundations"])


def player_figures(*, player: User) -> list[dict[str, Any]]:
    """The player's figures over the games that count (games.selectors.games_counted, as the
    API's `players/{username}`): all games first, then each draw mode (3, then 1), each with
    `games`, `wins`, `win_rate` (whole percent, None without a game), `best_score`,
    `best_win_seconds` and `best_win_moves` (None without a win)."""
    won = Q(status=Game.Status.WON)
    aggregates = {
        "games": Count("id"),
        "wins": Count("id", filter=won),
        "best_score": Max("score"),
        "best_win_span": Min(
            ExpressionWrapper(F("finished_at") - F("created_at"), output_field=DurationField()),
            filter=won,
        ),
        "best_win_moves": Min("moves", filter=won),
    }
    counted = games_counted(Game.objects.filter(owner=player))
    rows: list[dict[str, Any]] = [{"draw": None, **counted.aggregate(**aggregates)}]
    by_draw = {row["draw"]: row for row in counted.values("draw").annotate(**aggregates)}
    for draw in (3, 1):
        found = by_draw.get(draw)
        rows.append({"draw": draw, "games": 0, "wins": 0} if found is None else {**found})
    for row in rows:
        span = row.pop("best_win_span", None)
        row["best_win_seconds"] = None if span is None else span.total_seconds()
        row.setdefault("best_score", None)
        row.setdefault("best_win_moves", None)
        row["win_rate"] = round(100 * row["wins"] / row["games"]) if row["games"] else None
    return rows


def _entry_seconds(entry: Entry, now: dt.datetime) -> float:
    end = entry.ended_at or min(now, entry.challenge.ends_at)
    return max(0.0, (end - entry.started_at).total_seconds())


def player_dailies(
    *, player: User, viewer: User | AnonymousUser, now: dt.datetime
) -> list[DailyRow]:
    """The player's daily games of the last CALENDAR_DAYS days (older ones are in the history),
    newest day first, as the boards show them: today's too, with
    their live figures (the boards list games in progress); to others, without the entries
    that are off the boards (disqualified, or held for review, R35). Each has `date`, `draw`,
    `status` ("playing", "won", "resigned"), `end_reason`, `score`, `moves`, `seconds`, `game`
    (its id) and `open`: whether the viewer may open the game (its owner always: to play it
    on, or as a replay; others once its day is over)."""
    own = getattr(viewer, "pk", None) == player.pk
    since = day_today(now) - dt.timedelta(days=CALENDAR_DAYS - 1)
    entries = Entry.objects.select_related("challenge", "game").filter(
        player=player, challenge__date__gte=since
    )
    if not own:
        entries = entries.filter(disqualified=False).exclude(review="held")
    rows: list[DailyRow] = []
    for entry in entries.order_by("-challenge__date", "-challenge__draw"):
        over = now >= entry.challenge.ends_at
        rows.append(
            {
                "date": entry.challenge.date,
                "draw": entry.challenge.draw,
                "status": entry.status,
                "end_reason": entry.game.end_reason,
                "score": entry.score,
                "moves": entry.moves,
                "seconds": _entry_seconds(entry, now),
                "game": entry.game_id,
                "home": cards_home(entry.game),
                "playing": entry.game.status == Game.Status.PLAYING,
                "open": own or over,
                "today": not over,
            }
        )
    return rows


def daily_calendar(*, dailies: list[DailyRow], now: dt.datetime) -> list[CalendarDay]:
    """The last CALENDAR_DAYS days up to today, oldest first, each with the player's daily of
    draw mode that day (`cells`: [{"draw": 3, "daily": row or None}, {"draw": 1, ...}], rows
    of `player_dailies`), `played` and `won`: how many."""
    today = day_today(now)
    by_day = {(row["date"], row["draw"]): row for row in dailies}
    days: list[CalendarDay] = []
    for back in range(CALENDAR_DAYS - 1, -1, -1):
        date = today - dt.timedelta(days=back)
        cells: list[DailyCell] = [
            {"draw": draw, "daily": by_day.get((date, draw))} for draw in (3, 1)
        ]
        played = [cell["daily"] for cell in cells if cell["daily"] is not None]
        days.append(
            {
                "date": date,
                "today": back == 0,
                "cells": cells,
                "played": len(played),
                "won": sum(daily["status"] == "won" for daily in played),
            }
        )
    return days


# The logged action that led to a replay frame (`from` is a Python keyword: the call form).
ReplayAction = TypedDict(
    "ReplayAction",
    {"n": int, "type": str, "from": str | None, "to": str | None, "cards": list[str] | None},
)


class ReplayFrame(TypedDict):
    """A table of the replay (the engine's public view), the action that led to it, in words."""

    action: ReplayAction | None
    caption: str
    view: Mapping[str, object]


def replay_frames(*, game: Game) -> list[ReplayFrame]:
    """The table before the first action and after each one, rebuilt from the deal and the log
    by the engine, with the logged action that led to each frame and its caption in words."""
    engine = services.game_engine_new(game)
    frames: list[ReplayFrame] = [{"action": None, "caption": "", "view": engine.public_view()}]
    for row in game.actions.order_by("n"):
        engine.apply(EngineAction.from_dict(services.logged_action(row)))
        frames.append(
            {
                "action": {
                    "n": row.n,
                    "type": row.type,
                    "from": row.from_pile,
                    "to": row.to_pile,
                    "cards": row.cards,
                },
                "caption": action_caption(
                    type=row.type, from_pile=row.from_pile, to_pile=row.to_pile, cards=row.cards
                ),
                "view": engine.public_view(),
            }
        )
    return frames


def replay_frames_script(*, game: Game) -> bytes:
    """`replay_frames` as the replay page's `<script id="frames" type="application/json">`,
    encoded, made once per game, action count and language, then served from the cache (Redis
    in production) for GAME_LOG_CACHE_SECONDS: a long game's replay costs a cache read, not a
    rebuild of every frame and megabytes of JSON (a log only grows: a new action, a new key)."""
    key = f"replay-script:{game.pk}:{game.actions_count}:{get_language()}"
    script: bytes | None = cache.get(key)
    if script is None:
        script = json_script(replay_frames(game=game), "frames").encode()
        cache.set(key, script, settings.GAME_LOG_CACHE_SECONDS)
    return script


class BoardRow(TypedDict):
    """A board's row as the pages word it (leaderboard.js, home.js)."""

    rank: int | None
    player: str
    score: int
    moves: int
    time: str
    status: str


class BoardFirstRows(TypedDict):
    """A board's page as the board page first shows it (`board_first_rows`)."""

    rows: list[BoardRow]
    provisional: list[BoardRow]
    page: int
    first: bool
    last: bool


def board_first_rows(*, date: dt.date, draw: int, bots: bool, page: int) -> BoardFirstRows | None:
    """A board's page as the board page first shows it (the rows the API's page has, worded as
    web/static/web/leaderboard.js words them), so that the page does not shift when its script
    puts the same rows in; None for a day without that challenge (the script says so)."""
    from django.utils.translation import gettext as _

    from leaderboard import selectors as boards

    challenge = boards.challenge_find(date=date, draw=draw)
    if challenge is None:
        return None
    now = timezone.now()
    count = boards.board_count(challenge=challenge, bots=bots)
    size = boards.PAGE_SIZE
    page = max(1, page)
    offset = (page - 1) * size
    status = {"playing": _("Playing"), "won": _("Won"), "resigned": _("Ended")}

    def worded(entry: dict[str, Any]) -> str:
        # A game ended without a win says how far it got, never "resigned" (leaderboard.js).
        state: str = entry["status"]
        if state == "resigned" and entry.get("home") is not None:
            return _("%(home)s of 52 cards home") % {"home": entry["home"]}
        return status.get(state, state)

    def row(entry: dict[str, Any], rank: int | None) -> BoardRow:
        return {
            "rank": rank,
            "player": entry["player"],
            "score": entry["score"],
            "moves": entry["moves"],
            "time": _clock(entry["seconds"]),
            "status": worded(entry),
        }

    ranked = boards.board_page(challenge=challenge, page=page, now=now, bots=bots)
    # R36: the provisional entries' first page, apart from the ranks (leaderboard.js reads it
    # again when the board is shown).
    provisional = boards.provisional_page(challenge=challenge, page=1, now=now, bots=bots)
    return {
        "rows": [row(entry, offset + index) for index, entry in enumerate(ranked, start=1)],
        "provisional": [row(entry, None) for entry in provisional],
        "page": page,
        "first": page <= 1,
        "last": count <= page * size,
    }


def _clock(seconds: float) -> str:
    """Seconds as the pages show them (api.js formatSeconds): 0:07, 12:30, 1:02:03."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, second = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{second:02d}"
    return f"{minutes}:{second:02d}"


def board_top(*, draw: int, size: int = 10) -> dict[str, Any] | None:
    """Today's board of people as the home page first shows it: its player count (worded) and
    its first `size` rows, as web/static/web/home.js words them; None before today's challenge
    exists (the script fills the board in)."""
    from django.utils.translation import ngettext

    from games.days import day_today
    from leaderboard import selectors as boards

    challenge = boards.challenge_find(date=day_today(), draw=draw)
    if challenge is None:
        return None
    count = boards.board_count(challenge=challenge)
    rows = boards.board_page(challenge=challenge, page=1, size=size, now=timezone.now())
    return {
        "players": ngettext("%(count)s player", "%(count)s players", count) % {"count": count},
        "rows": [{**entry, "time": _clock(entry["seconds"])} for entry in rows],
    }


def archive_month(*, month: dt.date, viewer: Any, now: dt.datetime) -> dict[str, Any]:
    """The archive page's month (`/daily/?month=`): leaderboard.selectors.daily_month's days
    laid out in weeks, Monday first (`weeks`: lists of 7 cells, None outside the month, else
    `date`, `today`, `future` and `daily`: the API's day or None), the past days newest first
    (`past`), each board with the viewer's own game of it (`game`, or None) and each day with
    `mine` (the viewer played it), and the months to go to (`previous`, `next`: first days,
    None where there is none)."""
    from games.days import month_next, month_previous
    from leaderboard import selectors as boards

    listed = boards.daily_month(month=month, now=now)
    today = day_today(now)
    after = month_next(month)
    mine: dict[tuple[str, int], uuid.UUID | None] = {}
    if getattr(viewer, "pk", None) is not None:
        mine = {
            (date.isoformat(), draw): game
            for date, draw, game in Entry.objects.filter(
                player=viewer, challenge__date__gte=month, challenge__date__lt=after
            ).values_list("challenge__date", "challenge__draw", "game_id")
        }
    days = {}
    for daily in listed["days"]:
        for board in daily["boards"]:
            board["game"] = mine.get((daily["date"], board["draw"]))
        daily["mine"] = any(board["game"] is not None for board in daily["boards"])
        days[daily["date"]] = daily
    first = month - dt.timedelta(days=month.weekday())
    cells: list[dict[str, Any] | None] = []
    date = first
    while date < after or len(cells) % WEEK_DAYS:
        in_month = month <= date < after
        cells.append(
            {
                "date": date,
                "today": date == today,
                "future": date > today,
                "daily": days.get(date.isoformat()),
            }
            if in_month
            else None
        )
        date += dt.timedelta(days=1)
    return {
        "month": month,
        "weeks": [cells[start : start + WEEK_DAYS] for start in range(0, len(cells), WEEK_DAYS)],
        "past": [daily for daily in reversed(listed["days"]) if daily["date"] != today.isoformat()],
        "previous": None if listed["previous"] is None else month_previous(month),
        "next": None if after > today else after,
    }
