"""Accounts at the doors: the one username rule, the sign-up limit and the answer to a
locked-out login (django-axes counts the failures; settings.py configures it).

Every door that checks a password (API token, web login, admin login) goes through
`django.contrib.auth.authenticate(request, ...)`, where axes' backend refuses a locked
(account, address) pair or address before any password is hashed. Every hash (a check, a new
account, a new password) is computed in one of the host's AUTH_CONCURRENCY slots
(canfield_site/slots.py, `SlotPBKDF2PasswordHasher`), so that guessing can slow logins but
never the workers' other requests. The doors that create accounts (API register, web sign-up)
are limited in accounts created per client address (`signup_slot_take`).
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import BasePasswordHasher, PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from canfield_site.clients import client_key
from canfield_site.slots import slot
from games.errors import Forbidden, error_body
from games.models import Game, Player
from games.throttling import _count_hit

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,30}", re.ASCII)
SIGNUP_WINDOW = 3600


def username_validate(username: str) -> None:
    """The rule for new names (API.md): 3-30 ASCII letters, digits, `_` and `-`, unique
    without regard to case. Names made before the rule keep working; they are only never
    made again. Raises ValidationError with the reason."""
    if not USERNAME.fullmatch(username):
        message = _("A username is 3–30 characters: ASCII letters, digits, _ and -.")
        odd = sorted({char for char in username if not char.isascii()})
        if odd:
            shown = " ".join(f"{char} (U+{ord(char):04X})" for char in odd[:5])
            message += " " + _("These characters are not allowed: %(chars)s") % {"chars": shown}
        raise ValidationError(message, code="invalid")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ValidationError(_("That username is taken."), code="taken")


def account_create(username: str, password: str) -> User:
    """Creates an account whose name passed `username_validate`, inside the caller's
    transaction or its own. Two sign-ups racing for one name in different cases cannot both
    win: on PostgreSQL a transaction-scoped advisory lock on the case-folded name makes the
    second wait for the first, then see its row; SQLite runs one write at a time anyway.
    Raises ValidationError (code "taken") for the loser."""
    user_model = get_user_model()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"username:{username.lower()}"]
                )
        if user_model.objects.filter(username__iexact=username).exists():
            raise ValidationError(_("That username is taken."), code="taken")
        user: User = user_model.objects.create_user(username=username, password=password)
        return user


def signup_slot_take(request: HttpRequest) -> float | None:
    """Counts one account about to be created from the client's address; returns None if it
    may be, else the seconds until the address may create accounts again."""
    now = time.time()
    window = int(now // SIGNUP_WINDOW)
    key = f"signup:{client_key(request)}:{window}"
    if _count_hit(key, SIGNUP_WINDOW + 1) <= settings.SIGNUP_LIMIT:
        return None
    return (window + 1) * SIGNUP_WINDOW - now


class SlotPasswordHasherMixin(BasePasswordHasher):
    """A password hasher whose every hash (a check hashes too) runs in one of the host's
    AUTH_CONCURRENCY slots; raises canfield_site.slots.Busy when none came free in time."""

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        with slot("auth", settings.AUTH_CONCURRENCY):
            return super().encode(password, salt, *args, **kwargs)  # type: ignore[call-arg]


class SlotPBKDF2PasswordHasher(SlotPasswordHasherMixin, PBKDF2PasswordHasher):
    """Django's PBKDF2 hasher (same algorithm name and hashes), capped per host."""


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The name axes counts failures under: case-folded, so that `Alice` and `alice` share
    one count (names are unique without regard to case)."""
    name = (credentials or {}).get("username") or request.POST.get("username")
    return name.lower() if isinstance(name, str) else None


def lockout_seconds(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """Seconds until the failures that lock this address (or this account from it) out have
    expired: every failure that counts is one from this address."""
    cool_off = get_cool_off(request)
    latest = AccessAttempt.objects.filter(ip_address=client_key(request)).aggregate(
        latest=Max("attempt_time")
    )["latest"]
    if cool_off is None or latest is None:
        return 60
    return max(1, math.ceil((latest + cool_off - timezone.now()).total_seconds()))


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None,
    credentials: dict[str, Any] | None,
) -> HttpResponse:
    """axes' answer to a login refused for a locked account or address: 429 with
    Retry-After, in the API's error shape under /api/, else the login page's message."""
    seconds = lockout_seconds(request, credentials)
    minutes = max(1, math.ceil(seconds / 60))
    message = _(
        "Too many failed logins for this account or from this address. "
        "Try again in %(minutes)s min."
    ) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(error_body("throttled", message), status=429)
    else:
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


# ---- what an account is beyond its login (R34) -------------------------------------------------

# A key made by auth/register or auth/token (every key, for now) has every scope (API.md).
SCOPES = ["account:read", "account:write", "game:play", "board:read"]


def player_lock(*, user: Any) -> Player:
    """The account's Player row, made on first need, locked until the caller's transaction
    ends: a bot declaration and a ranked game's creation (leaderboard) lock it, so that neither
    can slip in between the other's check and write."""
    player = Player.objects.select_for_update().filter(user=user).first()
    if player is None:  # one query for an account that has its row (the usual case)
        Player.objects.bulk_create([Player(user=user)], ignore_conflicts=True)
        player = Player.objects.select_for_update().get(user=user)
    return player


def account_bot_declare(*, user: Any) -> Player:
    """R34: the account declares itself a bot, which it may only before its first ranked game;
    irreversible (declaring again changes nothing). Raises Forbidden once it has one."""
    with transaction.atomic():
        player = player_lock(user=user)
        if player.bot:
            return player
        if Game.objects.filter(
            Q(challenge__isnull=False) | Q(match__isnull=False), owner=user
        ).exists():
            raise Forbidden(
                _("An account can declare itself a bot only before its first ranked game."), "R34"
            )
        player.bot = True
        player.bot_since = timezone.now()
        player.save(update_fields=["bot", "bot_since"])
    return player


def player_is_bot(*, user: Any) -> bool:
    """Whether the account declared itself a bot (an account without a Player row did not)."""
    return Player.objects.filter(user=user, bot=True).exists()
