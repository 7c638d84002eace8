"""The models move to the `accounts` app (accounts/migrations/0001_from_keys.py): forgotten
here in Django's state only; their tables stay, and `accounts` owns them."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("keys", "0003_oauth_family_and_redeemed_codes"),
        ("accounts", "0001_from_keys"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ApiKey"),
                migrations.DeleteModel(name="RedeemedCode"),
            ],
            database_operations=[],
        ),
    ]
