"""The keys made before keys were hashed (DRF's authtoken table, one per account) become API
keys with every scope: same key, now stored as its first 8 characters and its SHA-256. The old
table, which held the keys themselves, is dropped."""

import hashlib

from django.db import migrations

SCOPES = "account:read account:write game:play board:read"
TABLE = "authtoken_token"


def hash_old_keys(apps, schema_editor):
    connection = schema_editor.connection
    if TABLE not in connection.introspection.table_names():
        return  # a new database: DRF's table was never made
    ApiKey = apps.get_model("keys", "ApiKey")
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {quote('key')}, {quote('user_id')}, {quote('created')} FROM {TABLE}")
        rows = cursor.fetchall()
    taken: set[str] = set()
    keys = []
    for key, user_id, created in rows:
        prefix = next(
            key[:length] for length in (8, 10, 12, 16) if key[:length] not in taken
        )  # two old keys starting alike: a longer prefix
        taken.add(prefix)
        keys.append(
            ApiKey(
                id=prefix,
                user_id=user_id,
                key_hash=hashlib.sha256(key.encode()).hexdigest(),
                name="auth/token",
                scopes=SCOPES,
                created=created,
            )
        )
    ApiKey.objects.bulk_create(keys, batch_size=1000)
    schema_editor.execute(f"DROP TABLE {quote(TABLE)}")
    schema_editor.execute("DELETE FROM django_migrations WHERE app = %s", ["authtoken"])


class Migration(migrations.Migration):
    dependencies = [("keys", "0001_initial")]

    operations = [migrations.RunPython(hash_old_keys, migrations.RunPython.noop)]
