"""Authentication of API clients: an API key after `Authorization: Token` or `Bearer` alike,
or an OAuth 2.0 access token after either word (docs/api.md "Accounts").

An API key is looked up by its SHA-256 (only that is stored: accounts.models.ApiKey) in one plain
SQL query (every API request authenticates, and the ORM's query compilation was the largest
part of the lookup). On the endpoints of one game (URLs with a `game_id`), the same query reads
that game too, so an action costs one read before its write instead of two (measured:
bench/api.py). The game rides on `request.auth`; the views take it with `game_read_for`
(games/access.py). `games` lends that query (`GameReaders`): this layer does not import it.
A `Bearer` value that is no API key is tried as an OAuth access token (django-oauth-toolkit
stores only its checksum too).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts import services as key_services

ALL_SCOPES = frozenset(key_services.SCOPES)


class FoundKey(Protocol):
    """What `token_user_and_game` tells of a key (games.selectors.KeyFound)."""

    @property
    def id(self) -> str: ...
    @property
    def scopes(self) -> frozenset[str]: ...
    @property
    def expires(self) -> datetime.datetime | None: ...
    @property
    def last_used(self) -> datetime.datetime | None: ...
    @property
    def user(self) -> User: ...
    @property
    def game(self) -> object: ...


@dataclass(frozen=True)
class GameReaders:
    """What `games` lends the authentication, registered from its AppConfig's `ready`
    (`game_readers_provide`), as this layer imports no app above it (docs/contributing.md,
    "Layers"): `token_user_and_game(key_hash=, game_id=)` reads a key with its user and the game
    the URL names in one query (games.selectors.token_user_and_game), `game_find(game_id)` a
    game alone."""

    token_user_and_game: Callable[..., FoundKey | None]
    game_find: Callable[[object], object]


_game_readers: list[GameReaders] = []


def game_readers_provide(readers: GameReaders) -> None:
    """Install the game readers (called once, from an AppConfig's `ready`)."""
    _game_readers[:] = [readers]


def game_readers() -> GameReaders:
    """The installed game readers (the `games` app is always installed with `accounts`)."""
    if not _game_readers:
        raise RuntimeError("no game readers installed: add `games` to INSTALLED_APPS")
    return _game_readers[0]


class AuthenticatedRequest(Request):
    """The request of a view whose permissions let only an account in (IsAuthenticated, or a
    scope's): its user is never anonymous (the annotation only, as web's
    AuthenticatedHttpRequest; nothing changes at run time)."""

    user: User


@dataclass(frozen=True)
class TokenAuth:
    """`request.auth` of a key or OAuth request: the key's id (None for an OAuth token), its
    scopes, the game the URL names as read with the user (None if it names none, or no such
    game; not yet checked for visibility), and the OAuth access token's id (None for a key)."""

    key_id: str | None
    scopes: frozenset[str]
    game: Any  # a games.models.Game, or None
    oauth_token_id: int | None = None


def request_scopes(request: Request) -> frozenset[str]:
    """The scopes of the request's credentials: a key's or a token's; every scope for a
    session (the site) and for anonymous callers (whose limits are those of anonymity)."""
    auth = getattr(request, "auth", None)
    return auth.scopes if isinstance(auth, TokenAuth) else ALL_SCOPES


class TokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[User, TokenAuth] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in (b"token", b"bearer"):
            return None
        # One instance per request: the keyword DRF names in WWW-Authenticate is this request's.
        self.keyword = "Bearer" if parts[0].lower() == b"bearer" else "Token"
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header: give the key after the word, without spaces.")
            )
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header: the key has characters no key has.")
            ) from None
        game_id = (request.parser_context or {}).get("kwargs", {}).get("game_id")
        return self.authenticate_credentials(key, game_id=game_id)

    def authenticate_credentials(
        self, key: str, *, game_id: object = None
    ) -> tuple[Any, TokenAuth]:
        # Its user could be User: games/consumers.py assigns a session's user (or an anonymous
        # one) to the same variable, so Any stays until that module annotates it.
        now = timezone.now()
        found = game_readers().token_user_and_game(
            key_hash=key_services.key_hash(key), game_id=game_id
        )
        if found is None:
            oauth = _oauth_token(key, game_id=game_id)  # after either word, as a key
            if oauth is not None:
                return oauth
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if found.expires is not None and found.expires <= now:
            raise exceptions.AuthenticationFailed(_("This key has expired."))
        if not found.user.is_active:
            raise exceptions.AuthenticationFailed(_("This account is closed."))
        key_services.key_touch(key_id=found.id, last_used=found.last_used, now=now)
        return found.user, TokenAuth(key_id=found.id, scopes=found.scopes, game=found.game)

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


def _oauth_token(token: str, *, game_id: object) -> tuple[User, TokenAuth] | None:
    """The user and scopes of a valid OAuth access token `token`; None if there is no such
    token. An expired one, or one of a closed account, is refused saying so (an app refreshes
    an expired token: RFC 6749 6)."""
    from oauth2_provider.models import get_access_token_model

    row = (
        get_access_token_model()
        .objects.select_related("user")
        .filter(token_checksum=key_services.key_hash(token))
        .first()
    )
    if row is None or row.user is None:
        return None
    if row.is_expired():
        raise exceptions.AuthenticationFailed(_("This access token has expired: refresh it."))
    if not row.user.is_active:
        raise exceptions.AuthenticationFailed(_("This account is closed."))
    scopes = frozenset(row.scope.split()) & ALL_SCOPES
    key_services.oauth_token_touch(token_id=row.pk, updated=row.updated, now=timezone.now())
    game = game_readers().game_find(game_id)
    return row.user, TokenAuth(key_id=None, scopes=scopes, game=game, oauth_token_id=row.pk)
