#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    from core.startup import gc_pause

    gc_pause()  # until the apps are loaded (core/startup.py)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 (loads the settings)
    except ImproperlyConfigured as error:
        # Said plainly, where Django would go on and fail later on something else: without
        # DJANGO_DEBUG=1 the settings are production ones, which need their secrets.
        sys.exit(f"manage.py: {error}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
