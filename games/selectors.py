"""Reads of games, with the visibility rules (API.md "Games") in one place."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model, QuerySet
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.errors import NotFound
from games.models import Action, Game


def game_is_private(game: Game) -> bool:
    """True while only the owner may see the game: in progress, or a daily game whose day is
    not over (its deal would help the players still on it)."""
    if game.status == Game.Status.PLAYING:
        return True
    return game.challenge is not None and timezone.now() < game.challenge.ends_at


def game_visible_to(game: Game | None, *, user: Any) -> Game:
    """`game` if `user` may see it, else NotFound (never tells a hidden game exists)."""
    if game is None or (game_is_private(game) and game.owner_id != getattr(user, "pk", None)):
        raise NotFound("no such game")
    return game


def _game_pk(game_id: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        return None


def game_get_for(*, game_id: Any, user: Any) -> Game:
    """The game if `user` may see it, else NotFound."""
    pk = _game_pk(game_id)
    # No select_related("challenge"): on the action path the join costs more than the lazy
    # load that only daily games need.
    game = None if pk is None else Game.objects.filter(pk=pk).first()
    return game_visible_to(game, user=user)


@functools.cache
def _row_reader(model: type[Model]) -> tuple[str, list[Any]]:
    """The select list of all of `model`'s columns, and per column the converters the ORM
    would apply to its value (JSON text to objects, SQLite's text to UUIDs, ...)."""
    table = model._meta.db_table
    quote = connection.ops.quote_name
    columns, converters = [], []
    for field in model._meta.concrete_fields:
        columns.append(f"{quote(table)}.{quote(field.column)}")
        col = field.get_col(table)
        converters.append(
            (col, connection.ops.get_db_converters(col) + col.get_db_converters(connection))
        )
    return ", ".join(columns), converters


def _instance(model: type[Model], values: Sequence[Any]) -> Any:
    _, converters = _row_reader(model)
    converted = []
    for value, (col, functions) in zip(values, converters, strict=True):
        for function in functions:
            value = function(value, col, connection)
        converted.append(value)
    fields = [field.attname for field in model._meta.concrete_fields]
    return model.from_db(connection.alias, fields, converted)


def token_user_and_game(*, key: str, game_id: Any) -> tuple[Any, Game | None] | None:
    """The user of API token `key` and the game `game_id` (None if there is no such game), in
    one query: the game endpoints' requests authenticate and read their game in one round trip
    (bench/api.py). None if the token is unknown. Visibility is the caller's: game_visible_to."""
    user_model = get_user_model()
    user_columns, user_converters = _row_reader(user_model)
    game_columns, _ = _row_reader(Game)
    pk = _game_pk(game_id)
    quote = connection.ops.quote_name
    token, game_table = quote(Token._meta.db_table), quote(Game._meta.db_table)
    user_table, user_pk = quote(user_model._meta.db_table), quote(user_model._meta.pk.column)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {user_columns}, {game_columns} FROM {token} "
            f"JOIN {user_table} ON {user_table}.{user_pk} = {token}.{quote('user_id')} "
            f"LEFT JOIN {game_table} ON {game_table}.{quote('id')} = %s "
            f"WHERE {token}.{quote('key')} = %s",
            [Game._meta.pk.get_db_prep_value(pk, connection), key],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(user_converters)
    game = None if row[split] is None else _instance(Game, row[split:])
    return _instance(user_model, row[:split]), game


def game_list_for(*, user: Any) -> QuerySet[Game]:
    """The user's own games, newest first."""
    return Game.objects.select_related("challenge").filter(owner=user).order_by("-created_at")


def action_list_for(*, game: Game) -> QuerySet[Action]:
    """The game's log, oldest first."""
    return Action.objects.filter(game=game).order_by("n")
