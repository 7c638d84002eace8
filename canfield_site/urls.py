from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from oauth2_provider.views.base import RevokeTokenView, TokenView
from oauth2_provider.views.metadata import OAuthServerMetadataView

from accounts.oauth import ConsentView, RegisterView
from canfield_site.ping import PingApi
from core.errors import api_not_found


class SwaggerPage(SpectacularSwaggerSplitView):
    """The API docs page. OPTIONS answers what it allows: DRF's would describe the view through
    the page's HTML renderer, which has no template for that (a 500)."""

    # A plain HttpResponse, as any Django view may answer (DRF's stubs want its Response).
    def options(  # type: ignore[override]
        self, request: HttpRequest, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        return HttpResponse(status=204, headers={"Allow": "GET, HEAD, OPTIONS"})


urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves the page's script as a file: no inline script under the CSP.
    path("api/docs/", SwaggerPage.as_view(url_name="schema"), name="swagger-ui"),
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
                    path("token", TokenView.as_view(), name="token"),
                    path("revoke", RevokeTokenView.as_view(), name="revoke-token"),
                    # RFC 7591; the name the toolkit's metadata looks for.
                    path("register", RegisterView.as_view(), name="dcr-register"),
                ],
                "oauth2_provider",
            )
        ),
    ),
    path(
        ".well-known/oauth-authorization-server",
        OAuthServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("web.urls")),
]

handler500 = "canfield_site.middleware.server_error"
