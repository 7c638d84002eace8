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


class Player(models.Model):
    """What an account is beyond its login: for now, whether it declared itself a bot (R34).

    Made when first needed; an account without a row is a person."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="player"
    )
    # R34: declared before the first ranked game (POST account/bot), irreversible.
    bot = models.BooleanField(default=False)
    bot_since = models.DateTimeField(null=True, blank=True)
    # A visitor's account behind a browser session ("Play now"), without a name of its own or a
    # password until it signs up (accounts.identity.guest_convert); never on boards or player
    # pages, no daily games; removed after GUEST_DAYS unused (`manage.py remove_guests`).
    guest = models.BooleanField(default=False)

    class Meta:
        db_table = "games_player"  # made by the games app (accounts/apps.py)

    def __str__(self) -> str:
        return f"{self.user_id}{' (bot)' if self.bot else ''}{' (guest)' if self.guest else ''}"


class ReservedName(models.Model):
    """The name of a deleted account, refused to new ones for DELETED_NAME_DAYS after its
    deletion (accounts.identity.username_validate), so that nobody takes over a name others knew.
    Kept as a keyed hash of the case-folded name (accounts.identity.reserved_name_hash), not the
    name: a deleted account keeps nothing personal."""

    name_hash = models.CharField(max_length=64, unique=True)
    deleted_at = models.DateTimeField()

    class Meta:
        db_table = "games_reservedname"  # made by the games app (accounts/apps.py)

    def __str__(self) -> str:
        return f"{self.name_hash[:12]}… (deleted {self.deleted_at:%Y-%m-%d})"


class AccountEvent(models.Model):
    """One line of the account event stream (accounts/events.py): an event of one account, or of
    every account (`user` null: a broadcast, such as a new day's challenge). Kept
    EVENTS_KEPT_DAYS (accounts.events.events_forget). Its id on the stream is `seq`, given once it
    is committed, in the order of commits (accounts.events.events_stamp), never its row's `id`."""

    id = models.BigAutoField(primary_key=True)
    seq = models.BigIntegerField(null=True, blank=True, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    kind = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    at = models.DateTimeField(db_index=True)
    # Set on a broadcast written at most once (the day's, by whichever scheduler comes first).
    once = models.CharField(max_length=60, null=True, blank=True, unique=True)

    class Meta:
        db_table = "games_accountevent"  # made by the games app (accounts/apps.py)
        indexes = [
            models.Index(fields=["user", "seq"]),
            models.Index(
                fields=["id"], condition=models.Q(seq__isnull=True), name="accountevent_unstamped"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq or '-'}"


class EventClock(models.Model):
    """One row: the last `seq` given to an account event (accounts.events.events_stamp); its row
    lock orders the stamps. `forgotten`: the highest `seq` deleted so far (events_forget), under
    which a `since` is refused (accounts.events.since_accepted)."""

    last = models.BigIntegerField(default=0)
    forgotten = models.BigIntegerField(default=0)

    class Meta:
        db_table = "games_eventclock"  # made by the games app (accounts/apps.py)

    def __str__(self) -> str:
        return f"last event {self.last}"
