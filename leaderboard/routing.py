"""WebSocket routes of the leaderboard."""

from django.urls import re_path

from games.consumers import AccountEventsConsumer
from leaderboard.consumers import BoardConsumer, NoRouteConsumer
from matches.consumers import MatchConsumer

websocket_urlpatterns = [
    # Any segments reach the consumer, so that a bad date or draw gets a clear close code.
    re_path(r"^ws/daily/(?P<date>[^/]+)/(?P<draw>[^/]+)/$", BoardConsumer.as_asgi()),
    # A match live (R32): any segment reaches the consumer, so that a bad id gets 4400.
    re_path(r"^ws/matches/(?P<match_id>[^/]+)/$", MatchConsumer.as_asgi()),
    # The account's events (games/consumers.py), as `GET account/events` sends them.
    re_path(r"^ws/account/events/?$", AccountEventsConsumer.as_asgi()),
    # Last: a path that routes nowhere is closed with 4404 (the router would answer a 500).
    re_path(r"", NoRouteConsumer.as_asgi()),
]
