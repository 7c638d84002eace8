"""Reads for the pages that the REST API does not serve as such (a player's public games, the
frames of a replay)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from games import services
from games.engine import Action as EngineAction
from games.models import Game
from web.strings import action_caption


def game_list_public_for(*, username: str, limit: int = 20) -> QuerySet[Game]:
    """The player's finished games that anyone may see (API.md: not a daily game whose day is
    still running), newest first."""
    return (
        Game.objects.select_related("challenge")
        .filter(owner__username=username)
        .exclude(status=Game.Status.PLAYING)
        .filter(Q(challenge__isnull=True) | Q(challenge__ends_at__lte=timezone.now()))
        .order_by("-created_at")[:limit]
    )


def replay_frames(*, game: Game) -> list[dict[str, Any]]:
    """The table before the first action and after each one, rebuilt from the deal and the log
    by the engine, with the logged action that led to each frame and its caption in words."""
    engine = services.game_engine_new(game)
    frames = [{"action": None, "caption": "", "view": engine.public_view()}]
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


def board_first_rows(*, date: Any, draw: int, bots: bool, page: int) -> dict[str, Any] | None:
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
    status = {"playing": _("Playing"), "won": _("Won"), "resigned": _("Resigned")}
    rows = [
        {
            "rank": offset + index,
            "player": entry["player"],
            "score": entry["score"],
            "moves": entry["moves"],
            "time": _clock(entry["seconds"]),
            "status": status.get(entry["status"], entry["status"]),
        }
        for index, entry in enumerate(
            boards.board_page(challenge=challenge, page=page, now=now, bots=bots), start=1
        )
    ]
    return {"rows": rows, "page": page, "first": page <= 1, "last": count <= page * size}


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

    from leaderboard import selectors as boards
    from leaderboard.days import day_today

    challenge = boards.challenge_find(date=day_today(), draw=draw)
    if challenge is None:
        return None
    count = boards.board_count(challenge=challenge)
    rows = boards.board_page(challenge=challenge, page=1, size=size, now=timezone.now())
    return {
        "players": ngettext("%(count)s player", "%(count)s players", count) % {"count": count},
        "rows": [{**entry, "time": _clock(entry["seconds"])} for entry in rows],
    }
