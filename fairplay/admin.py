"""The staff's queue of held games (R35): the reviews `review_games` held, worst first, with
each signal's score, and the audited actions Clear (the entry returns to the boards) and
Disqualify (it leaves them for good: leaderboard.services.entries_disqualify).

A review's page shows each signal's evidence: the timeline of the game's actions, the matching
game for `identical`, the clairvoyant choices on board diagrams, the linked scouts. As
everywhere in the admin (games.admin), what shows cards is hidden while the daily's day lasts:
the choices' boards show the cards the player saw, which another player's game would see too.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from fairplay import services
from fairplay.models import Review
from games.admin import HIDDEN, secret_now
from games.engine.cards import SUITS
from games.models import Game
from leaderboard.models import Entry

CLEARED = "Cleared by the fair-play review: back on the leaderboards"
DISQUALIFIED = "Disqualified by the fair-play review: removed from the leaderboards"
SIGNALS = ("timing", "identical", "clairvoyance", "scouting", "foresight", "surprise")
SUIT_SIGNS = {"H": "♥", "S": "♠", "D": "♦", "C": "♣"}


class QueueFilter(admin.SimpleListFilter):
    """The state, held (the queue) unless another is chosen."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(state.value, state.label) for state in Review.State] + [("all", "All")]

    def choices(self, changelist: Any) -> Any:
        for value, title in self.lookup_choices:
            yield {
                "selected": (self.value() or Review.State.HELD) == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Review]) -> QuerySet[Review]:
        value = self.value() or Review.State.HELD
        # An entry staff disqualified elsewhere (the board entries' own action) is decided too.
        elsewhere = Q(state=Review.State.HELD, game__entry__disqualified=True)
        if value == Review.State.HELD:
            return queryset.filter(state=value).exclude(elsewhere)
        if value == Review.State.DISQUALIFIED:
            return queryset.filter(Q(state=value) | elsewhere)
        return queryset if value == "all" else queryset.filter(state=value)


class _TimelineRow(TypedDict):
    n: int
    type: str
    seconds: float
    gap: float


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin[Review]):
    list_display = (
        "player", "game_shown", "day", "state", "score_shown", "timing", "identical",
        "clairvoyance", "scouting", "foresight", "surprise", "reviewed_at",
    )  # fmt: skip
    list_display_links = ("player",)  # (the game column links to the game)
    list_filter = (QueueFilter, "game__draw")
    search_fields = ("game__owner__username", "=game__id")
    list_select_related = ("game__owner", "game__challenge")
    ordering = ("-score", "queued_at")
    actions = ("clear", "disqualify")
    # Everything follows from the game and the decisions: only the audited actions change it.
    fields = readonly_fields = (
        "game_shown", "player", "day", "state", "score_shown", "queued_at", "reviewed_at",
        "decided_by", "decided_at", "timeline", "identical_evidence", "clairvoyance_evidence",
        "scouting_evidence", "foresight_evidence", "surprise_evidence", "timing_evidence",
    )  # fmt: skip

    class Media:
        css = {"all": ("fairplay/review.css",)}

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def _entry_log_change(self, request: HttpRequest, entry: Entry, message: str) -> None:
        """The board entry's change in the admin's history (a LogEntry of the Entry, as any
        ModelAdmin of it logs one)."""
        admin.ModelAdmin(Entry, self.admin_site).log_change(request, entry, message)

    @admin.action(description="Clear the selected held games (back on the boards, audited)")
    def clear(self, request: HttpRequest, queryset: QuerySet[Review]) -> None:
        cleared = services.reviews_clear(reviews=queryset, by=request.user)
        for review in cleared:
            self.log_change(request, review, CLEARED)
            self._entry_log_change(request, review.game.entry, CLEARED)
        self.message_user(request, f"{len(cleared)} game(s) cleared.", messages.SUCCESS)

    @admin.action(description="Disqualify the selected held games (audited)")
    def disqualify(self, request: HttpRequest, queryset: QuerySet[Review]) -> None:
        decided = services.reviews_disqualify(reviews=queryset, by=request.user)
        for review in decided:
            self.log_change(request, review, DISQUALIFIED)
            self._entry_log_change(request, review.game.entry, DISQUALIFIED)
        self.message_user(request, f"{len(decided)} game(s) disqualified.", messages.SUCCESS)

    # ---- the list's columns

    @admin.display(description="game")
    def game_shown(self, review: Review) -> SafeString:
        return _game_link(review.game_id)

    @admin.display(description="player", ordering="game__owner__username")
    def player(self, review: Review) -> str:
        return str(review.game.owner.username)

    @admin.display(description="daily", ordering="game__challenge__date")
    def day(self, review: Review) -> str:
        challenge = review.game.challenge
        return "" if challenge is None else f"{challenge.date} draw {challenge.draw}"

    @admin.display(description="score", ordering="score")
    def score_shown(self, review: Review) -> str:
        return "" if review.score is None else f"{review.score:.2f}"

    def _signal_score(self, review: Review, name: str) -> str:
        signal = (review.signals or {}).get(name)
        return "" if signal is None else f"{signal['score']:.2f}"

    @admin.display(description="timing")
    def timing(self, review: Review) -> str:
        return self._signal_score(review, "timing")

    @admin.display(description="identical")
    def identical(self, review: Review) -> str:
        return self._signal_score(review, "identical")

    @admin.display(description="clairvoyance")
    def clairvoyance(self, review: Review) -> str:
        return self._signal_score(review, "clairvoyance")

    @admin.display(description="scouting")
    def scouting(self, review: Review) -> str:
        return self._signal_score(review, "scouting")

    @admin.display(description="foresight")
    def foresight(self, review: Review) -> str:
        return self._signal_score(review, "foresight")

    @admin.display(description="surprise")
    def surprise(self, review: Review) -> str:
        return self._signal_score(review, "surprise")

    # ---- the evidence (the review's page)

    @admin.display(description="timeline of actions")
    def timeline(self, review: Review) -> SafeString:
        game = review.game
        rows: list[_TimelineRow] = []
        previous = 0.0
        for n, kind, at in game.actions.order_by("n").values_list("n", "type", "at"):
            seconds = (at - game.created_at).total_seconds()
            rows.append({"n": n, "type": kind, "seconds": seconds, "gap": seconds - previous})
            previous = seconds
        span = max(previous, 1.0)
        ticks = [{"x": round(4 + 592 * row["seconds"] / span, 1)} for row in rows]
        return render_to_string(
            "fairplay/timeline.html", {"rows": rows, "ticks": ticks, "span": previous}
        )

    @admin.display(description="timing")
    def timing_evidence(self, review: Review) -> SafeString:
        return _evidence(review, "timing")

    @admin.display(description="identical: the matching game")
    def identical_evidence(self, review: Review) -> SafeString:
        signal = (review.signals or {}).get("identical") or {}
        label = (signal.get("evidence") or {}).get("label")
        other = Game.objects.filter(pk=label).select_related("owner").first() if label else None
        return render_to_string(
            "fairplay/identical.html",
            {
                "link": None if other is None else _game_link(other.pk),
                "player": None if other is None else other.owner.username,
                "evidence": _pretty(signal.get("evidence"), leave=("label",)),
                "score": signal.get("score"),
            },
        )

    @admin.display(description="clairvoyance: the choices")
    def clairvoyance_evidence(self, review: Review) -> SafeString:
        signal = (review.signals or {}).get("clairvoyance") or {}
        evidence = signal.get("evidence") or {}
        hidden = secret_now(review.game)
        choices = [] if hidden else [_choice(choice) for choice in evidence.get("choices") or []]
        return render_to_string(
            "fairplay/clairvoyance.html",
            {
                "score": signal.get("score"),
                "hidden": HIDDEN if hidden else None,
                "choices": choices,
                "evidence": _pretty(evidence, leave=("choices",)),
            },
        )

    @admin.display(description="scouting")
    def scouting_evidence(self, review: Review) -> SafeString:
        return _evidence(review, "scouting")

    @admin.display(description="foresight: the scouted cards used before they showed")
    def foresight_evidence(self, review: Review) -> SafeString:
        return _evidence(review, "foresight")

    @admin.display(description="surprise: against the account's own record")
    def surprise_evidence(self, review: Review) -> SafeString:
        return _evidence(review, "surprise")


