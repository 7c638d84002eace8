from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from canfield_site.api import PingApi

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/v1/ping", PingApi.as_view(), name="ping"),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("leaderboard.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("web.urls")),
]

handler500 = "canfield_site.middleware.server_error"
