from django.urls import path

from leaderboard import api

urlpatterns = [
    path("daily", api.DailyTodayApi.as_view(), name="daily"),
    path("daily/<str:date>", api.DailyDayApi.as_view(), name="daily-day"),
    path("daily/<str:date>/leaderboard", api.LeaderboardApi.as_view(), name="daily-leaderboard"),
    path("players/<str:username>", api.PlayerApi.as_view(), name="player"),
    path("players/<str:username>/stats", api.PlayerStatsApi.as_view(), name="player-stats"),
]
