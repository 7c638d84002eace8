"""Accounts at the doors: the one username rule, the sign-up limit and the answer to a
locked-out login (django-axes counts the failures; settings.py configures it).

Every door that checks a password (API token, web login, admin login) goes through
`django.contrib.auth.authenticate(request, ...)`, where axes' backend refuses a locked
(account, address) pair or address before any password is hashed. Every hash (a check, a new
account, a new password) is computed in one of the host's AUTH_CONCURRENCY slots
(core/slots.py, `SlotPBKDF2PasswordHasher`), so that guessing can slow logins but
never the workers' other requests. The doors that create accounts (API register, web sign-up)
are limited in accounts created per client address (`signup_slot_take`).

Each account also has a budget of failures across all addresses (ACCOUNT_FAILURE_BUDGET an
hour, `BudgetedAxesHandler`): once spent, its password doors are locked for the clients it does
not know, while its owner keeps the ones it does: a browser (device cookie) or a client address
(IPv6: /64) one of its games was dealt from, and any session or key it is signed in with.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.hashers import BasePasswordHasher, PBKDF2PasswordHasher
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.password_validation import validate_password
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max, ProtectedError, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from accounts.models import ApiKey, Player, ReservedName
from accounts.services import credentials_changed
from core.clients import client_address_hash, client_device_hash, client_key
from core.commits import after_commit
from core.errors import Forbidden, InvalidRequest, error_body
from core.rows import row_instance, row_reader
from core.slots import slot
from core.throttling import _count_hit, address_slot_take

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,30}", re.ASCII)
# The names deleted accounts take (account_delete): never given to a new account.
DELETED_NAME = re.compile(r"deleted-\d+(-\d+)?", re.ASCII | re.IGNORECASE)
SIGNUP_WINDOW = 3600
# An account's failures are counted per hour (`account_failures`).
BUDGET_WINDOW = 3600


@dataclass(frozen=True)
class AccountGames:
    """What `games` lends identity, registered from its AppConfig's `ready`
    (`account_games_provide`), as this layer imports no app above it (docs/contributing.md,
    "Layers"): what an account's games tell of it, and the one thing its deletion asks of them.

    - `dealt_from(username=, address_hash=, device_hash=)`: whether one of the account's games
      was dealt from that client address or browser (`device_hash` "" for none);
    - `ranked_played(user=)`: whether the account has a ranked game (a daily's or a match's);
    - `active_since(since)`: a condition on the user model: a game dealt or an action played
      since `since`;
    - `standing(user=, now=)`: R36, the account's standing as docs/api.md's ACCOUNT shows it;
    - `client_hashes_forget(user=)`: empty the client hashes kept of the account's requests (its
      games', its match seats', ...), in the caller's transaction."""

    dealt_from: Callable[..., bool]
    ranked_played: Callable[..., bool]
    active_since: Callable[[datetime.datetime], Q]
    standing: Callable[..., Mapping[str, object]]
    client_hashes_forget: Callable[..., object]


_account_games: list[AccountGames] = []


def account_games_provide(games: AccountGames) -> None:
    """Install what games lends identity (called once, from an AppConfig's `ready`)."""
    _account_games[:] = [games]


def account_games() -> AccountGames:
    """What games lent (the `games` app is always installed with `accounts`)."""
    if not _account_games:
        raise RuntimeError("no account games installed: add `games` to INSTALLED_APPS")
    return _account_games[0]


def username_validate(username: str) -> None:
    """The rule for new names (docs/api.md): 3-30 ASCII letters, digits, `_` and `-`, unique
    without regard to case. Names made before the rule keep working; they are only never
    made again. Raises ValidationError with the reason."""
    if not USERNAME.fullmatch(username):
        message = _("A username is 3–30 characters: ASCII letters, digits, _ and -.")
        odd = sorted({char for char in username if not char.isascii()})
        if odd:
            shown = " ".join(f"{char} (U+{ord(char):04X})" for char in odd[:5])
            message += " " + _("These characters are not allowed: %(chars)s") % {"chars": shown}
        raise ValidationError(message, code="invalid")
    if (
        DELETED_NAME.fullmatch(username)
        or get_user_model().objects.filter(username__iexact=username).exists()
    ):
        raise ValidationError(_("That username is taken."), code="taken")
    if name_reserved(username, now=timezone.now()):
        raise ValidationError(
            _("That username belonged to an account deleted recently: choose another."),
            code="taken",
        )


