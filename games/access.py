"""What a request reaches of games: the game its URL names, read with its credentials
(accounts.authentication), and the credential its streams live by."""

from __future__ import annotations

from rest_framework.request import Request

from accounts.authentication import TokenAuth
from games import selectors, services
from games.models import Game


def request_credential(request: Request) -> selectors.Credential | None:
    """What the request authenticated with (its key, OAuth token or session), None if nothing:
    what a stream opened by it lives by (games/streams.py)."""
    auth = request.auth
    if isinstance(auth, TokenAuth):
        if auth.key_id is not None:
            return selectors.Credential("key", auth.key_id)
        assert auth.oauth_token_id is not None
        return selectors.Credential("oauth", auth.oauth_token_id)
    if request.user.is_authenticated:
        return selectors.Credential("user", request.user.pk)
    return None


def game_read_for(request: Request, game_id: str) -> Game:
    """The game `game_id` if the caller may see it, else NotFound; the one read with the token
    when the request came with one. A daily game whose day is over is ended first (R26a)."""
    if isinstance(request.auth, TokenAuth):
        return services.game_read(game=request.auth.game, user=request.user)
    return services.game_get_for(game_id=game_id, user=request.user)
