"""Admin for games, their action logs and the daily challenges. The log is evidence: it is
read-only here.

Fair play holds for staff too: while a ranked daily's day lasts, its games' deal code, deck,
state and the cards in their logs are hidden here (another player's log shows the cards drawn
from the same stock), as they are everywhere else. They show once the day has ended.
"""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from games.models import Action, DailyChallenge, Game
from games.seats import SEAT_MATCH, game_seat

HIDDEN = "(hidden until the daily's day ends or the match is finished)"


def secret_now(game: Game) -> bool:
    """True while the game is on a daily challenge whose day has not ended, or in a match still
    open (R32: its deal is the other players' too)."""
    challenge = game.challenge  # None, with no query, when challenge_id is
    if challenge is not None:
        return challenge.ends_at > timezone.now()
    seat = game_seat(game)
    return seat is not None and bool(seat.match.status == "open")


class ReadOnlyMixin:
    """Shows rows and never changes them: only the game's own service writes them."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ActionCardsMixin(ReadOnlyMixin):
    """The cards an action moved, hidden while its game's daily lasts (see the module doc)."""

    @admin.display(description="cards")
    def cards_shown(self, action: Action) -> Any:
        return HIDDEN if secret_now(action.game) else action.cards

    @admin.display(description="auto finish")
    def auto_finish_shown(self, action: Action) -> Any:
        return HIDDEN if secret_now(action.game) else action.auto_finish


class ActionInline(ActionCardsMixin, admin.TabularInline[Action, Game]):
    model = Action
    fields = (
        "n", "type", "from_pile", "to_pile", "count", "cards_shown", "score_delta", "undoes", "at",
    )  # fmt: skip
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("id", "owner", "ruleset", "draw", "status", "score", "moves", "created_at")
    list_filter = ("status", "ruleset", "draw")
    search_fields = ("=id", "owner__username")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    raw_id_fields = ("owner", "challenge")
    # A game's figures and state follow from its log: editing them would break verify_games.
    fields = readonly_fields = (
        "id", "owner", "ruleset", "draw", "deal_code_shown", "deck_shown", "practice", "challenge",
        "status", "score", "moves", "actions_count", "state_shown", "created_at", "finished_at",
    )  # fmt: skip
    inlines = (ActionInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("challenge", SEAT_MATCH)

    @admin.display(description="deal code")
    def deal_code_shown(self, game: Game) -> Any:
        return HIDDEN if secret_now(game) else game.deal_code

    @admin.display(description="deck")
    def deck_shown(self, game: Game) -> Any:
        return HIDDEN if secret_now(game) else game.deck

    @admin.display(description="state")
    def state_shown(self, game: Game) -> Any:
        return HIDDEN if secret_now(game) else game.state


@admin.register(Action)
class ActionAdmin(ActionCardsMixin, admin.ModelAdmin[Action]):
    list_display = ("game", "n", "type", "from_pile", "to_pile", "count", "score_delta", "at")
    list_filter = ("type",)
    search_fields = ("=game__id", "game__owner__username")
    list_select_related = ("game", "game__challenge", f"game__{SEAT_MATCH}")
    fields = readonly_fields = (
        "game", "n", "type", "from_pile", "to_pile", "count", "cards_shown", "score_delta",
        "auto_fill", "undoes", "auto_finish_shown", "at",
    )  # fmt: skip


@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin[DailyChallenge]):
    """Read-only: challenges are made by `create_daily_challenges` (R29). A challenge's code
    and winning line (which spells out the deal) are hidden until its day ends, from staff too;
    challenges are created days ahead."""

    list_display = ("date", "draw", "code_shown", "attempt", "par_shown", "ends_at")
    list_filter = ("draw",)
    search_fields = ("date",)
    date_hierarchy = "date"
    ordering = ("-date", "-draw")
    fields = readonly_fields = (
        "date", "draw", "code_shown", "attempt", "ends_at", "par_shown", "line_shown",
    )  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="deal code")
    def code_shown(self, challenge: DailyChallenge) -> str:
        return challenge.deal_code if challenge.ends_at <= timezone.now() else HIDDEN

    @admin.display(description="par")
    def par_shown(self, challenge: DailyChallenge) -> Any:
        if challenge.par is None:
            return None
        return f"{'' if challenge.par_exact else '≤ '}{challenge.par}"

    @admin.display(description="winning line")
    def line_shown(self, challenge: DailyChallenge) -> Any:
        return challenge.line if challenge.ends_at <= timezone.now() else HIDDEN
