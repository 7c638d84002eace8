"""OAuth 2.0 for third-party apps (API.md "Scoped tokens, OAuth and the account"), on
django-oauth-toolkit: authorization code with PKCE (S256 only: settings.OAUTH2_PROVIDER), the
API's four scopes, the consent page in the site's own template and language, revocation, and
RFC 8414 metadata. Access tokens are read by games.authentication as `Bearer` values."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from oauth2_provider import views as oauth_views
from oauth2_provider.scopes import BaseScopes

from keys.scopes import SCOPE_WORDS
from keys.services import SCOPES


class ApiScopes(BaseScopes):
    """The API's scopes, described in the request's language (the consent page lists them)."""

    def get_all_scopes(self) -> dict[str, str]:
        return {scope: str(SCOPE_WORDS[scope]) for scope in SCOPES}

    def get_available_scopes(
        self, application: Any = None, request: Any = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        return list(SCOPES)

    def get_default_scopes(
        self, application: Any = None, request: Any = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        return ["board:read"]


class ConsentView(oauth_views.AuthorizationView):
    """The consent page: which app asks for what, allow or deny, in the site's look."""

    template_name = "web/oauth_authorize.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # S256 only: refused before any consent is asked (the toolkit would refuse a "plain"
        # challenge only when making the code, after the player said yes).
        method = request.GET.get("code_challenge_method")
        if "code_challenge" in request.GET and method != "S256":
            error = {
                "error": "invalid_request",
                "description": _("The code_challenge_method must be S256."),
            }
            return render(request, self.template_name, {"error": error}, status=400)
        return super().get(request, *args, **kwargs)
