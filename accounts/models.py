from django.conf import settings
from django.db import models


class ApiKey(models.Model):
    """An API key of an account (docs/api.md "Accounts"): named, scoped, perhaps expiring.

    The key itself is never stored: only its first characters (`id`, shown in lists and used
    to revoke it) and the SHA-256 of the whole key, which the authentication looks up. A key has
    160 random bits, so a fast hash is enough: nobody can search the key space behind it.
    """

    id = models.CharField(primary_key=True, max_length=16)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys"
    )
    key_hash = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=100)
    # Space-separated, as OAuth writes scopes: "account:read game:play".
    scopes = models.CharField(max_length=200)
    created = models.DateTimeField()
    expires = models.DateTimeField(null=True, blank=True)
    # Updated at most once a minute (accounts.services.LAST_USED_STEP): not a write per request.
    last_used = models.DateTimeField(null=True, blank=True)
    # A key made with an OAuth token: the token family (django-oauth-toolkit's
    # RefreshToken.token_family) of the grant behind it. The key works while that family has a
    # refresh token not revoked (games.selectors.token_user_and_game), and expires no later
    # than the grant's refresh token did when the key was made.
    oauth_family = models.UUIDField(null=True, blank=True)

    class Meta:
        db_table = "keys_apikey"  # made by the keys app (accounts/apps.py)
        indexes = [models.Index(fields=["user", "created"], name="apikey_user_created")]

    def __str__(self) -> str:
        return f"{self.id}… ({self.name})"


class RedeemedCode(models.Model):
    """An OAuth authorization code exchanged for tokens (its SHA-256) and the token family of
    the tokens it gave: a second exchange of the code revokes that family (RFC 6749 4.1.2;
    accounts.oauth.Validator). Kept as long as a refresh token lives, then removed."""

    code_hash = models.CharField(primary_key=True, max_length=64)
    token_family = models.UUIDField()
    redeemed = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "keys_redeemedcode"  # made by the keys app (accounts/apps.py)

    def __str__(self) -> str:
        return f"code {self.code_hash[:12]}… redeemed {self.redeemed:%Y-%m-%d %H:%M}"
