"""WSGI entry point: the production HTTP server (gunicorn) serves the REST API through it."""

import os

from core.startup import gc_pause

gc_pause()  # until the apps are loaded (core/startup.py)

from django.core.wsgi import get_wsgi_application  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")

application = get_wsgi_application()

from canfield_site.checks import refuse_unsafe_secrets  # noqa: E402 (needs Django set up)

refuse_unsafe_secrets()
