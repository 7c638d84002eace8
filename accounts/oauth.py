"""OAuth 2.0 for third-party apps (docs/api.md "Accounts"), on
django-oauth-toolkit: authorization code with PKCE (S256 only: settings.OAUTH2_PROVIDER), the
API's four scopes, the consent page in the site's own template and language, revocation, and
RFC 8414 metadata. Access tokens are read by accounts.authentication as `Bearer` values.

Apps may register themselves (RFC 7591, `RegisterView`): public clients only (PKCE, no
secret), limited per address; the consent page says that nobody checked such an app. Redirect
URIs are https (OAUTH_REDIRECT_SCHEMES) or http to a loopback IP on any port (native apps,
RFC 8252 7.3: the toolkit matches their ports; `redirect_uri_allowed` keeps http there).

The token and revoke endpoints check a confidential client's secret with a password hash (the
toolkit stores secrets hashed): nginx sends them to the heavy pool under a limit, the hash runs
in a password slot (accounts.identity.SlotPBKDF2PasswordHasher), and a public client, which has no
secret, is refused without any hash (`Validator`)."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
import math
from typing import Any
from urllib.parse import unquote_plus, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from django_stubs_ext import StrPromise
from oauth2_provider.models import (
    AbstractApplication,
    get_application_model,
    get_refresh_token_model,
)
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.scopes import BaseScopes
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views.base import AuthorizationView
from oauthlib.common import generate_token
from oauthlib.oauth2.rfc6749 import errors as oauth_errors

from accounts.models import RedeemedCode
from accounts.scopes import SCOPE_WORDS
from accounts.services import (
    ACCESS_TOKEN_PREFIX,
    REFRESH_TOKEN_PREFIX,
    SCOPES,
    key_hash,
    oauth_client_register,
    oauth_client_self_registered,
)
from core.errors import retry_in_words
from core.throttling import address_slot_take

# The hosts of loopback redirect URIs (RFC 8252 7.3; `localhost` is not one: 8.3).
LOOPBACK_HOSTS = ("127.0.0.1", "::1")
# A self-registered app's redirect URIs: at most this many, each at most this long.
MAX_REDIRECT_URIS = 10
MAX_REDIRECT_URI_LENGTH = 2000
MAX_CLIENT_NAME = 100


def redirect_uri_allowed(uri: str) -> bool:
    """Whether an app may send players back to `uri`: a scheme of OAUTH_REDIRECT_SCHEMES
    (https in production) or http to a loopback IP (any port: the toolkit matches it to the
    registered one, RFC 8252 7.3); no fragment (RFC 6749 3.1.2), no space (the toolkit keeps
    an app's URIs space-separated)."""
    if "#" in uri or not uri.isprintable() or any(c.isspace() for c in uri):
        return False
    try:
        parts = urlsplit(uri)
        host = parts.hostname
        parts.port  # noqa: B018 (a port that is not a number raises ValueError)
    except ValueError:
        return False
    if parts.scheme in ("http", "https") and not host:
        return False
    loopback = parts.scheme == "http" and host in LOOPBACK_HOSTS
    return loopback or parts.scheme in settings.OAUTH_REDIRECT_SCHEMES


def access_token_new(request: object) -> str:
    """An OAuth access token (settings.OAUTH2_PROVIDER's ACCESS_TOKEN_GENERATOR): oauthlib's
    40 random letters and digits after `cfo_`, for secret scanners (accounts.services)."""
    return ACCESS_TOKEN_PREFIX + generate_token(40)


def refresh_token_new(request: object) -> str:
    """An OAuth refresh token: the same after `cfr_`."""
    return REFRESH_TOKEN_PREFIX + generate_token(40)


class ApiScopes(BaseScopes):
    """The API's scopes, described in the request's language (the consent page lists them)."""

    def get_all_scopes(self) -> dict[str, str]:
        return {scope: str(SCOPE_WORDS[scope]) for scope in SCOPES}

    def get_available_scopes(
        self, application: object = None, request: object = None, *args: object, **kwargs: object
    ) -> list[str]:
        return list(SCOPES)

    def get_default_scopes(
        self, application: object = None, request: object = None, *args: object, **kwargs: object
    ) -> list[str]:
        return ["board:read"]


# What the consent page says of the errors it shows instead of sending them back to the app
# (RFC 6749 4.1.2.1: no app to trust with them), in the player's language: oauthlib words them
# in English for developers.
PAGE_ERRORS: dict[type[oauth_errors.FatalClientError], StrPromise] = {
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


class ConsentView(AuthorizationView):
    """The consent page: which app asks for what, allow or deny, in the site's look and the
    player's language (its errors too: PAGE_ERRORS)."""

    template_name = "web/oauth_authorize.html"

    # (the toolkit's own AuthorizationView adds `application` to its mixin's signature)
    def error_response(  # type: ignore[override]
        self, error: Any, application: Any, **kwargs: Any
    ) -> HttpResponse:
        shown = error.oauthlib_error
        if isinstance(shown, oauth_errors.FatalClientError):  # shown here, never redirected
            shown.description = str(
                PAGE_ERRORS.get(
                    type(shown), gettext_lazy("The app's request is not one this site can serve.")
                )
            )
        response: HttpResponse = super().error_response(error, application, **kwargs)
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        application = context.get("application")
        if application is not None:
            # An app that registered itself: its name is its own word, only the address it
            # sends the player back to is sure (the page says so).
            context["self_registered"] = oauth_client_self_registered(application)
            context["redirect_host"] = urlsplit(context.get("redirect_uri") or "").netloc
        return context

    def get(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        # S256 only: refused before any consent is asked (the toolkit would refuse a "plain"
        # challenge only when making the code, after the player said yes).
        method = request.GET.get("code_challenge_method")
        if "code_challenge" in request.GET and method != "S256":
            error = {
                "error": "invalid_request",
                "description": _("The code_challenge_method must be S256."),
            }
            return render(request, self.template_name, {"error": error}, status=400)
        response: HttpResponse = super().get(request, *args, **kwargs)
        return response


# The toolkit's views and validator and oauthlib's request are unannotated: what passes through
# their methods stays Any here (the edge), as their errors and tokens do.
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

    def validate_redirect_uri(
        self, client_id: Any, redirect_uri: Any, request: Any, *args: Any, **kwargs: Any
    ) -> bool:
        # The toolkit lets http through for loopback redirects: http goes nowhere else
        # (unless OAUTH_REDIRECT_SCHEMES says so), whoever registered the app.
        return redirect_uri_allowed(str(redirect_uri)) and bool(
            super().validate_redirect_uri(client_id, redirect_uri, request, *args, **kwargs)
        )

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


# ---- dynamic client registration (RFC 7591) -----------------------------------------------------


class RegistrationError(Exception):
    def __init__(self, error: str, description: str) -> None:
        super().__init__(description)
        self.error = error
        self.description = description


def _metadata_error(description: str) -> RegistrationError:
    return RegistrationError("invalid_client_metadata", description)


def parse_registration(data: object) -> tuple[str, list[str]]:
    """The name and redirect URIs of a registration request's JSON (RFC 7591 2), or a
    RegistrationError. Only public clients of the authorization code grant (with refresh)
    register: `token_endpoint_auth_method` "none" (the default here, RFC 7591 lets the server
    choose), PKCE S256 at every authorization. Metadata the server does not use is ignored, as
    RFC 7591 2 asks."""
    if not isinstance(data, dict):
        raise _metadata_error(_("The body must be a JSON object."))
    name = data.get("client_name")
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > MAX_CLIENT_NAME
        or not name.isprintable()
    ):
        raise _metadata_error(
            _("client_name must be a non-empty string of at most %(max)s characters.")
            % {"max": MAX_CLIENT_NAME}
        )
    method = data.get("token_endpoint_auth_method", "none")
    if method != "none":
        raise _metadata_error(
            _(
                'Only public clients register here: token_endpoint_auth_method must be "none" '
                "(the app proves itself with PKCE, not with a secret)."
            )
        )
    grants = data.get("grant_types", ["authorization_code"])
    if (
        not isinstance(grants, list)
        or "authorization_code" not in grants
        or not set(grants) <= {"authorization_code", "refresh_token"}
    ):
        raise _metadata_error(
            _("grant_types must hold authorization_code, and may hold refresh_token.")
        )
    if data.get("response_types", ["code"]) != ["code"]:
        raise _metadata_error(_('response_types must be ["code"].'))
    uris = data.get("redirect_uris")
    if (
        not isinstance(uris, list)
        or not 1 <= len(uris) <= MAX_REDIRECT_URIS
        or not all(isinstance(uri, str) and len(uri) <= MAX_REDIRECT_URI_LENGTH for uri in uris)
    ):
        raise RegistrationError(
            "invalid_redirect_uri",
            _("redirect_uris must be a list of 1 to %(max)s addresses.")
            % {"max": MAX_REDIRECT_URIS},
        )
    refused = [uri for uri in uris if not redirect_uri_allowed(uri)]
    if refused:
        raise RegistrationError(
            "invalid_redirect_uri",
            _(
                "A redirect URI must be an https address, or http to 127.0.0.1 or [::1] (an "
                "app on the player's machine, any port), without a fragment: %(uri)s"
            )
            % {"uri": refused[0][:200]},
        )
    return name.strip(), list(dict.fromkeys(uris))


@method_decorator(csrf_exempt, name="dispatch")  # no cookie is read: apps call it cross-site
class RegisterView(View):
    """POST /oauth/register (RFC 7591): an app registers itself as a public client, without
    anyone's account, at most OAUTH_REGISTER_LIMIT an hour from an address. Answers its
    `client_id` and the metadata kept; no secret, no registration access token (RFC 7592
    management is not offered: an app registers again to change)."""

    http_method_names = ["post", "options"]

    def post(self, request: HttpRequest) -> JsonResponse:
        try:
            try:
                data = json.loads(request.body)
            except (ValueError, RecursionError):  # (not JSON, or nested past the parser)
                raise _metadata_error(_("The body must be a JSON object.")) from None
            name, redirect_uris = parse_registration(data)
        except RegistrationError as refused:
            return JsonResponse(
                {"error": refused.error, "error_description": refused.description}, status=400
            )
        wait = address_slot_take(
            request, name="oauth-register", limit=settings.OAUTH_REGISTER_LIMIT
        )
        if wait is not None:
            seconds = max(1, math.ceil(wait))
            reason = _("Too many apps were registered from this address.")
            answer = JsonResponse(
                {
                    "error": "throttled",
                    "error_description": f"{reason} {retry_in_words(seconds)}",
                },
                status=429,
            )
            answer["Retry-After"] = str(seconds)
            return answer
        app = oauth_client_register(name=name, redirect_uris=redirect_uris)
        answer = JsonResponse(
            {
                "client_id": app.client_id,
                "client_id_issued_at": int(app.created.timestamp()),
                "client_name": app.name,
                "redirect_uris": redirect_uris,
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                "token_endpoint_auth_method": "none",
            },
            status=201,
        )
        answer["Cache-Control"] = "no-store"
        return answer
