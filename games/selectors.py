"""Reads of games, with the visibility rules (API.md "Games") in one place."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import (
    DEFAULT_DB_ALIAS,
    InterfaceError,
    OperationalError,
    connection,
    connections,
)
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from games.errors import NotFound
from games.models import Action, Game


def game_is_private(game: Game) -> bool:
    """True while only the owner may see the game: in progress, or a daily game whose day is
    not over (its deal would help the players still on it)."""
    if game.status == Game.Status.PLAYING:
        return True
    if game.match_id is not None:  # R32: until its match is finished (or cancelled)
        return game.match.status == "open"  # type: ignore[union-attr]
    return game.challenge is not None and timezone.now() < game.challenge.ends_at


def game_code_shown(game: Game) -> str | None:
    """The deal code as others may see it (R19): a practice game's always (the player chose
    it), any other game's only once it is no longer private (a random game that has ended, a
    daily game once its day is over too). None for a custom deck."""
    if game_is_private(game) and not game.practice:
        return None
    return game.deal_code


def game_visible_to(game: Game | None, *, user: Any) -> Game:
    """`game` if `user` may see it, else NotFound (never tells a hidden game exists)."""
    if game is None or (game_is_private(game) and game.owner_id != getattr(user, "pk", None)):
        raise NotFound(_("No such game."))
    return game


def _game_pk(game_id: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        return None


def game_find(game_id: Any) -> Game | None:
    """The game `game_id`, whoever may see it (games.services.game_get_for checks that)."""
    pk = _game_pk(game_id)
    # No select_related("challenge"): on the action path the join costs more than the lazy
    # load that only daily games need.
    return None if pk is None else Game.objects.filter(pk=pk).first()


@functools.cache
def _row_reader(model: type[Model]) -> tuple[str, list[str], list[tuple[int, Any, list[Any]]]]:
    """The select list of all of `model`'s columns, their attribute names, and the converters
    the ORM would apply to their values (JSON text to objects, SQLite's text to UUIDs, ...)."""
    table = model._meta.db_table
    quote = connection.ops.quote_name
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        col = field.get_col(table)
        functions = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if functions:
            converters.append((index, col, functions))
    columns = ", ".join(f"{quote(table)}.{quote(field.column)}" for field in fields)
    return columns, [field.attname for field in fields], converters


def _instance(db: BaseDatabaseWrapper, model: type[Model], values: Sequence[Any]) -> Any:
    _, attnames, converters = _row_reader(model)
    converted = list(values)
    for index, col, functions in converters:
        for function in functions:
            converted[index] = function(converted[index], col, db)
    return model.from_db(db.alias, attnames, converted)


def _fetch_one(db: BaseDatabaseWrapper, sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    """The first row of a read that may be a request's first query.

    On a connection kept from an earlier request, Django first checks it with a round trip of
    its own (CONN_HEALTH_CHECKS). This read is that check instead: if the connection has died
    since (the database restarted, say), it reconnects and reads once more.
    """
    unchecked = (
        db.connection is not None
        and db.health_check_enabled
        and not db.health_check_done
        and not db.in_atomic_block
    )

    def read() -> tuple[Any, ...] | None:
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()

    if unchecked:
        db.health_check_done = True
        try:
            return read()
        except (OperationalError, InterfaceError):
            db.close()
    return read()


@functools.cache
def _token_user_and_game_sql() -> str:
    user_model = get_user_model()
    quote = connection.ops.quote_name
    token, game = quote(Token._meta.db_table), quote(Game._meta.db_table)
    user, user_pk = quote(user_model._meta.db_table), quote(user_model._meta.pk.column)
    return (
        f"SELECT {_row_reader(user_model)[0]}, {_row_reader(Game)[0]} FROM {token} "
        f"JOIN {user} ON {user}.{user_pk} = {token}.{quote('user_id')} "
        f"LEFT JOIN {game} ON {game}.{quote('id')} = %s "
        f"WHERE {token}.{quote('key')} = %s"
    )


def token_user_and_game(*, key: str, game_id: Any) -> tuple[Any, Game | None] | None:
    """The user of API token `key` and the game `game_id` (None if there is no such game), in
    one query: the game endpoints' requests authenticate and read their game in one round trip
    (bench/api.py). None if the token is unknown. Visibility is the caller's: game_visible_to,
    after games.services.game_read ends a game whose day is over."""
    db = connections[DEFAULT_DB_ALIAS]  # the wrapper itself: each use of the proxy costs a lookup
    pk = Game._meta.pk.get_db_prep_value(_game_pk(game_id), db)
    row = _fetch_one(db, _token_user_and_game_sql(), [pk, key])
    if row is None:
        return None
    user_model = get_user_model()
    split = len(user_model._meta.concrete_fields)
    game = None if row[split] is None else _instance(db, Game, row[split:])
    return _instance(db, user_model, row[:split]), game


def game_list_for(
    *, user: Any, status: str | None = None, daily: bool | None = None
) -> QuerySet[Game]:
    """The user's own games, newest first; only those of `status`, and only ranked daily games
    (daily=True) or only the others (daily=False), if given."""
    games = Game.objects.select_related("challenge").filter(owner=user)
    if status is not None:
        games = games.filter(status=status)
    if daily is not None:
        games = games.filter(challenge__isnull=not daily)
    return games.order_by("-created_at")


def action_list_for(*, game: Game) -> QuerySet[Action]:
    """The game's log, oldest first."""
    return Action.objects.filter(game=game).order_by("n")
