"""The API keys' and redeemed codes' models move from the `keys` app to `accounts`: in Django's
state only. Their tables keep their names (`db_table`), so no row moves; `keys` keeps the
migrations that made them (keys/migrations/0004_models_to_accounts.py forgets them there).
The content types follow, so that permissions and admin history stay attached."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ["apikey", "redeemedcode"]


def content_types_move(apps, source, target):
    """The content types of MODELS from the app `source` to `target`. Where `target` has them
    already, made again by a `migrate` in between (post_migrate makes the content types of the
    models the code has, new and empty), those give way to the moved ones, which permissions and
    admin history refer to."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    moved = ContentType.objects.filter(app_label=source, model__in=MODELS)
    ContentType.objects.filter(app_label=target, model__in=moved.values("model")).delete()
    moved.update(app_label=target)


def content_types_follow(apps, schema_editor):
    content_types_move(apps, "keys", "accounts")


def content_types_back(apps, schema_editor):
    content_types_move(apps, "accounts", "keys")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        ("keys", "0003_oauth_family_and_redeemed_codes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RedeemedCode",
                    fields=[
                        (
                            "code_hash",
                            models.CharField(max_length=64, primary_key=True, serialize=False),
                        ),
                        ("token_family", models.UUIDField()),
                        ("redeemed", models.DateTimeField(db_index=True)),
                    ],
                    options={"db_table": "keys_redeemedcode"},
                ),
                migrations.CreateModel(
                    name="ApiKey",
                    fields=[
                        (
                            "id",
                            models.CharField(max_length=16, primary_key=True, serialize=False),
                        ),
                        ("key_hash", models.CharField(max_length=64, unique=True)),
                        ("name", models.CharField(max_length=100)),
                        ("scopes", models.CharField(max_length=200)),
                        ("created", models.DateTimeField()),
                        ("expires", models.DateTimeField(blank=True, null=True)),
                        ("last_used", models.DateTimeField(blank=True, null=True)),
                        ("oauth_family", models.UUIDField(blank=True, null=True)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="api_keys",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "keys_apikey",
                        "indexes": [
                            models.Index(fields=["user", "created"], name="apikey_user_created")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
