"""WebSocket routes of the leaderboard (filled in by the live leaderboard work)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
