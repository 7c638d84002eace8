from django.contrib import admin

from accounts.models import ApiKey


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin[ApiKey]):
    """Keys as their owners see them: never the key (only its hash is stored), revocable."""

    list_display = ("id", "user", "name", "scopes", "created", "expires", "last_used")
    search_fields = ("id", "user__username", "name")
    readonly_fields = ("id", "user", "key_hash", "created", "last_used")
    fields = ("id", "user", "name", "scopes", "expires", "created", "last_used", "key_hash")

    def has_add_permission(self, request: object) -> bool:
        return False  # a key is made by its owner, who alone sees it once
