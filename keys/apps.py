from django.apps import AppConfig


class KeysConfig(AppConfig):
    name = "keys"
    verbose_name = "API keys"

    def ready(self) -> None:
        from keys import schema  # noqa: F401  (registers the schema's security scheme)
