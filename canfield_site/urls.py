from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from oauth2_provider import views as oauth_views

from accounts.oauth import ConsentView
from canfield_site.ping import PingApi
from core.errors import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves the page's script as a file: no inline script under the CSP.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/v1/ping", PingApi.as_view(), name="ping"),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("leaderboard.urls")),
    path("api/v1/", include("matches.urls")),
    # Last of /api/: any other path there (a trailing slash too) is the API's JSON 404.
    re_path(r"^api/", api_not_found),
    # OAuth 2.0 (accounts/oauth.py): its URL names are django-oauth-toolkit's, for its metadata.
    path(
        "oauth/",
        include(
            (
                [
                    path("authorize", ConsentView.as_view(), name="authorize"),
                    path("token", oauth_views.TokenView.as_view(), name="token"),
                    path("revoke", oauth_views.RevokeTokenView.as_view(), name="revoke-token"),
                ],
                "oauth2_provider",
            )
        ),
    ),
    path(
        ".well-known/oauth-authorization-server",
        oauth_views.OAuthServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("web.urls")),
]

handler500 = "canfield_site.middleware.server_error"
