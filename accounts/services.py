"""API keys: made, listed, revoked, and found from what a client sends (docs/api.md
"Accounts"). Only a key's first characters and its SHA-256 are stored (accounts.models.ApiKey)."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken
from oauth2_provider.settings import oauth2_settings

from accounts.models import ApiKey
from core import hub
from core.commits import after_commit

# The scopes (docs/api.md), in the order they are listed.
SCOPES = ("account:read", "account:write", "game:play", "board:read")
PREFIX_LENGTH = 8
# What every credential the server hands out starts with, so that secret scanners recognise one
# in a leaked file (docs/api.md "Accounts", keys): API keys `cfk_`, OAuth access tokens `cfo_`,
# refresh tokens `cfr_`. Keys made before 1.2.0 are 40 bare hex digits and keep working.
KEY_PREFIX = "cfk_"
ACCESS_TOKEN_PREFIX = "cfo_"
REFRESH_TOKEN_PREFIX = "cfr_"
KEY_PATTERN = r"\bcfk_[0-9a-f]{40}\b"
OAUTH_TOKEN_PATTERN = r"\bcf[or]_[A-Za-z0-9]{40}\b"
# `last_used` is written when it is older than this: at most one write a minute per key.
LAST_USED_STEP = dt.timedelta(seconds=60)
MAX_DAYS = 3650
# Keys an account may hold at once (a password login makes one each time: auth/token).
MAX_KEYS = 200
LOGIN_NAMES = ("auth/register", "auth/token")

# The hub's topic (core/hub.py) told after the commit of a revocation (of a key, a token, an
# account): the streams opened with the credential close at once (games/streams.py).
CREDENTIALS = "credentials"


def credentials_changed() -> None:
    """After the commit of a revocation: every process checks its streams' credentials now.
    Never raises."""
    hub.publish(CREDENTIALS, via="pubsub")


def _key_new() -> str:
    return KEY_PREFIX + secrets.token_hex(20)


def _key_id(key: str) -> str:
    """A key's `id`: the first digits after its prefix (kept to name it, never enough to use)."""
    return key.removeprefix(KEY_PREFIX)[:PREFIX_LENGTH]


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def scopes_ordered(scopes: Any) -> list[str]:
    wanted = set(scopes)
    return [scope for scope in SCOPES if scope in wanted]


@dataclass(frozen=True)
class OAuthGrant:
    """What an OAuth access token was granted under: its refresh-token family and when the
    family's current refresh token expires."""

    family: uuid.UUID
    expires: dt.datetime


def oauth_grant_of(*, access_token_id: int) -> OAuthGrant | None:
    """The grant behind an OAuth access token: None if it has no live refresh token."""
    row = (
        RefreshToken.objects.filter(access_token_id=access_token_id, revoked__isnull=True)
        .values_list("token_family", "created")
        .first()
    )
    if row is None or row[0] is None:
        return None
    span = dt.timedelta(seconds=oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS)
    return OAuthGrant(family=row[0], expires=row[1] + span)


def key_create(
    *,
    user: Any,
    name: str,
    scopes: Any = SCOPES,
    days: int | None = None,
    grant: OAuthGrant | None = None,
) -> tuple[ApiKey, str]:
    """A new key of `user` with `scopes`, expiring after `days` (never if None). A key made
    with an OAuth token (`grant`) expires no later than the grant and dies with it. Returns the
    row and the key, which exists nowhere else from then on: the caller shows it once."""
    now = timezone.now()
    expires = None if days is None else now + dt.timedelta(days=days)
    if grant is not None and (expires is None or grant.expires < expires):
        expires = grant.expires
    for _attempt in range(5):
        key = _key_new()
        row = ApiKey(
            id=_key_id(key),
            user=user,
            key_hash=key_hash(key),
            name=name,
            scopes=" ".join(scopes_ordered(scopes)),
            created=now,
            expires=expires,
            oauth_family=None if grant is None else grant.family,
        )
        try:
            with transaction.atomic():
                row.save(force_insert=True)
        except IntegrityError:  # another key's id is the same 8 digits: draw again
            continue
        return row, key
    raise RuntimeError("no free key prefix in 5 draws")  # 2^32 prefixes: never in practice


def keys_create_many(*, users: Any, name: str) -> list[str]:
    """A key with every scope for each of `users`, in one insert (benchmarks make thousands)."""
    now = timezone.now()
    keys = [_key_new() for _user in users]
    ApiKey.objects.bulk_create(
        ApiKey(
            id=_key_id(key),
            user=user,
            key_hash=key_hash(key),
            name=name,
            scopes=" ".join(SCOPES),
            created=now,
        )
        for user, key in zip(users, keys, strict=True)
    )
    return keys


def key_create_for_login(*, user: Any, name: str) -> str:
    """A new key with every scope for a password login (auth/register, auth/token): the
    server cannot hand back a key it made before, having kept only its hash. Past MAX_KEYS keys
    the least recently used key a login made goes, so that logins cannot pile keys up."""
    with transaction.atomic():
        logins = ApiKey.objects.filter(user=user, name__in=LOGIN_NAMES)
        if key_count_for(user=user) >= MAX_KEYS:
            oldest = logins.order_by(F("last_used").asc(nulls_first=True), "created").first()
            if oldest is not None:
                oldest.delete()
        return key_create(user=user, name=name)[1]


def key_list_for(*, user: Any) -> QuerySet[ApiKey]:
    """The account's keys, oldest first."""
    return ApiKey.objects.filter(user=user).order_by("created", "id")


