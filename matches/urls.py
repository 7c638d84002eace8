from django.urls import path

from matches import api

urlpatterns = [
    path("matches", api.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<str:match_id>", api.MatchDetailApi.as_view(), name="match"),
    path("challenges", api.ChallengeListCreateApi.as_view(), name="challenges"),
    path("challenges/<str:challenge_id>", api.ChallengeDetailApi.as_view(), name="challenge"),
    path(
        "challenges/<str:challenge_id>/accept",
        api.ChallengeAcceptApi.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<str:challenge_id>/decline",
        api.ChallengeDeclineApi.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenges/<str:challenge_id>/cancel",
        api.ChallengeCancelApi.as_view(),
        name="challenge-cancel",
    ),
    path("ratings", api.RatingsApi.as_view(), name="ratings"),
    path("ratings/weekly", api.WeeklyRatingsApi.as_view(), name="ratings-weekly"),
    path("players/<str:username>/ratings", api.RatingHistoryApi.as_view(), name="player-ratings"),
]
