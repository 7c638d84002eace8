"""Model fields of the platform layer."""

from __future__ import annotations

from typing import Any

import orjson
from django.core.exceptions import ValidationError
from django.db import models


class StoredJsonField(models.TextField[Any, Any]):
    """A JSON value stored as its text (any JSON value in, any out: the generic arguments),
    for a value that is written and read whole, never queried inside (a game's state:
    games.models.Game.state).

    On PostgreSQL a `jsonb` column parses the text on every write and prints it again on every
    read: for a game's ~10 kB state that was about a tenth of the database's CPU per action
    (docs/benchmarks.md). A `text` column keeps the text as it came, compressed alike. orjson
    writes and reads the text (a sixth of the json module's time for the state)."""

    description = "A JSON value stored as text"
    # What django-stubs' plugin reads as the attribute's types (TextField says str).
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else orjson.loads(value)

    def to_python(self, value: Any) -> Any:
        """The value (from a form or a fixture: its JSON text, parsed)."""
        if isinstance(value, str):
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError as error:
                raise ValidationError(f"not JSON: {error}") from None
        return value

    def get_prep_value(self, value: Any) -> str | None:
        return None if value is None else json_text(value)

    def value_to_string(self, obj: models.Model) -> str:
        """The JSON text (dumpdata), which `to_python` reads back (loaddata)."""
        return json_text(self.value_from_object(obj))


def json_text(value: Any) -> str:
    """`value` as compact JSON text, as StoredJsonField stores it."""
    return orjson.dumps(value).decode()