def key_count_for(*, user: Any) -> int:
    return ApiKey.objects.filter(user=user).count()


def key_revoke(*, user: Any, key_id: str) -> bool:
    """Deletes the account's key `key_id`; False if it has none of that id. The key answers
    401 from the next request on: nothing caches keys; its open streams close at once."""
    deleted, _rows = ApiKey.objects.filter(user=user, id=key_id).delete()
    if deleted:
        after_commit(credentials_changed)
    return bool(deleted)


def key_touch(*, key_id: str, last_used: dt.datetime | None, now: dt.datetime) -> None:
    """Records the key's use, if its `last_used` is older than LAST_USED_STEP."""
    if last_used is None or now - last_used >= LAST_USED_STEP:
        ApiKey.objects.filter(id=key_id).update(last_used=now)


def key_payload(row: ApiKey) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "scopes": row.scopes.split(),
        "created": _iso(row.created),
        "expires": _iso(row.expires),
        "last_used": _iso(row.last_used),
    }


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


# ---- the apps a player allowed (OAuth grants) --------------------------------------------------


def oauth_client_register(*, name: str, redirect_uris: list[str]) -> Any:
    """A public OAuth client (PKCE, no secret) an app registered itself (RFC 7591, docs/api.md
    "Accounts"): marked as such, so that the consent page says nobody checked it. No secret is
    made, so none is hashed: its registration costs one insert."""
    app = Application(
        name=name,
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=" ".join(redirect_uris),
        client_secret="",
        hash_client_secret=False,
        registration_source=Application.RegistrationSource.DCR,
    )
    app.save()
    return app


def oauth_apps_unused_remove(*, before: dt.datetime) -> int:
    """Remove the self-registered apps (oauth_client_register) registered before `before` that
    hold no access token, refresh token, grant or ID token (`forget_oauth` clears the expired
    ones first); staff-registered apps stay. The number removed."""
    unused = Application.objects.filter(
        registration_source=Application.RegistrationSource.DCR,
        created__lt=before,
        accesstoken__isnull=True,
        refreshtoken__isnull=True,
        grant__isnull=True,
        idtoken__isnull=True,
    )
    ids = list(unused.values_list("pk", flat=True))
    _, removed = Application.objects.filter(pk__in=ids).delete()
    return removed.get(Application._meta.label, 0)


def oauth_client_self_registered(app: Any) -> bool:
    """Whether an app registered itself (POST /oauth/register) rather than by the staff."""
    return bool(app.registration_source == Application.RegistrationSource.DCR)


@dataclass(frozen=True)
class AppAccess:
    """An app the player allowed (OAuth, docs/api.md "Accounts"), as the keys page lists it:
    the scopes of its live tokens, when it was first allowed, when it last used the API (to
    the minute: `oauth_token_touch`) and whether it registered itself (nobody checked it)."""

    id: int
    name: str
    scopes: list[str]
    since: dt.datetime
    last_used: dt.datetime | None
    self_registered: bool = False


def oauth_apps_for(*, user: Any, now: dt.datetime | None = None) -> list[AppAccess]:
    """The apps that hold a live token of `user` (an unexpired access token or a refresh token
    not revoked), the most recently used first."""
    now = now or timezone.now()
    found: dict[int, dict[str, Any]] = {}

    def add(app: Any, scope: str, created: dt.datetime, used: dt.datetime | None) -> None:
        entry = found.setdefault(
            app.pk,
            {
                "name": app.name,
                "scopes": set(),
                "since": created,
                "used": None,
                "self": oauth_client_self_registered(app),
            },
        )
        entry["scopes"] |= set(scope.split()) & set(SCOPES)
        entry["since"] = min(entry["since"], created)
        if used is not None and (entry["used"] is None or used > entry["used"]):
            entry["used"] = used

    live = AccessToken.objects.filter(user=user, application__isnull=False, expires__gt=now)
    for token in live.select_related("application"):
        add(token.application, token.scope, token.created, token.updated)
    kept = RefreshToken.objects.filter(user=user, revoked__isnull=True)
    for refresh in kept.select_related("application", "access_token"):
        scope = refresh.access_token.scope if refresh.access_token else ""
        add(refresh.application, scope, refresh.created, None)
    apps = [
        AppAccess(pk, e["name"], scopes_ordered(e["scopes"]), e["since"], e["used"], e["self"])
        for pk, e in found.items()
    ]
    return sorted(apps, key=lambda app: app.last_used or app.since, reverse=True)


def oauth_app_revoke(*, user: Any, application_id: int) -> bool:
    """Take an app's access back: every token and pending code it holds for `user` goes, so
    its access and refresh tokens answer 401 at once, the keys it made with them die with their
    grant (`oauth_grant_of`), and the streams they opened close. True if it held any."""
    with transaction.atomic():
        mine = {"user": user, "application_id": application_id}
        removed = RefreshToken.objects.filter(**mine).delete()[0]
        removed += AccessToken.objects.filter(**mine).delete()[0]
        removed += Grant.objects.filter(**mine).delete()[0]
        if removed:
            after_commit(credentials_changed)
    return bool(removed)


def oauth_token_touch(*, token_id: int, updated: dt.datetime, now: dt.datetime) -> None:
    """An OAuth access token was used: its `updated` is the app's last use on the keys page,
    written at most once a minute (LAST_USED_STEP), as a key's `last_used` is."""
    if now - updated >= LAST_USED_STEP:
        AccessToken.objects.filter(pk=token_id).update(updated=now)
