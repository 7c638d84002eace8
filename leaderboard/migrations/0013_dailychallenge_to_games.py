"""DailyChallenge moves to the `games` app (games/migrations/0015_dailychallenge_from_leaderboard.py):
its entries' key names it there, and it is forgotten here, in Django's state only; its table
(leaderboard_dailychallenge) and the entries' column and constraint stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_dailychallenge_from_leaderboard"),
        ("leaderboard", "0012_entry_provisional"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="entry",
                    name="challenge",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="games.dailychallenge",
                    ),
                ),
                migrations.DeleteModel(name="DailyChallenge"),
            ],
            database_operations=[],
        ),
    ]
