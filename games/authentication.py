"""Token authentication for API clients: DRF's TokenAuthentication, taking the key after
`Authorization: Token` or `Bearer` alike, with its lookup as one plain SQL query (every API
request authenticates, and the ORM's query compilation was the largest part of the lookup).

On the endpoints of one game (URLs with a `game_id`), the same query reads that game too, so an
action costs one read before its write instead of two (measured: bench/api.py). The game rides
on `request.auth`; the views take it with `game_read_for`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

from games import selectors, services
from games.models import Game


@dataclass(frozen=True)
class TokenAuth:
    """`request.auth` of a token request: the token, and the game the URL names as read with
    the user (None if it names none, or no such game; not yet checked for visibility)."""

    key: str
    game: Game | None


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        self.game_id = (request.parser_context or {}).get("kwargs", {}).get("game_id")
        # One instance per request: the keyword DRF checks is the one this request used.
        if get_authorization_header(request).lower().split()[:1] == [b"bearer"]:
            self.keyword = "Bearer"
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, TokenAuth]:
        found = selectors.token_user_and_game(key=key, game_id=self.game_id)
        if found is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        user, game = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return user, TokenAuth(key=key, game=game)


def game_read_for(request: Request, game_id: str) -> Game:
    """The game `game_id` if the caller may see it, else NotFound; the one read with the token
    when the request came with one. A daily game whose day is over is ended first (R26a)."""
    if isinstance(request.auth, TokenAuth):
        return services.game_read(game=request.auth.game, user=request.user)
    return services.game_get_for(game_id=game_id, user=request.user)