def reserved_name_hash(username: str) -> str:
    """The keyed hash a deleted name is reserved under (its case folded, as names compare)."""
    return salted_hmac(
        "canfield.reserved-name", username.casefold(), algorithm="sha256"
    ).hexdigest()


def name_reserved(username: str, *, now: datetime.datetime) -> bool:
    """Whether `username` was a deleted account's less than DELETED_NAME_DAYS before `now`."""
    since = now - datetime.timedelta(days=settings.DELETED_NAME_DAYS)
    return ReservedName.objects.filter(
        name_hash=reserved_name_hash(username), deleted_at__gt=since
    ).exists()


def _name_claim(username: str) -> None:
    """Inside a transaction about to give an account the name `username`: raises
    ValidationError (code "taken") if an account has it in any case. Two sign-ups racing for one
    name in different cases cannot both win: on PostgreSQL a transaction-scoped advisory lock on
    the case-folded name makes the second wait for the first, then see its row; SQLite runs one
    write at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"username:{username.lower()}"]
            )
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ValidationError(_("That username is taken."), code="taken")


def account_create(username: str, password: str) -> User:
    """Creates an account whose name passed `username_validate`, inside the caller's
    transaction or its own; raises ValidationError (code "taken") when the name is taken, or
    a concurrent sign-up took it first (`_name_claim`)."""
    user_model = get_user_model()
    with transaction.atomic():
        _name_claim(username)
        user: User = user_model.objects.create_user(username=username, password=password)
        return user


def signup_slot_take(request: HttpRequest) -> float | None:
    """Counts one account about to be created from the client's address; returns None if it
    may be, else the seconds until the address may create accounts again."""
    return address_slot_take(
        request, name="signup", limit=settings.SIGNUP_LIMIT, window=SIGNUP_WINDOW
    )


class SlotPasswordHasherMixin(BasePasswordHasher):
    """A password hasher whose every hash (a check hashes too) runs in one of the host's
    AUTH_CONCURRENCY slots; raises core.slots.Busy when none came free in time."""

    def encode(self, password: str, salt: str, *args: object, **kwargs: object) -> str:
        with slot("auth", settings.AUTH_CONCURRENCY):
            return super().encode(password, salt, *args, **kwargs)


class SlotPBKDF2PasswordHasher(SlotPasswordHasherMixin, PBKDF2PasswordHasher):
    """Django's PBKDF2 hasher (same algorithm name and hashes), capped per host."""


def attempted_username(
    request: HttpRequest, credentials: Mapping[str, object] | None
) -> str | None:
    """The name axes counts failures under: case-folded, so that `Alice` and `alice` share
    one count (names are unique without regard to case)."""
    name = (credentials or {}).get("username") or request.POST.get("username")
    return name.lower() if isinstance(name, str) else None


def _budget_key(name: str, window: int) -> str:
    return f"account-failures:{hashlib.sha256(name.encode()).hexdigest()[:32]}:{window}"


