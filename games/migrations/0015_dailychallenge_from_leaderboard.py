"""DailyChallenge moves from the `leaderboard` app to `games` (docs/contributing.md, "Layers":
foreign keys point down, and a daily game refers to its day), in Django's state only, as the
identity models moved to `accounts` (accounts/migrations/0002_identity_from_games.py). Its table
keeps its name (`db_table`: leaderboard_dailychallenge), so no row moves; `leaderboard` keeps the
migrations that made it (leaderboard/migrations/0013_dailychallenge_to_games.py forgets it there,
its entries' key then pointing here). The content type follows, so that permissions and admin
history stay attached."""

import django.db.models.deletion
from django.db import migrations, models

MODELS = ["dailychallenge"]


def content_types_move(apps, source, target):
    """The content types of MODELS from the app `source` to `target`; copies `target` has
    already give way to them (as in accounts/migrations/0001_from_keys.py)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    moved = ContentType.objects.filter(app_label=source, model__in=MODELS)
    ContentType.objects.filter(app_label=target, model__in=moved.values("model")).delete()
    moved.update(app_label=target)


def content_types_follow(apps, schema_editor):
    content_types_move(apps, "leaderboard", "games")


def content_types_back(apps, schema_editor):
    content_types_move(apps, "games", "leaderboard")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0014_identity_to_accounts"),
        ("leaderboard", "0012_entry_provisional"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DailyChallenge",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("date", models.DateField()),
                        ("draw", models.PositiveSmallIntegerField()),
                        ("deal_code", models.CharField(max_length=40)),
                        ("attempt", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("ends_at", models.DateTimeField()),
                        ("line", models.JSONField(blank=True, null=True)),
                        ("par", models.PositiveIntegerField(blank=True, null=True)),
                        ("par_exact", models.BooleanField(default=False)),
                    ],
                    options={
                        "db_table": "leaderboard_dailychallenge",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("date", "draw"), name="dailychallenge_unique_date_draw"
                            )
                        ],
                    },
                ),
                # The same column and constraint, on the same table: only the model it names moved.
                migrations.AlterField(
                    model_name="game",
                    name="challenge",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="games",
                        to="games.dailychallenge",
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
