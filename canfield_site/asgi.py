"""ASGI entry point: HTTP goes to Django, WebSockets to the leaderboard consumers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
# Django must be set up before the routing (and so the consumers and models) is imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from canfield_site.checks import refuse_unsafe_secrets  # noqa: E402
from leaderboard.routing import websocket_urlpatterns  # noqa: E402

refuse_unsafe_secrets()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
