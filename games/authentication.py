"""Token authentication for the endpoints of one game (`games/<game_id>/...`).

The token's user and the game the URL names are read in one query, so an action costs one
read before its write instead of two (measured: bench/api.py). The game rides on `request.auth`
and the views take it from there with `game_read_for`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework import exceptions
from rest_framework.request import Request

from canfield_site.authentication import TokenAuthentication
from games import selectors
from games.models import Game


@dataclass(frozen=True)
class GameToken:
    """`request.auth` of a token request on a game endpoint: the token, and the game its URL
    names as read with the user (None if there is no such game; not yet checked for
    visibility)."""

    key: str
    game: Game | None


class GameTokenAuthentication(TokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        self.game_id = request.parser_context["kwargs"].get("game_id")
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, GameToken]:
        found = selectors.token_user_and_game(key=key, game_id=self.game_id)
        if found is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        user, game = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return user, GameToken(key=key, game=game)


def game_read_for(request: Request, game_id: str) -> Game:
    """The game `game_id` if the caller may see it, else NotFound; read with the token when
    the request came with one."""
    if isinstance(request.auth, GameToken):
        return selectors.game_visible_to(request.auth.game, user=request.user)
    return selectors.game_get_for(game_id=game_id, user=request.user)
