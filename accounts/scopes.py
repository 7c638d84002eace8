"""Which scope each API operation needs (docs/api.md "Accounts"), declared here and only here.

Every API view checks `ScopeRequired` (the default permission classes name it; views that set
their own add it), which looks up the operation by its URL name and method. A key or OAuth
token without the scope gets 403 `forbidden` with `"params": {"missing_scope": ...}`, except
on reads anyone may make (board:read): there it is answered as an anonymous caller would be,
with the address's limits (a key can do no less than no key); a session (the site) has every
scope. tests/accounts/test_scopes.py walks every operation of the
schema against this table, so a new endpoint without an entry fails there.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from accounts.authentication import request_scopes
from core.errors import Forbidden

ACCOUNT_READ, ACCOUNT_WRITE, GAME_PLAY, BOARD_READ = (
    "account:read",
    "account:write",
    "game:play",
    "board:read",
)

# What each scope lets an app do, as the consent page and the keys page say it.
SCOPE_WORDS = {
    ACCOUNT_READ: gettext_lazy("see your account, your games and your keys"),
    ACCOUNT_WRITE: gettext_lazy("change your account and its keys"),
    GAME_PLAY: gettext_lazy("deal games and play them in your name"),
    BOARD_READ: gettext_lazy("read games, boards and players as anyone may"),
}

# (URL name, method) -> the scope it needs; None: open to anyone, keys or not.
OPERATION_SCOPES: dict[tuple[str, str], str | None] = {
    ("ping", "GET"): None,
    ("auth-register", "POST"): None,
    ("auth-token", "POST"): None,
    ("games", "GET"): ACCOUNT_READ,
    ("games", "POST"): GAME_PLAY,
    ("game", "GET"): BOARD_READ,
    ("game-actions", "GET"): BOARD_READ,
    ("game-actions", "POST"): GAME_PLAY,
    ("game-legal-actions", "GET"): BOARD_READ,
    ("game-hint", "GET"): GAME_PLAY,
    ("game-text", "GET"): BOARD_READ,
    ("game-analysis", "GET"): BOARD_READ,
    ("game-stream", "GET"): BOARD_READ,
    ("player-games", "GET"): BOARD_READ,
    ("account", "GET"): ACCOUNT_READ,
    ("account", "DELETE"): ACCOUNT_WRITE,
    ("account-bot", "POST"): ACCOUNT_WRITE,
    ("account-password", "POST"): ACCOUNT_WRITE,
    ("account-export", "GET"): ACCOUNT_READ,
    ("account-events", "GET"): ACCOUNT_READ,
    ("account-tokens", "GET"): ACCOUNT_READ,
    ("account-tokens", "POST"): ACCOUNT_WRITE,
    ("account-token", "DELETE"): ACCOUNT_WRITE,
    ("daily", "GET"): BOARD_READ,
    ("daily-day", "GET"): BOARD_READ,
    ("daily-leaderboard", "GET"): BOARD_READ,
    ("player", "GET"): BOARD_READ,
    ("player-stats", "GET"): BOARD_READ,
    ("matches", "GET"): ACCOUNT_READ,
    ("matches", "POST"): GAME_PLAY,
    ("match", "GET"): BOARD_READ,
    ("challenges", "GET"): ACCOUNT_READ,
    ("challenges", "POST"): GAME_PLAY,
    ("challenge", "GET"): ACCOUNT_READ,
    ("challenge-accept", "POST"): GAME_PLAY,
    ("challenge-decline", "POST"): GAME_PLAY,
    ("challenge-cancel", "POST"): GAME_PLAY,
    ("ratings", "GET"): BOARD_READ,
    ("ratings-weekly", "GET"): BOARD_READ,
    ("player-ratings", "GET"): BOARD_READ,
}
# A game read by a key made to play it: its player's bot must see the game it plays.
ALSO_ENOUGH = {BOARD_READ: {GAME_PLAY}}


def operation_scope(url_name: str | None, method: str) -> str | None:
    """The scope the operation needs. An operation missing from the table (a new endpoint
    before its entry) needs board:read to read and game:play to write."""
    method = "GET" if method in ("HEAD", "OPTIONS") else method
    try:
        return OPERATION_SCOPES[(url_name or "", method)]
    except KeyError:
        return BOARD_READ if method == "GET" else GAME_PLAY


class ScopeRequired(BasePermission):
    """Refuses a key or token that lacks the operation's scope (403, `missing_scope`)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        match = request._request.resolver_match
        needed = operation_scope(match.url_name if match else None, request.method or "GET")
        if needed is None:
            return True
        scopes = request_scopes(request)
        if needed in scopes or scopes & ALSO_ENOUGH.get(needed, set()):
            return True
        if needed == BOARD_READ:  # what anyone may read: read as anyone (throttles come next)
            request.user, request.auth = AnonymousUser(), None
            return True
        raise MissingScope(needed)


class MissingScope(Forbidden):
    def __init__(self, scope: str) -> None:
        message = _("This key lacks the scope %(scope)s needed here.") % {"scope": scope}
        super().__init__(message, params={"missing_scope": scope})
