"""WebSocket routes of the leaderboard."""

from django.urls import re_path

from leaderboard.consumers import BoardConsumer

# Any segments reach the consumer, so that a bad date or draw gets a clear close code.
websocket_urlpatterns = [
    re_path(r"^ws/daily/(?P<date>[^/]+)/(?P<draw>[^/]+)/$", BoardConsumer.as_asgi()),
]
