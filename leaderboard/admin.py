"""Admin for daily challenges, board entries and players, with the audited "disqualify" action.

Disqualifying takes entries off every leaderboard (the selectors skip `Entry.disqualified`).
Each one is recorded in the admin's history (who, when, which entry) and in the log.
"""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from leaderboard import services
from leaderboard.models import DailyChallenge, Entry

AUDIT_MESSAGE = "Disqualified: removed from the leaderboards"


def disqualify(modeladmin: admin.ModelAdmin, request: HttpRequest, entries: QuerySet) -> None:
    changed = services.entries_disqualify(entries=entries, by=request.user)
    for entry in changed:
        modeladmin.log_change(request, entry, AUDIT_MESSAGE)
    modeladmin.message_user(
        request, f"{len(changed)} entr{'y' if len(changed) == 1 else 'ies'} disqualified.",
        messages.SUCCESS,
    )  # fmt: skip


@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin):
    list_display = ("date", "draw", "deal_number", "ends_at")
    list_filter = ("draw",)
    search_fields = ("date",)
    date_hierarchy = "date"
    ordering = ("-date", "-draw")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("challenge", "player", "status", "score", "moves", "disqualified")
    list_filter = ("disqualified", "challenge__draw", "status")
    search_fields = ("player__username", "=game__id")
    list_select_related = ("challenge", "player")
    # Figures follow the game; the only change an admin makes is the audited action.
    readonly_fields = (
        "challenge", "player", "game", "status", "score", "moves", "started_at", "ended_at",
        "reached_at", "disqualified",
    )  # fmt: skip
    actions = ("disqualify_entries",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.action(description="Disqualify the selected entries (audited)")
    def disqualify_entries(self, request: HttpRequest, queryset: QuerySet) -> None:
        disqualify(self, request, queryset)


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    actions = ("disqualify_players",)

    @admin.action(description="Disqualify the selected players from every leaderboard (audited)")
    def disqualify_players(self, request: HttpRequest, queryset: QuerySet) -> None:
        entries = Entry.objects.filter(player__in=queryset)
        disqualify(EntryAdmin(Entry, self.admin_site), request, entries)
