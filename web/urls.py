from django.contrib.auth import views as auth_views
from django.urls import path

from web import account_views, views
from web.forms import LoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<uuid:game_id>", views.play, name="play"),
    path("play/now", views.play_now, name="play-now"),
    path("replay/<uuid:game_id>", views.replay, name="replay"),
    path("replay/<uuid:game_id>/card.png", views.result_card, name="result-card"),
    path("daily/", views.daily_archive, name="daily-archive"),
    path("daily/today/", views.daily_today, name="daily-today"),
    path("daily/<str:day>/<int:draw>/", views.daily, name="daily"),
    path("players/<str:username>", views.player, name="player"),
    path("rules/<str:ruleset>/", views.rules, name="rules"),
    path("matches/", views.matches, name="matches"),
    path("matches/<uuid:match_id>", views.match, name="match"),
    path("ratings/<int:size>/<int:draw>/", views.ratings, name="ratings"),
    path("jsi18n/", views.javascript_catalog, name="javascript-catalog"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("favicon.ico", views.favicon),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/keys/", account_views.account_keys, name="account-keys"),
    path(
        "account/keys/<str:key_id>/revoke",
        account_views.account_key_revoke,
        name="account-key-revoke",
    ),
    path(
        "account/apps/<int:application_id>/revoke",
        account_views.account_app_revoke,
        name="account-app-revoke",
    ),
    path("account/password/", account_views.account_password, name="account-password"),
    path("account/delete/", account_views.account_delete, name="account-delete"),
]
