"""Reads of games, with the visibility rules (API.md "Games") in one place."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games.errors import NotFound
from games.models import Action, Game


def game_is_private(game: Game) -> bool:
    """True while only the owner may see the game: in progress, or a daily game whose day is
    not over (its deal would help the players still on it)."""
    if game.status == Game.Status.PLAYING:
        return True
    return game.challenge is not None and timezone.now() < game.challenge.ends_at


def game_get_for(*, game_id: Any, user: Any) -> Game:
    """The game if `user` may see it, else NotFound (never tells a hidden game exists)."""
    try:
        pk = uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound("no such game") from None
    try:
        # No select_related("challenge"): on the action path the join costs more than the
        # lazy load that only daily games need.
        game = Game.objects.get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound("no such game") from None
    if game_is_private(game) and game.owner_id != getattr(user, "pk", None):
        raise NotFound("no such game")
    return game


def game_list_for(*, user: Any) -> QuerySet[Game]:
    """The user's own games, newest first."""
    return Game.objects.select_related("challenge").filter(owner=user).order_by("-created_at")


def action_list_for(*, game: Game) -> QuerySet[Action]:
    """The game's log, oldest first."""
    return Action.objects.filter(game=game).order_by("n")
