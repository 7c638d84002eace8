"""Reads for the pages that the REST API does not serve as such (a player's public games, the
frames of a replay)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from games import services
from games.engine import Action as EngineAction
from games.models import Game
from web.strings import action_caption


def game_list_public_for(*, username: str, limit: int = 20) -> QuerySet[Game]:
    """The player's finished games that anyone may see (API.md: not a daily game whose day is
    still running), newest first."""
    return (
        Game.objects.select_related("challenge")
        .filter(owner__username=username)
        .exclude(status=Game.Status.PLAYING)
        .filter(Q(challenge__isnull=True) | Q(challenge__ends_at__lte=timezone.now()))
        .order_by("-created_at")[:limit]
    )


def replay_frames(*, game: Game) -> list[dict[str, Any]]:
    """The table before the first action and after each one, rebuilt from the deal and the log
    by the engine, with the logged action that led to each frame and its caption in words."""
    engine = services.game_engine_new(game)
    frames = [{"action": None, "caption": "", "view": engine.public_view()}]
    for row in game.actions.order_by("n"):
        engine.apply(EngineAction.from_dict(services.logged_action(row)))
        frames.append(
            {
                "action": {
                    "n": row.n,
                    "type": row.type,
                    "from": row.from_pile,
                    "to": row.to_pile,
                    "cards": row.cards,
                },
                "caption": action_caption(
                    type=row.type, from_pile=row.from_pile, to_pile=row.to_pile, cards=row.cards
                ),
                "view": engine.public_view(),
            }
        )
    return frames
