"""ASGI entry point: HTTP goes to Django, WebSockets to the leaderboard consumers (within the
limits of core/sockets.py, which also holds game streams' places)."""

from __future__ import annotations

import atexit
import os
from typing import TYPE_CHECKING
from urllib.parse import ParseResult, urlparse

from core.startup import gc_pause

gc_pause()  # until the apps are loaded (core/startup.py)

from django.core.asgi import get_asgi_application  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
# Django must be set up before the routing (and so the consumers and models) is imported.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator, WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402

from canfield_site.checks import refuse_unsafe_secrets  # noqa: E402
from core.metrics import process_exit  # noqa: E402
from core.sockets import PlacesHeld, SocketsPerAddress  # noqa: E402
from leaderboard.routing import websocket_urlpatterns  # noqa: E402

if TYPE_CHECKING:
    from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
    from channels.consumer import _ChannelScope
    from channels.utils import _MiddlewareProtocol

refuse_unsafe_secrets()
# A ws process's listeners leave the metrics' sums when it stops (core/metrics.py).
atexit.register(process_exit)


class BrowserOriginValidator(OriginValidator):
    """A browser (it always sends `Origin`) must come from one of ALLOWED_HOSTS (the site's own)
    or CORS_ALLOWED_ORIGINS (third-party apps), so that no other page opens sockets with its
    visitors' cookies; a client that sends no `Origin` (a bot, a command-line client) may
    listen: the live boards are public data."""

    def __init__(self, application: _MiddlewareProtocol) -> None:
        super().__init__(application, [])
        # channels types `application` as any ASGI application (version 2's take the scope
        # alone); this one is middleware called with all three.
        self.inner = application

    def valid_origin(self, parsed_origin: ParseResult | None) -> bool:
        return parsed_origin is None or bool(super().valid_origin(parsed_origin))

    def validate_origin(self, parsed_origin: ParseResult | None) -> bool:
        patterns = [*settings.ALLOWED_HOSTS, *settings.CORS_ALLOWED_ORIGINS]
        return any(
            pattern == "*" or self.match_allowed_origin(parsed_origin, pattern)
            for pattern in patterns
        )

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        origin = dict(scope.get("headers", [])).get(b"origin")
        parsed = None if origin is None else urlparse(origin.decode("latin1"))
        if self.valid_origin(parsed):
            await self.inner(scope, receive, send)
        else:
            await Denier()(scope, receive, send)


class Denier(WebsocketDenier):
    """Refuses the handshake (403) without a channel on the layer: channels' own denier opens
    one, and on the Redis layer its pending read outlived the socket and held the server's
    shutdown until killed."""

    channel_layer_alias = None  # type: ignore[assignment]


application = ProtocolTypeRouter(
    {
        # A game stream's places (core/sockets.py) are held until its response ends.
        "http": PlacesHeld(django_asgi_app),
        # No session or user: the live boards are public, and a handshake costs no database
        # work (AuthMiddlewareStack would read the session and the user for each socket).
        # Origin first (a refused one holds no place), then the sockets per address.
        "websocket": BrowserOriginValidator(SocketsPerAddress(URLRouter(websocket_urlpatterns))),
    }
)
