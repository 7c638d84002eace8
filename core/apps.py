from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The platform (docs/contributing.md, "Layers"): the API's error shape, words, throttling,
    parsers, client addresses, slots, sockets, metrics, logs, the cache and after-commit calls.
    It imports no other app of the project."""

    name = "core"
