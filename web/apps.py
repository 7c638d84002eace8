from django.apps import AppConfig

from core.startup import gc_resume


class WebConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "web"

    def ready(self) -> None:
        # The last app of INSTALLED_APPS: every app is loaded (core/startup.py).
        gc_resume()
