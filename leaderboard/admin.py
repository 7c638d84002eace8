"""Admin for board entries and players, with the audited "disqualify" action (the daily
challenges' admin is games/admin.py, beside their model).

Disqualifying takes entries off every leaderboard (the selectors skip `Entry.disqualified`).
Each one is recorded in the admin's history (who, when, which entry) and in the log.

The fair-play review is the entries' "Shares an address" filter: for a day (the date links
above the list), the entries whose game was dealt from the address (hash) of other accounts'
games on that day's deals, most other accounts first.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import AbstractUser
from django.db.models import QuerySet
from django.db.models.expressions import Combinable
from django.http import HttpRequest
from django_stubs_ext import WithAnnotations

from leaderboard import selectors, services
from leaderboard.models import Entry

AUDIT_MESSAGE = "Disqualified: removed from the leaderboards"


def disqualify(
    modeladmin: admin.ModelAdmin[Entry], request: HttpRequest, entries: QuerySet[Entry]
) -> None:
    changed = services.entries_disqualify(entries=entries, by=request.user)
    for entry in changed:
        modeladmin.log_change(request, entry, AUDIT_MESSAGE)
    modeladmin.message_user(
        request, f"{len(changed)} entr{'y' if len(changed) == 1 else 'ies'} disqualified.",
        messages.SUCCESS,
    )  # fmt: skip


class SharedAddressFilter(admin.SimpleListFilter):
    title = "fair play"
    parameter_name = "shared_address"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Shares an address with other accounts that day")]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[WithAnnotations[Entry, selectors.Sharing]]
    ) -> QuerySet[WithAnnotations[Entry, selectors.Sharing]]:
        # EntryAdmin.get_queryset's: annotated with `sharing_accounts`.
        if self.value() == "yes":
            return queryset.filter(sharing_accounts__gt=0)
        return queryset


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = (
        "challenge", "player", "status", "score", "moves", "disqualified", "sharing",
        "shared_with",
    )  # fmt: skip
    list_filter = (SharedAddressFilter, "disqualified", "challenge__draw", "status")
    date_hierarchy = "challenge__date"
    search_fields = ("player__username", "=game__id")
    list_select_related = ("challenge", "player", "game")
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
    def disqualify_entries(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        disqualify(self, request, queryset)

    def get_queryset(
        self, request: HttpRequest
    ) -> QuerySet[WithAnnotations[Entry, selectors.Sharing]]:
        # Annotated before ModelAdmin's ordering, which may sort by the annotation.
        entries = selectors.entries_with_sharing(entries=Entry.objects.all())
        ordering = self.get_ordering(request)
        return entries.order_by(*ordering) if ordering else entries

    def get_ordering(self, request: HttpRequest) -> list[str | Combinable]:
        # The review lists the most suspicious first: most other accounts, then best figures.
        if request.GET.get(SharedAddressFilter.parameter_name) == "yes":
            return ["-sharing_accounts", "-score", "moves"]
        return list(super().get_ordering(request) or [])

    @admin.display(description="other accounts, same address", ordering="sharing_accounts")
    def sharing(self, entry: WithAnnotations[Entry, selectors.Sharing]) -> int:
        return entry.sharing_accounts

    @admin.display(description="shared with")
    def shared_with(self, entry: WithAnnotations[Entry, selectors.Sharing]) -> str:
        if not entry.sharing_accounts:
            return ""
        return ", ".join(selectors.entry_sharing_players(entry=entry))


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin[AbstractUser]):
    actions = ("disqualify_players",)

    @admin.action(description="Disqualify the selected players from every leaderboard (audited)")
    def disqualify_players(self, request: HttpRequest, queryset: QuerySet[AbstractUser]) -> None:
        entries = Entry.objects.filter(player__in=queryset)
        disqualify(EntryAdmin(Entry, self.admin_site), request, entries)
