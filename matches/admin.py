from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games.services import HASH_FIELDS
from matches import services
from matches.models import Challenge, Match, MatchDeal, MatchPlayer, Rating, RatingChange


class MatchPlayerInline(admin.TabularInline[MatchPlayer, Match]):
    model = MatchPlayer
    extra = 0
    can_delete = False
    readonly_fields = [
        "player", "game", "seat", "bot", "joined_at", "aborted", "place", "rating_before",
        "rating_after",
    ]  # fmt: skip
    exclude = ["address_hash"]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = [
        "id", "size", "draw", "bot", "status", "seats", "created_at", "rated_at", "hold",
    ]  # fmt: skip
    list_filter = ["status", "hold", "size", "draw", "bot", "duel", "unrated"]
    readonly_fields = [field.name for field in Match._meta.fields]
    inlines = [MatchPlayerInline]
    actions = ["release", "drop"]

    # R33a: the matches the farming check held wait here (filter by hold) for a decision.
    @admin.action(description="Rate the selected held matches (not farmed)")
    def release(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        count = sum(services.match_hold_release(match_id=match.pk) for match in queryset)
        self.message_user(request, f"{count} held match(es) released.", messages.SUCCESS)

    @admin.action(description="Drop the selected held matches (farmed: never rated)")
    def drop(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        count = sum(services.match_hold_drop(match_id=match.pk) for match in queryset)
        self.message_user(request, f"{count} held match(es) dropped.", messages.SUCCESS)

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ["player", "size", "draw", "rating", "matches", "bot"]
    list_filter = ["size", "draw", "bot"]
    search_fields = ["player__username"]
    readonly_fields = [field.name for field in Rating._meta.fields]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = ["player", "match", "size", "draw", "place", "rating_before", "rating_after"]
    list_filter = ["size", "draw"]
    search_fields = ["player__username"]
    readonly_fields = [field.name for field in RatingChange._meta.fields]


@admin.register(MatchDeal)
class MatchDealAdmin(admin.ModelAdmin[MatchDeal]):
    list_display = ["draw", "index", "created_at", "used_at"]
    list_filter = ["draw"]
    exclude = ["deal_code", "line"]  # secret until its match is finished


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin[Challenge]):
    """Players' challenges, to look at (they change through the API only)."""

    list_display = ["id", "challenger", "player", "draw", "rated", "status", "created_at"]
    list_filter = ["status", "rated", "draw"]
    # (the challenger's client hashes are the fair-play review's, not shown: as a seat's)
    readonly_fields = [f.name for f in Challenge._meta.fields if f.name not in HASH_FIELDS]
    exclude = list(HASH_FIELDS)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
