from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Identity (docs/contributing.md, "Layers"): accounts, guests, names, bots, deletion, the
    account's API and event rows, API keys, OAuth, the authentication of API requests. Its
    tables keep the names the apps that made them gave them: `keys_apikey`,
    `keys_redeemedcode` (accounts/migrations/0001_from_keys.py), `games_player`,
    `games_reservedname`, `games_accountevent`, `games_eventclock`
    (accounts/migrations/0002_identity_from_games.py): the moves were state-only."""

    name = "accounts"
    verbose_name = "API keys"

    def ready(self) -> None:
        from accounts import schema  # noqa: F401  (registers the schema's security scheme)
