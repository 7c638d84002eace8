import datetime

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_action_auto_finish"),
        ("leaderboard", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="dailychallenge",
            name="ends_at",
            # No challenge exists before this migration: the default is never stored.
            field=models.DateTimeField(
                default=datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
            ),
            preserve_default=False,
        ),
        migrations.CreateModel(
            name="Entry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("status", models.CharField(default="playing", max_length=16)),
                ("score", models.IntegerField(default=0)),
                ("moves", models.IntegerField(default=0)),
                ("started_at", models.DateTimeField()),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                ("reached_at", models.DateTimeField()),
                (
                    "challenge",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="leaderboard.dailychallenge",
                    ),
                ),
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entry",
                        to="games.game",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="daily_entries",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("challenge", "player"), name="entry_unique_player"
                    )
                ],
                "indexes": [
                    models.Index(
                        fields=["challenge", "-score", "moves"], name="entry_board_order"
                    ),
                    models.Index(
                        fields=["player", "challenge"], name="entry_player_challenge"
                    ),
                ],
            },
        ),
    ]
