from django.urls import path

from accounts import api as account_api
from games import api, export_api, stream_api

urlpatterns = [
    path("auth/register", api.RegisterApi.as_view(), name="auth-register"),
    path("auth/token", api.TokenApi.as_view(), name="auth-token"),
    path("games", api.GameListCreateApi.as_view(), name="games"),
    path("games/<str:game_id>", api.GameDetailApi.as_view(), name="game"),
    path("games/<str:game_id>/actions", api.GameActionsApi.as_view(), name="game-actions"),
    path(
        "games/<str:game_id>/legal-actions",
        api.GameLegalActionsApi.as_view(),
        name="game-legal-actions",
    ),
    path("games/<str:game_id>/hint", api.GameHintApi.as_view(), name="game-hint"),
    path("games/<str:game_id>/text", api.GameTextApi.as_view(), name="game-text"),
    path("games/<str:game_id>/analysis", api.GameAnalysisApi.as_view(), name="game-analysis"),
    path("games/<str:game_id>/stream", stream_api.game_stream, name="game-stream"),
    path("players/<str:username>/games", stream_api.PlayerGamesApi.as_view(), name="player-games"),
    path("account", account_api.AccountApi.as_view(), name="account"),
    path("account/bot", account_api.AccountBotApi.as_view(), name="account-bot"),
    path("account/password", account_api.AccountPasswordApi.as_view(), name="account-password"),
    path("account/events", stream_api.account_events, name="account-events"),
    path("account/export", export_api.AccountExportApi.as_view(), name="account-export"),
    path("account/tokens", account_api.KeyListCreateApi.as_view(), name="account-tokens"),
    path("account/tokens/<str:key_id>", account_api.KeyDetailApi.as_view(), name="account-token"),
]
