"""A game's state is stored as the JSON text it is written as (core.fields.StoredJsonField):
PostgreSQL's jsonb parsed its ~10 kB on every action's write and printed it again on every read
(docs/benchmarks.md). Changing the column's type resets its compression: lz4 again (0019)."""

from django.db import migrations

import core.fields

COMPRESSION = "ALTER TABLE games_game ALTER COLUMN state SET COMPRESSION lz4"


def compression_lz4(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(COMPRESSION)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_game_state_lz4"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="state",
            field=core.fields.StoredJsonField(),
        ),
        migrations.RunPython(compression_lz4, compression_lz4),
    ]
