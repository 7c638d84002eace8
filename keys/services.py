"""API keys: made, listed, revoked, and found from what a client sends (docs/api.md
"Accounts"). Only a key's first characters and its SHA-256 are stored (keys.models.ApiKey)."""

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
from oauth2_provider.models import RefreshToken
from oauth2_provider.settings import oauth2_settings

from games.streams import credentials_changed
from keys.models import ApiKey

# The scopes (docs/api.md), in the order they are listed.
SCOPES = ("account:read", "account:write", "game:play", "board:read")
PREFIX_LENGTH = 8
# `last_used` is written when it is older than this: at most one write a minute per key.
LAST_USED_STEP = dt.timedelta(seconds=60)
MAX_DAYS = 3650
# Keys an account may hold at once (a password login makes one each time: auth/token).
MAX_KEYS = 200
LOGIN_NAMES = ("auth/register", "auth/token")


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
        key = secrets.token_hex(20)  # 40 hex digits, as the keys made before hashing were
        row = ApiKey(
            id=key[:PREFIX_LENGTH],
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
        except IntegrityError:  # another key starts with the same 8 digits: draw again
            continue
        return row, key
    raise RuntimeError("no free key prefix in 5 draws")  # 2^32 prefixes: never in practice


def keys_create_many(*, users: Any, name: str) -> list[str]:
    """A key with every scope for each of `users`, in one insert (benchmarks make thousands)."""
    now = timezone.now()
    keys = [secrets.token_hex(20) for _user in users]
    ApiKey.objects.bulk_create(
        ApiKey(
            id=key[:PREFIX_LENGTH],
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
        transaction.on_commit(credentials_changed, robust=True)
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
