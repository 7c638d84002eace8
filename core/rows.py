"""Model instances from rows read in plain SQL (the hot paths' one-query reads: a key with its
game, a match's seats, a player's row locked by an upsert): the select list of a model's columns
and the converters the ORM would apply to their values, so that a row becomes the instance the
ORM would have made."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

_M = TypeVar("_M", bound=Model)


def field_column(field: Field[Any, Any]) -> str:
    """A concrete field's column (django-stubs allow None: a field without a column)."""
    if field.column is None:
        raise TypeError(f"{field} has no column")
    return field.column


@functools.cache
def row_reader(model: type[Model]) -> tuple[str, list[str], list[tuple[int, Any, list[Any]]]]:
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
    columns = ", ".join(f"{quote(table)}.{quote(field_column(field))}" for field in fields)
    return columns, [field.attname for field in fields], converters


def row_instance(db: BaseDatabaseWrapper, model: type[_M], values: Sequence[Any]) -> _M:
    """The instance of `model` whose columns (in `row_reader`'s order) are `values`."""
    _, attnames, converters = row_reader(model)
    converted = list(values)
    for index, col, functions in converters:
        for function in functions:
            converted[index] = function(converted[index], col, db)
    return model.from_db(db.alias, attnames, converted)
