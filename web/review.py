"""The review page's reads (R37): a finished game's analysis as the replay page shows it (one
mark per logged action, the turn, the solver's winning line as frames to step through), the
spoiler-free result to share, and the result card (the Open Graph image of a shared link).

Nothing here is shown while the game's deal may not be (R19, games.selectors.game_is_private):
the page then says when its review opens, and the card is not drawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games import services
from games.engine import Action as EngineAction
from games.models import Analysis, Game
from games.selectors import game_is_private
from leaderboard.selectors import player_streak
from web.strings import action_caption

# The emoji strip of a shared result: at most this many squares, each the verdict at the end
# of its stretch of the kept line.
STRIP_SQUARES = 16
SQUARE = {True: "🟩", False: "🟥", None: "⬜"}
# How long a browser or a link preview may keep a result card: a day once the analysis is in
# it, a few minutes while it is computed (the card then has no strip yet).
CARD_SECONDS_DONE = 86400
CARD_SECONDS_PENDING = 300


# A verdict as the page names it (its marks' classes).
MARK = {True: "win", False: "lost", None: "open"}


def action_marks(*, types: list[str], numbers: list[int], result: dict[str, Any]) -> list[str]:
    """One mark per logged action (`types` and `numbers`, the log in order): the analysis's
    verdict on the position that action left ("win" winnable, "lost", "open" undecided), or
    "undone" for a position off the kept line (its actions were taken back later: not
    analysed). An undo takes back the latest action still kept (R24), as games.analysis does;
    the actions that no undo took back are always below the others, so a position is on the kept
    line when the latest action still in force is a kept one."""
    kept = set(result["kept"])
    winnable = result["winnable"]
    held: list[int] = []  # the actions in force: kept ones, then ones an undo takes back later
    marks: list[str] = []
    for kind, n in zip(types, numbers, strict=True):
        if kind == "undo":
            held.pop()
        elif kind != "resign":
            held.append(n)
        on_line = not held or held[-1] in kept
        depth = len(held)
        marks.append(MARK[winnable[depth]] if on_line and depth < len(winnable) else "undone")
    return marks


class MarkRun(TypedDict):
    """A stretch of one mark: its `first` and `last` action (n, from 1)."""

    first: int
    last: int
    mark: str


def mark_runs(marks: list[str]) -> list[MarkRun]:
    """The marks as stretches of one kind (the strip's text alternative): `first` and `last`
    action (n, from 1) and `mark`."""
    runs: list[MarkRun] = []
    for n, mark in enumerate(marks, start=1):
        if runs and runs[-1]["mark"] == mark:
            runs[-1]["last"] = n
        else:
            runs.append({"first": n, "last": n, "mark": mark})
    return runs


class Frame(TypedDict):
    """A replay frame: the table (the engine's public view) and what the action did, in words."""

    caption: str
    view: Mapping[str, object]


def ghost_frames(*, game: Game, after: int, actions: list[dict[str, Any]]) -> list[Frame]:
    """The solver's winning line as replay frames: the table after the logged action `after`
    (0: the deal), then after each of the line's `actions` (docs/api.md ACTION objects)."""
    engine = services.game_engine_new(game)
    for row in game.actions.filter(n__lte=after).order_by("n"):
        engine.apply(EngineAction.from_dict(services.logged_action(row)))
    frames: list[Frame] = [{"caption": "", "view": engine.public_view()}]
    for action in actions:
        done = engine.apply(EngineAction.from_dict(action))
        caption = action_caption(
            type=done.type, from_pile=done.src, to_pile=done.dst, cards=done.cards or []
        )
        frames.append({"caption": caption, "view": engine.public_view()})
    return frames


def review_for(game: Game) -> dict[str, Any]:
    """What the review part of the replay page shows: `state` "hidden" (the deal may not be
    shown yet, R19: nothing of the analysis is read), "pending" (queued or being computed: the
    page asks the API until it is done) or "done" with `data` (the page's JSON: one verdict per
    logged action, the turn and the ghost frames) and `result` (the stored ANALYSIS)."""
    if game_is_private(game):
        return {"state": "hidden"}
    row = services.game_analysis(game=game)
    if row.status != Analysis.Status.DONE:
        return {"state": "pending", "progress": round(100 * row.progress)}
    result = row.result or {}
    key = f"review:{game.pk}:{row.etag}:{get_language()}"
    cached: tuple[dict[str, Any], str] | None = cache.get(key)
    if cached is None:
        log = list(game.actions.order_by("n").values_list("type", "n"))
        line = result.get("line")
        marks = action_marks(
            types=[kind for kind, _n in log], numbers=[n for _kind, n in log], result=result
        )
        data = {
            "marks": marks,
            "runs": mark_runs(marks),
            "lost_at": result.get("lost_at"),
            "line_after": None if line is None else line["after"],
            "ghost": []
            if line is None
            else ghost_frames(game=game, after=line["after"], actions=line["actions"]),
        }
        html: str = render_to_string(
            "web/_review_analysis.html",
            {
                "game": game,
                "review": {"data": data, "result": result},
                "strip": mark_safe(strip_html(marks)),
            },
        )
        cached = (data, html)
        cache.set(key, cached, settings.GAME_LOG_CACHE_SECONDS)
    data, html = cached
    return {"state": "done", "data": data, "html": mark_safe(html), "result": result}


def strip_html(marks: list[str]) -> str:
    """The strip's marks as HTML. (Each mark is one of MARK's class names: nothing to escape.)
    The analysis part of the page is made once per analysis and language (review_for): a log
    at the cap is 3,000 marks and as many rows of its text, which the template engine would
    take a hundred milliseconds to write at every view of the page."""
    return "".join(
        f'<span class="mark {mark}" data-step="{step}"></span>'
        for step, mark in enumerate(marks, start=1)
    )


def emoji_strip(winnable: list[bool | None]) -> str:
    """The kept line's verdicts (one per position) as at most STRIP_SQUARES squares."""
    count = len(winnable)
    squares = min(STRIP_SQUARES, count)
    return "".join(SQUARE[winnable[(i + 1) * count // squares - 1]] for i in range(squares))


def share_streak(game: Game) -> int | None:
    """The owner's current daily streak (leaderboard.selectors.player_streak) for a shared
    daily result; None (left out) for other games and for no streak."""
    if game.challenge_id is None:
        return None
    return player_streak(player=game.owner).current or None


def share_text(*, game: Game, result: dict[str, Any], streak: int | None, address: str) -> str:
    """The spoiler-free result of a finished game, for a message: the day (a daily), how it
    ended, the par and the streak when there are, the winnability strip and the address of its
    review; never a card nor the deal's code."""
    parts = [
        f"Canfield Club {game.challenge.date.isoformat()}" if game.challenge else "Canfield Club"
    ]
    if game.status == Game.Status.WON:
        parts.append(_("won in %(moves)s") % {"moves": game.moves})
    else:
        parts.append(_cards_home(game))
    if (par := _par(game)) is not None:
        parts.append(_("par %(moves)s") % {"moves": par})
    if streak:
        parts.append(_("streak %(days)s") % {"days": streak})
    lines = [" · ".join(parts)]
    if result.get("winnable"):
        lines.append(emoji_strip(result["winnable"]))
    lines.append(address)
    return "\n".join(lines)


def _cards_home(game: Game) -> str:
    """How far a game not won got, as the replay page says it."""
    home = game.cards_home
    return ngettext("%(home)s of 52 cards home", "%(home)s of 52 cards home", home) % {"home": home}


def _par(game: Game) -> str | None:
    """A daily game's par (R31; its day is over: the caller's check), "≤ N" where the search
    was not exhaustive."""
    challenge = game.challenge
    if challenge is None or challenge.par is None:
        return None
    return str(challenge.par) if challenge.par_exact else f"≤{challenge.par}"


def card_description(game: Game) -> str:
    """The result in words for a link's card (og:description): no card, no deal code."""
    if game.status == Game.Status.WON:
        words = _("Won in %(moves)s moves") % {"moves": game.moves}
    else:
        words = _cards_home(game)
    if (par := _par(game)) is not None:
        words += " · " + _("par %(moves)s") % {"moves": par}
    return words


def card_title(game: Game) -> str:
    """What the game was, for a link's card (after the site's name)."""
    if game.challenge is not None:
        return _("Daily %(date)s") % {"date": game.challenge.date.isoformat()}
    return _("A game of Canfield")


def result_card(game: Game) -> tuple[bytes, int]:
    """The result card of a finished game whose deal may be shown (the caller's check): a
    1200x630 PNG with the title, the result and the winnability strip (no card), and how long
    it may be kept (seconds). Drawn once per game, analysis and language, then cached."""
    row = Analysis.objects.filter(pk=game.pk, status=Analysis.Status.DONE).first()
    key = f"result-card:{game.pk}:{game.status}:{row.etag if row else ''}:{get_language()}"
    png: bytes | None = cache.get(key)
    if png is None:
        winnable = (row.result or {}).get("winnable", []) if row is not None else []
        width = 1040 / max(1, len(winnable))
        marks = [
            {"x": 80 + i * width, "width": width + 0.5, "verdict": verdict}
            for i, verdict in enumerate(winnable)
        ]
        svg = render_to_string(
            "web/result_card.svg",
            {
                "title": card_title(game),
                "description": card_description(game),
                "marks": marks,
                "strip_label": _("Winnable along the game"),
                "draw": game.draw,
            },
        )
        # Imported here: cairosvg loads cairo through cffi (~0.3 CPU-seconds), which every
        # process that loads the URLs (each server worker, each manage.py command) paid at its
        # start for the few that draw a card.
        import cairosvg

        png = cairosvg.svg2png(bytestring=svg.encode())
        cache.set(key, png, CARD_SECONDS_DONE)
    return png, CARD_SECONDS_DONE if row is not None else CARD_SECONDS_PENDING
