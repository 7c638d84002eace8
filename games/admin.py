"""Admin for games and their action logs. The log is evidence: it is read-only here."""

from django.contrib import admin
from django.http import HttpRequest

from games.models import Action, Game


class ReadOnlyMixin:
    """Shows rows and never changes them: only the game's own service writes them."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ActionInline(ReadOnlyMixin, admin.TabularInline):
    model = Action
    fields = ("n", "type", "from_pile", "to_pile", "count", "cards", "score_delta", "undoes", "at")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "owner", "ruleset", "draw", "status", "score", "moves", "created_at")
    list_filter = ("status", "ruleset", "draw")
    search_fields = ("=id", "owner__username")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    raw_id_fields = ("owner", "challenge")
    # A game's figures and state follow from its log: editing them would break verify_games.
    readonly_fields = (
        "id", "owner", "ruleset", "draw", "deal_code", "deck", "practice", "challenge", "status",
        "score", "moves", "actions_count", "state", "created_at", "finished_at",
    )  # fmt: skip
    inlines = (ActionInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Action)
class ActionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "n", "type", "from_pile", "to_pile", "count", "score_delta", "at")
    list_filter = ("type",)
    search_fields = ("=game__id", "game__owner__username")
    list_select_related = ("game",)
