from django.contrib import admin

from matches.models import Match, MatchDeal, MatchPlayer, Rating, RatingChange


class MatchPlayerInline(admin.TabularInline):
    model = MatchPlayer
    extra = 0
    can_delete = False
    readonly_fields = [
        "player", "game", "seat", "bot", "joined_at", "place", "rating_before", "rating_after",
    ]  # fmt: skip
    exclude = ["address_hash"]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "size", "draw", "bot", "status", "seats", "created_at", "rated_at"]
    list_filter = ["status", "size", "draw", "bot"]
    readonly_fields = [field.name for field in Match._meta.fields]
    inlines = [MatchPlayerInline]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "size", "draw", "rating", "matches", "bot"]
    list_filter = ["size", "draw", "bot"]
    search_fields = ["player__username"]
    readonly_fields = [field.name for field in Rating._meta.fields]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["player", "match", "size", "draw", "place", "rating_before", "rating_after"]
    list_filter = ["size", "draw"]
    search_fields = ["player__username"]
    readonly_fields = [field.name for field in RatingChange._meta.fields]


@admin.register(MatchDeal)
class MatchDealAdmin(admin.ModelAdmin):
    list_display = ["draw", "index", "created_at", "used_at"]
    list_filter = ["draw"]
    exclude = ["deal_code", "line"]  # secret until its match is finished
