"""The identity models move to the `accounts` app (accounts/migrations/0002_identity_from_games.py):
forgotten here in Django's state only; their tables stay (games_player, games_reservedname,
games_accountevent, games_eventclock), and `accounts` owns them."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_account_event_seq"),
        ("accounts", "0002_identity_from_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Player"),
                migrations.DeleteModel(name="ReservedName"),
                migrations.DeleteModel(name="AccountEvent"),
                migrations.DeleteModel(name="EventClock"),
            ],
            database_operations=[],
        ),
    ]