def account_failure_count(name: str) -> None:
    """Counts one wrong password for the account named `name` (case-folded)."""
    window = int(time.time() // BUDGET_WINDOW)
    _count_hit(_budget_key(name, window), 2 * BUDGET_WINDOW + 1)


def account_failures(name: str) -> float:
    """The account's wrong passwords in the last hour, from any address: this hour's count and
    the share of the last hour's that falls within the hour (a sliding window of two counters,
    so that no boundary between hours doubles the budget)."""
    now = time.time()
    window = int(now // BUDGET_WINDOW)
    counts = caches["default"].get_many([_budget_key(name, window - 1), _budget_key(name, window)])
    earlier = int(counts.get(_budget_key(name, window - 1)) or 0)
    current = int(counts.get(_budget_key(name, window)) or 0)
    return current + earlier * (1 - (now % BUDGET_WINDOW) / BUDGET_WINDOW)


def account_knows(request: HttpRequest, name: str) -> bool:
    """Whether the request comes from a client the account `name` knows: signed in as it (a
    session or key), or from a browser (device cookie) or client address (IPv6: /64) that one
    of its games was dealt from (the address hashes games keep for the fair-play review)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.get_username().lower() == name:
        return True
    return account_games().dealt_from(
        username=name,
        address_hash=client_address_hash(request),
        device_hash=client_device_hash(request) or "",
    )


def account_budget_locks(request: HttpRequest, credentials: Mapping[str, object] | None) -> bool:
    """Whether the account's budget of failures is spent and the request comes from a client
    it does not know: then its password is not checked at all."""
    name = attempted_username(request, credentials)
    return (
        name is not None
        and account_failures(name) >= settings.ACCOUNT_FAILURE_BUDGET
        and not account_knows(request, name)
    )


class BudgetedAxesHandler(AxesDatabaseHandler):
    """axes' database handler (failures per address and per account at an address) with each
    account's budget of failures across addresses: a failure counts in the budget too, and a
    spent budget locks the account's doors for the clients it does not know."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, object] | None = None) -> bool:
        return bool(super().is_locked(request, credentials)) or account_budget_locks(
            request, credentials
        )

    def user_login_failed(
        self,
        sender: object,
        credentials: dict[str, object],
        request: HttpRequest | None = None,
        **kwargs: object,
    ) -> None:
        # A door axes kept shut checked no password: not a failure of the account's.
        if request is not None and not getattr(request, "axes_locked_out", False):
            name = attempted_username(request, credentials)
            if name is not None:
                account_failure_count(name)
        super().user_login_failed(sender, credentials, request, **kwargs)


def lockout_seconds(request: HttpRequest, credentials: Mapping[str, object] | None) -> int:
    """Seconds until the failures that lock this address (or this account from it) out have
    expired: every failure that counts is one from this address."""
    cool_off = get_cool_off(request)
    latest: datetime.datetime | None = AccessAttempt.objects.filter(
        ip_address=client_key(request)
    ).aggregate(latest=Max("attempt_time"))["latest"]
    if cool_off is None or latest is None:
        return 60
    return max(1, math.ceil((latest + cool_off - timezone.now()).total_seconds()))


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None,
    credentials: Mapping[str, object] | None,
) -> HttpResponse:
    """axes' answer to a login refused for a locked account or address: 429 with
    Retry-After, in the API's error shape under /api/, else the login page's message. An
    account whose budget is spent is retried in a tenth of the hour (its count slides down)."""
    if account_budget_locks(request, credentials):
        seconds = BUDGET_WINDOW // 10
    else:
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

# The account's Player row, made if it has none, and locked either way: an upsert whose
# conflict branch is an UPDATE takes the row's lock as SELECT ... FOR UPDATE would.
PLAYER_LOCK = """
INSERT INTO games_player (user_id, bot, bot_since, guest) VALUES (%s, %s, NULL, %s)
ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id
RETURNING {columns}
"""


def player_lock(*, user: User) -> Player:
    """The account's Player row, made on first need, locked until the caller's transaction
    ends: a bot declaration and a ranked game's creation (leaderboard, matches) lock it, so that
    neither can slip in between the other's check and write. One statement for a new account as
    for one with its row (a match join's player: bench/matches.py)."""
    columns = row_reader(Player)[0].replace('"games_player".', "")
    with connection.cursor() as cursor:
        cursor.execute(PLAYER_LOCK.format(columns=columns), [user.pk, False, False])
        row = cursor.fetchone()
    return row_instance(connection, Player, row)


def account_bot_declare(*, user: User) -> Player:
    """R34: the account declares itself a bot, which it may only before its first ranked game;
    irreversible (declaring again changes nothing). Raises Forbidden once it has one."""
    with transaction.atomic():
        player = player_lock(user=user)
        if player.bot:
            return player
        if player.guest:
            raise Forbidden(_("Sign up first: a guest cannot declare itself a bot."))
        if account_games().ranked_played(user=user):
            raise Forbidden(
                _("An account can declare itself a bot only before its first ranked game."), "R34"
            )
        player.bot = True
        player.bot_since = timezone.now()
        player.save(update_fields=["bot", "bot_since"])
    return player


def player_is_bot(*, user: User) -> bool:
    """Whether the account declared itself a bot (an account without a Player row did not)."""
    return Player.objects.filter(user=user, bot=True).exists()


# ---- guests: a visitor's account behind a browser session ("Play now") --------------------------

# A guest's username: "~" is outside the rule for names people choose (USERNAME), so a guest's
# name can never be taken by, or taken from, a person.
GUEST_PREFIX = "guest~"
GUEST_WINDOW = 3600


GUEST_GLOBAL_WINDOW = 60


def guest_slot_take(request: HttpRequest) -> tuple[float, str] | None:
    """Counts one guest about to be created from the client's address (GUEST_LIMIT an hour,
    as sign-ups are limited) and, if the address may, among all guests (GUEST_GLOBAL_LIMIT a
    minute); returns None if it may be created, else the seconds until it may and why not."""
    now = time.time()
    window = int(now // GUEST_WINDOW)
    key = f"guest:{client_key(request)}:{window}"
    if _count_hit(key, GUEST_WINDOW + 1) > settings.GUEST_LIMIT:
        reason = _("Too many guests were created from this address. Try later.")
        return (window + 1) * GUEST_WINDOW - now, reason
    # GUEST_GLOBAL_BURST a second (a minute's guests all at once would queue together), counted
    # first: a visitor asked to wait a moment does not spend the minute's allowance.
    second = int(now)
    if _count_hit(f"guest:all:s{second}", 2) > settings.GUEST_GLOBAL_BURST:
        reason = _("Too many guests are arriving right now. Try again in a moment, or sign up.")
        return second + 1 - now, reason
    window = int(now // GUEST_GLOBAL_WINDOW)
    if _count_hit(f"guest:all:{window}", GUEST_GLOBAL_WINDOW + 1) > settings.GUEST_GLOBAL_LIMIT:
        reason = _("Too many guests are arriving right now. Try again in a minute, or sign up.")
        return (window + 1) * GUEST_GLOBAL_WINDOW - now, reason
    return None


def guest_create() -> User:
    """A new guest: an account without a password (no door that checks one lets it in: only
    its browser session does; an unusable password is never hashed), marked a guest on its
    Player row, logged in as it is made (`last_login` written with the row: the site's Play
    now logs it in at once, without `login`'s separate update)."""
    user_model = get_user_model()
    with transaction.atomic(savepoint=False):  # in Play now's transaction: no savepoint
        user: User = user_model.objects.create_user(
            username=f"{GUEST_PREFIX}{secrets.token_hex(8)}",
            password=None,
            last_login=timezone.now(),
        )
        Player.objects.create(user=user, guest=True)
    return user


def player_is_guest(*, user: User | AnonymousUser) -> bool:
    """Whether the account is a guest that has not signed up."""
    if not user.is_authenticated:
        return False
    return Player.objects.filter(user=user, guest=True).exists()


def guest_convert(*, user: User, username: str, password: str) -> User:
    """Sign a guest up: the same account, so its games and figures stay, now with the name
    and password chosen (the name passed `username_validate`). Raises ValidationError (code
    "taken") when a concurrent sign-up took the name first (as `account_create`), or
    Forbidden when the account is not a guest (any more)."""
    user_model = get_user_model()
    with transaction.atomic():
        _name_claim(username)
        player = player_lock(user=user)
        if not player.guest:
            raise Forbidden(_("This account has signed up already."))
        converted: User = user_model.objects.select_for_update().get(pk=user.pk)
        converted.username = username
        converted.set_password(password)
        converted.date_joined = timezone.now()
        converted.save(update_fields=["username", "password", "date_joined"])
        player.guest = False
        player.save(update_fields=["guest"])
    return converted


def guests_remove(*, now: datetime.datetime) -> int:
    """Delete the guests unused for GUEST_DAYS: joined before then, and no game dealt or
    action played since (their games go with them: a guest has no ranked game, so nothing on a
    board refers to them). Returns how many were removed."""
    since = now - datetime.timedelta(days=settings.GUEST_DAYS)
    active = account_games().active_since(since)
    stale = (
        get_user_model().objects.filter(player__guest=True, date_joined__lt=since).exclude(active)
    )
    removed = 0
    for pk in stale.values_list("pk", flat=True).iterator():
        with transaction.atomic():
            # Checked again under the lock: the guest may have played meanwhile.
            user = (
                get_user_model()
                .objects.select_for_update()
                .filter(pk=pk, player__guest=True)
                .exclude(active)
                .first()
            )
            if user is not None:
                try:
                    user.delete()
                except ProtectedError:  # something ranked refers to it: not a mere guest
                    continue
                removed += 1
    return removed


# ---- the account's own changes (docs/api.md "Accounts") ------------------------------------------


def account_password_check(*, request: HttpRequest, user: User, password: object) -> None:
    """Raises InvalidRequest unless `password` is the account's, checked through axes (the
    failures count towards a lockout as a login's do)."""
    if not isinstance(password, str) or not password or len(password) > 4096:
        raise InvalidRequest(_("password must be a non-empty string"))
    checked = authenticate(request, username=user.get_username(), password=password)
    if checked is None or checked.pk != user.pk:
        raise InvalidRequest(_("Wrong password."))


def account_password_change(*, user: User, new_password: str) -> None:
    """Sets the new password (validated first: InvalidRequest with the reasons). The account's
    sessions end with it (Django checks a session against the password's hash), and so does
    every app's access (OAuth tokens and codes, the keys apps made with them, their open
    streams): a player changes a password when something may know it, and an app authorised
    then should ask again. The keys the player made stay valid (docs/api.md "Accounts")."""
    try:
        validate_password(new_password, user=user)
    except ValidationError as error:
        raise InvalidRequest(" ".join(error.messages)) from None
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        _oauth_tokens_forget(user)
        after_commit(credentials_changed)


def account_delete(*, user: User) -> str:
    """Closes the account for good: it can no longer log in, its keys and OAuth grants die, its
    name becomes `deleted-<n>` (n: its number) wherever it shows (boards, matches), and nothing
    else personal stays: no e-mail, no client-address hashes, no login records. Its games stay,
    so that ranked figures, and the ranks of everyone else, do not drift. Its old name is
    refused to new accounts for DELETED_NAME_DAYS (`ReservedName`). Returns the new name."""
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        old_name = user.get_username()
        user.username = f"deleted-{user.pk}"
        taken = get_user_model().objects.filter(username__iexact=user.username).exclude(pk=user.pk)
        if taken.exists():  # an account named so before the name was reserved
            user.username = f"deleted-{user.pk}-{secrets.randbelow(10**6)}"
        user.email = ""
        user.first_name = ""
        user.last_name = ""
        user.is_active = False
        user.is_staff = False
        user.is_superuser = False
        user.set_unusable_password()  # also ends its sessions: their hash no longer matches
        user.save()
        ApiKey.objects.filter(user=user).delete()
        _oauth_forget(user)
        account_games().client_hashes_forget(user=user)  # its games', its match seats', ...
        AccessAttempt.objects.filter(username__iexact=old_name).delete()
        now = timezone.now()
        if not player_is_guest(user=user):  # a guest's name is never anyone else's anyway
            ReservedName.objects.update_or_create(
                name_hash=reserved_name_hash(old_name), defaults={"deleted_at": now}
            )
        # Reservations past their time are dropped here: the table holds at most the names
        # deleted in the last DELETED_NAME_DAYS.
        expired = now - datetime.timedelta(days=settings.DELETED_NAME_DAYS)
        ReservedName.objects.filter(deleted_at__lte=expired).delete()
        # Its open streams close now, not at their process's next check (games/streams.py,
        # subscribed to accounts.services.credentials_changed).
        after_commit(credentials_changed)
    return str(user.get_username())


def _oauth_forget(user: User) -> None:
    from oauth2_provider.models import get_application_model

    _oauth_tokens_forget(user)
    get_application_model().objects.filter(user=user).delete()


def _oauth_tokens_forget(user: User) -> None:
    from oauth2_provider.models import (
        get_access_token_model,
        get_grant_model,
        get_refresh_token_model,
    )

    get_refresh_token_model().objects.filter(user=user).delete()
    get_access_token_model().objects.filter(user=user).delete()
    get_grant_model().objects.filter(user=user).delete()
