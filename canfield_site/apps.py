from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project itself as an app, for its system checks (canfield_site/checks.py)."""

    name = "canfield_site"

    def ready(self) -> None:
        from canfield_site import checks, deprecation  # noqa: F401 (registers the checks)
