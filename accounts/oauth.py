"""OAuth 2.0 for third-party apps (docs/api.md "Accounts"), on
django-oauth-toolkit: authorization code with PKCE (S256 only: settings.OAUTH2_PROVIDER), the
API's four scopes, the consent page in the site's own template and language, revocation, and
RFC 8414 metadata. Access tokens are read by accounts.authentication as `Bearer` values.

The token and revoke endpoints check a confidential client's secret with a password hash (the
toolkit stores secrets hashed): nginx sends them to the heavy pool under a limit, the hash runs
in a password slot (games.accounts.SlotPBKDF2PasswordHasher), and a public client, which has no
secret, is refused without any hash (`Validator`)."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
from typing import Any
from urllib.parse import unquote_plus

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from oauth2_provider import views as oauth_views
from oauth2_provider.models import (
    AbstractApplication,
    get_application_model,
    get_refresh_token_model,
)
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.scopes import BaseScopes
from oauth2_provider.settings import oauth2_settings
from oauthlib.common import generate_token
from oauthlib.oauth2.rfc6749 import errors as oauth_errors

from accounts.models import RedeemedCode
from accounts.scopes import SCOPE_WORDS
from accounts.services import ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX, SCOPES, key_hash


def access_token_new(request: Any) -> str:
    """An OAuth access token (settings.OAUTH2_PROVIDER's ACCESS_TOKEN_GENERATOR): oauthlib's
    40 random letters and digits after `cfo_`, for secret scanners (accounts.services)."""
    return ACCESS_TOKEN_PREFIX + generate_token(40)


def refresh_token_new(request: Any) -> str:
    """An OAuth refresh token: the same after `cfr_`."""
    return REFRESH_TOKEN_PREFIX + generate_token(40)


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


# What the consent page says of the errors it shows instead of sending them back to the app
# (RFC 6749 4.1.2.1: no app to trust with them), in the player's language: oauthlib words them
# in English for developers.
PAGE_ERRORS = {
    oauth_errors.InvalidClientIdError: gettext_lazy(
        "No app is registered here with this client_id: the link that brought you here is wrong."
    ),
    oauth_errors.MissingClientIdError: gettext_lazy(
        "The link that brought you here names no app (it has no client_id)."
    ),
    oauth_errors.MismatchingRedirectURIError: gettext_lazy(
        "The app asks to send you back to an address it did not register (redirect_uri)."
    ),
    oauth_errors.InvalidRedirectURIError: gettext_lazy(
        "The address the app asks to send you back to is not a valid one (redirect_uri)."
    ),
    oauth_errors.MissingRedirectURIError: gettext_lazy(
        "The link that brought you here gives no address to send you back to (redirect_uri)."
    ),
}


class ConsentView(oauth_views.AuthorizationView):
    """The consent page: which app asks for what, allow or deny, in the site's look and the
    player's language (its errors too: PAGE_ERRORS)."""

    template_name = "web/oauth_authorize.html"

    def error_response(self, error: Any, application: Any, **kwargs: Any) -> HttpResponse:
        shown = error.oauthlib_error
        if isinstance(shown, oauth_errors.FatalClientError):  # shown here, never redirected
            shown.description = str(
                PAGE_ERRORS.get(
                    type(shown), gettext_lazy("The app's request is not one this site can serve.")
                )
            )
        response: HttpResponse = super().error_response(error, application, **kwargs)
        return response

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


class Validator(OAuth2Validator):
    """The toolkit's validator, with two rules of RFC 6749 it leaves out:

    - 2.1: a public client has no secret. One that sends a `client_secret` (in the body or with
      HTTP Basic) is refused as `invalid_client` before any hash: else each junk secret would
      cost a PBKDF2 check of the secret the toolkit made up for the client when it was saved.
    - 4.1.2: an authorization code used twice revokes the tokens first issued from it (their
      whole refresh-token family, and with it the keys made with them: accounts.models.ApiKey).
    """

    def authenticate_client(self, request: Any, *args: Any, **kwargs: Any) -> bool:
        named = [request.client_id, _basic_auth_client_id(self._extract_basic_auth(request))]
        # (a NUL no client id has, and PostgreSQL refuses in a query)
        ids = [n for n in named if isinstance(n, str) and n and "\x00" not in n]
        if (
            get_application_model()
            .objects.filter(client_id__in=ids, client_type=AbstractApplication.CLIENT_PUBLIC)
            .exists()
        ):
            return False
        return bool(super().authenticate_client(request, *args, **kwargs))

    def _load_application(self, client_id: Any, request: Any) -> Any:
        # A NUL no client id has: psycopg 3 refuses it with a DataError, not the ValueError the
        # toolkit catches here (its GH #1006), which would answer 500.
        if isinstance(client_id, str) and "\x00" in client_id:
            return None
        return super()._load_application(client_id, request)

    def save_bearer_token(self, token: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        saved = super().save_bearer_token(token, request, *args, **kwargs)
        refresh = token.get("refresh_token")
        if request.grant_type == "authorization_code" and refresh:
            family = (
                get_refresh_token_model()
                .objects.filter(token_checksum=key_hash(refresh))
                .values_list("token_family", flat=True)
                .first()
            )
            now = timezone.now()
            span = dt.timedelta(seconds=oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS)
            RedeemedCode.objects.filter(redeemed__lt=now - span).delete()
            if family is not None:
                RedeemedCode.objects.bulk_create(
                    [
                        RedeemedCode(
                            code_hash=key_hash(request.code), token_family=family, redeemed=now
                        )
                    ],
                    ignore_conflicts=True,
                )
        return saved

    def validate_code(
        self, client_id: Any, code: Any, client: Any, request: Any, *args: Any, **kwargs: Any
    ) -> bool:
        if super().validate_code(client_id, code, client, request, *args, **kwargs):
            return True
        if isinstance(code, str):
            family = (
                RedeemedCode.objects.filter(code_hash=key_hash(code))
                .values_list("token_family", flat=True)
                .first()
            )
            if family is not None:
                get_refresh_token_model().revoke_family(family)
        return False


def _basic_auth_client_id(credentials: str | None) -> str | None:
    """The client id of HTTP Basic credentials (`id:secret`, each form-encoded: RFC 6749
    2.3.1), or None if they are not that."""
    if not credentials:
        return None
    try:
        decoded = base64.b64decode(credentials, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    client_id, colon, _secret = decoded.partition(":")
    return unquote_plus(client_id) if colon else None
