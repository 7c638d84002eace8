from django.apps import AppConfig


class KeysConfig(AppConfig):
    """What is left of the `keys` app: its migrations, which made the tables the `accounts` app
    now owns (accounts/migrations/0001_from_keys.py) and which a database made from zero still
    runs. No models, no code: squashing the migrations can remove it."""

    name = "keys"
    verbose_name = "API keys (migrations only)"
