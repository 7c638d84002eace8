"""WebSocket routes of the leaderboard."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.urls import re_path

from games.consumers import AccountEventsConsumer
from leaderboard.consumers import BoardConsumer, NoRouteConsumer
from matches.consumers import MatchConsumer

if TYPE_CHECKING:
    from channels.consumer import _ASGIApplicationProtocol
    from channels.routing import URLRouter, _ExtendedURLPattern


def _route(regex: str, consumer: _ASGIApplicationProtocol) -> _ExtendedURLPattern:
    """`re_path` to a consumer: django-stubs' `re_path` takes views only (an ASGI application is
    none of its overloads), channels' URLRouter wants the pattern whose callback is one."""
    route = re_path(regex, consumer)  # type: ignore[arg-type]
    return cast("_ExtendedURLPattern", route)


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    # Any segments reach the consumer, so that a bad date or draw gets a clear close code.
    _route(r"^ws/daily/(?P<date>[^/]+)/(?P<draw>[^/]+)/$", BoardConsumer.as_asgi()),
    # A match live (R32): any segment reaches the consumer, so that a bad id gets 4400.
    _route(r"^ws/matches/(?P<match_id>[^/]+)/$", MatchConsumer.as_asgi()),
    # The account's events (games/consumers.py), as `GET account/events` sends them.
    _route(r"^ws/account/events/?$", AccountEventsConsumer.as_asgi()),
    # Last: a path that routes nowhere is closed with 4404 (the router would answer a 500).
    _route(r"", NoRouteConsumer.as_asgi()),
]
