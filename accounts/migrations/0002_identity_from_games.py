"""The identity models move from the `games` app to `accounts` (docs/contributing.md, "Layers"):
Player, ReservedName, AccountEvent and EventClock, in Django's state only, as the keys' did
(0001_from_keys.py). Their tables keep their names (`db_table`: games_player, ...), so no row
moves; `games` keeps the migrations that made them (games/migrations/0014_identity_to_accounts.py
forgets them there). The content types follow, so that permissions and admin history stay
attached."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ["player", "reservedname", "accountevent", "eventclock"]


def content_types_move(apps, source, target):
    """The content types of MODELS from the app `source` to `target`; copies `target` has
    already give way to them (as in 0001_from_keys.py)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    moved = ContentType.objects.filter(app_label=source, model__in=MODELS)
    ContentType.objects.filter(app_label=target, model__in=moved.values("model")).delete()
    moved.update(app_label=target)


def content_types_follow(apps, schema_editor):
    content_types_move(apps, "games", "accounts")


def content_types_back(apps, schema_editor):
    content_types_move(apps, "accounts", "games")


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0001_from_keys"),
        ("games", "0013_account_event_seq"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="player",
                                serialize=False,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        ("bot", models.BooleanField(default=False)),
                        ("bot_since", models.DateTimeField(blank=True, null=True)),
                        ("guest", models.BooleanField(default=False)),
                    ],
                    options={"db_table": "games_player"},
                ),
                migrations.CreateModel(
                    name="ReservedName",
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
                        ("name_hash", models.CharField(max_length=64, unique=True)),
                        ("deleted_at", models.DateTimeField()),
                    ],
                    options={"db_table": "games_reservedname"},
                ),
                migrations.CreateModel(
                    name="AccountEvent",
                    fields=[
                        ("id", models.BigAutoField(primary_key=True, serialize=False)),
                        ("seq", models.BigIntegerField(blank=True, null=True, unique=True)),
                        ("kind", models.CharField(max_length=40)),
                        ("data", models.JSONField(default=dict)),
                        ("at", models.DateTimeField(db_index=True)),
                        (
                            "once",
                            models.CharField(blank=True, max_length=60, null=True, unique=True),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_accountevent",
                        "indexes": [
                            models.Index(
                                fields=["user", "seq"], name="games_accou_user_id_aad42e_idx"
                            ),
                            models.Index(
                                condition=models.Q(("seq__isnull", True)),
                                fields=["id"],
                                name="accountevent_unstamped",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="EventClock",
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
                        ("last", models.BigIntegerField(default=0)),
                    ],
                    options={"db_table": "games_eventclock"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
