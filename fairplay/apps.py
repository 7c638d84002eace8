from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "fairplay"
    verbose_name = "Fair play"
    default_auto_field = "django.db.models.BigAutoField"
