"""A match game's seat (R32). `matches.MatchPlayer.game` refers to its game, and the game never
to its match, so that foreign keys point down the layers (docs/contributing.md, "Layers"): what
games asks of a game's match goes through the seat, `Game.match_seat` (the reverse side of that
key; a game of no match has none). Games' readers join it (`SEAT`, `SEAT_MATCH` in
`select_related`, or selectors.token_user_and_game's one query), so asking costs no query."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, OneToOneRel

from core.rows import field_column
from games.models import Game

SEAT = "match_seat"
SEAT_MATCH = "match_seat__match"


def game_seat(game: Game) -> Any:
    """The game's seat in its match (a `matches.MatchPlayer`), None for any other game: a daily
    game's without asking (a game is a day's or a match's, never both)."""
    if game.challenge_id is not None:
        return None
    return getattr(game, SEAT, None)  # (a missing seat's error is an AttributeError)


def game_match_id(game: Game) -> Any:
    """The id of the match the game is a seat of, None for any other game."""
    seat = game_seat(game)
    return None if seat is None else seat.match_id


def game_seat_known(game: Game, seat: Any) -> None:
    """Tell `game` its seat (None: it has none) as a join would, so that asking costs no query:
    a game just dealt, or read in plain SQL."""
    _seat_relation().set_cached_value(game, seat)


def seat_model() -> tuple[type[Model], str]:
    """The seats' model (matches.MatchPlayer: games imports nothing of matches) and the column
    of its key to the game, for a read in plain SQL."""
    relation = _seat_relation()
    return relation.related_model, field_column(relation.field)


def _seat_relation() -> OneToOneRel:
    relation = Game._meta.get_field(SEAT)
    assert isinstance(relation, OneToOneRel)
    return relation
