from django.urls import path

from matches import api

urlpatterns = [
    path("matches", api.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<str:match_id>", api.MatchDetailApi.as_view(), name="match"),
    path("ratings", api.RatingsApi.as_view(), name="ratings"),
    path("ratings/weekly", api.WeeklyRatingsApi.as_view(), name="ratings-weekly"),
    path("players/<str:username>/ratings", api.RatingHistoryApi.as_view(), name="player-ratings"),
]
