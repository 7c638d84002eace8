"""A game's stored state (its undo history: ~10 kB of JSON at the 100 snapshots of R24) is
compressed by PostgreSQL on every action; lz4 does it for a quarter less of the database's CPU
per action than the default pglz (docs/benchmarks.md). Values already stored keep their
compression until rewritten. PostgreSQL only (SQLite stores it as it is)."""

from django.db import migrations

COLUMN = "ALTER TABLE games_game ALTER COLUMN state SET COMPRESSION {}"


def compression_set(method: str):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(COLUMN.format(method))

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_game_streamed_until"),
    ]

    operations = [
        migrations.RunPython(compression_set("lz4"), compression_set("pglz")),
    ]
