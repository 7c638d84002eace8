from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Identity (docs/contributing.md, "Layers"): API keys, OAuth, the authentication of API
    requests. Its tables keep the names the `keys` app gave them (`keys_apikey`,
    `keys_redeemedcode`): the move was state-only (accounts/migrations/0001_from_keys.py)."""

    name = "accounts"
    verbose_name = "API keys"

    def ready(self) -> None:
        from accounts import schema  # noqa: F401  (registers the schema's security scheme)