def _game_link(game_id: object) -> SafeString:
    url = reverse("admin:games_game_change", args=[game_id])
    return render_to_string("fairplay/link.html", {"url": url, "text": str(game_id)})


def _pretty(evidence: object, *, leave: tuple[str, ...] = ()) -> str:
    if isinstance(evidence, dict):
        evidence = {key: value for key, value in evidence.items() if key not in leave}
    return json.dumps(evidence, indent=2, sort_keys=True) if evidence else ""


def _evidence(review: Review, name: str) -> SafeString:
    signal = (review.signals or {}).get(name) or {}
    return render_to_string(
        "fairplay/evidence.html",
        {"score": signal.get("score"), "evidence": _pretty(signal.get("evidence"))},
    )


class CardShown(TypedDict):
    """A card of the board diagram: its rank and suit sign, and whether it is red."""

    text: str
    red: bool


def _card(name: str | None) -> CardShown | None:
    """A card's name for the board diagram: its rank and suit sign, red or black."""
    if not name:
        return None
    suit = name[-1]
    return {"text": name[:-1] + SUIT_SIGNS.get(suit, suit), "red": suit in "HD"}


def _move(move: object) -> str:
    """A move of the evidence (an engine action's dict, or already text) as a short line."""
    if not isinstance(move, dict):
        return "" if move is None else str(move)
    if move.get("type") != "move":
        return str(move.get("type"))
    count = move.get("count")
    return f"{move.get('from')} → {move.get('to')}" + (
        f" ({count} cards)" if count and count > 1 else ""
    )


# A choice is JSON a review stored (fairplay.signals' evidence): its values are untyped, the edge.
def _choice(choice: dict[str, Any]) -> dict[str, Any]:
    """One clairvoyant choice for clairvoyance.html: the board the player saw (the engine's
    `public_view()`) and the chosen, seen-best and true-best moves."""
    view = choice.get("view") or {}
    foundations = [
        {
            "suit": SUIT_SIGNS.get(pile.get("suit"), pile.get("suit")),
            "top": _card(pile.get("top")),
            "count": pile.get("count"),
        }
        for pile in view.get("foundations") or [{"suit": suit} for suit in SUITS]
    ]
    return {
        "n": choice.get("n"),
        "foundations": foundations,
        "reserve": {
            "top": _card((view.get("reserve") or {}).get("top")),
            "count": (view.get("reserve") or {}).get("count"),
        },
        "stock": (view.get("stock") or {}).get("count"),
        "waste": [_card(card) for card in (view.get("waste") or {}).get("fan") or []],
        "tableau": [[_card(card) for card in column] for column in view.get("tableau") or []],
        "chosen": _move(choice.get("chosen")),
        "seen": _move(choice.get("seen")),
        "true": _move(choice.get("true")),
        "share": choice.get("share"),
    }
