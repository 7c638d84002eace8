"""Entry.home: how far the entry's game got (the cards on its foundations), for the boards'
"35 of 52 cards home" (issue 22). Existing entries take it from their game's state."""

from django.db import migrations, models

from games.engine import Game as EngineGame


def fill_home(apps, schema_editor):
    Entry = apps.get_model("leaderboard", "Entry")
    batch = []
    for entry in Entry.objects.select_related("game").only("id", "game__state").iterator(2000):
        entry.home = sum(EngineGame.from_dict(entry.game.state).found)
        batch.append(entry)
        if len(batch) >= 2000:
            Entry.objects.bulk_update(batch, ["home"])
            batch = []
    Entry.objects.bulk_update(batch, ["home"])


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0010_board_order_population"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="home",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.RunPython(fill_home, migrations.RunPython.noop),
    ]
