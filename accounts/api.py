"""REST API of the caller's account (docs/api.md "Accounts", "the account"): what it is, its
password, its deletion, its declaration as a bot (R34), and its API keys: list, make (shown
once), revoke. The export of its games is games' (games/export_api.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypedDict, cast

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts import identity, services
from accounts.authentication import AuthenticatedRequest, TokenAuth, request_scopes
from core.api import (
    JsonChoiceField,
    JsonIntegerField,
    JsonTextField,
    answers,
    body_read,
    query_read,
    refused,
)
from core.errors import Forbidden, NotFound
from core.throttling import FixedWindowScopedThrottle


class KeySerializer(serializers.Serializer[object]):
    id = serializers.CharField(help_text="the key's first characters: enough to tell it apart")
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=services.SCOPES))
    created = serializers.DateTimeField()
    expires = serializers.DateTimeField(allow_null=True, help_text="null: never")
    last_used = serializers.DateTimeField(
        allow_null=True, help_text="to the minute; null: never used"
    )


class NewKeySerializer(KeySerializer):
    token = serializers.CharField(help_text="the key: shown this once, the server keeps a hash")


def _scopes_refused() -> str:
    return _("scopes must be a non-empty list of: %(scopes)s.") % {
        "scopes": ", ".join(services.SCOPES)
    }


def _days_refused() -> str:
    return _("days must be a whole number from 1 to %(max)s.") % {"max": services.MAX_DAYS}


SCOPES_REFUSED = lazy(_scopes_refused, str)()


class KeyInSerializer(serializers.Serializer[object]):
    name = JsonTextField(
        max_length=100,
        error_messages=refused(
            gettext_lazy("name must be a non-empty string of at most 100 characters.")
        ),
    )
    scopes = serializers.ListField(
        child=JsonChoiceField(choices=services.SCOPES, error_messages=refused(SCOPES_REFUSED)),
        min_length=1,
        error_messages=refused(SCOPES_REFUSED),
    )
    days = JsonIntegerField(
        min_value=1,
        max_value=services.MAX_DAYS,
        required=False,
        allow_null=True,
        help_text="the key expires after this many days; never if left out (or null)",
        error_messages=refused(lazy(_days_refused, str)()),
    )


KEY_ID = OpenApiParameter("key_id", OpenApiTypes.STR, OpenApiParameter.PATH, description="`id`")


class KeyCreateOptions(TypedDict):
    """The keyword arguments of key_create that a POST account/tokens body gives."""

    name: str
    scopes: list[str]
    days: int | None


def key_create_options(request: Request) -> KeyCreateOptions:
    """The keyword arguments of key_create for a POST account/tokens body; a key may only make
    keys within its own scopes (a session may make any)."""
    options = body_read(request, KeyInSerializer, required=False)
    allowed = request_scopes(request)
    beyond = [scope for scope in services.scopes_ordered(options["scopes"]) if scope not in allowed]
    if beyond:
        raise Forbidden(
            _("A key cannot make a key with scopes it lacks: %(scopes)s.")
            % {"scopes": ", ".join(beyond)}
        )
    return cast(KeyCreateOptions, {"days": None, **options})


class KeyListCreateApi(APIView):
    throttle_scope = "account"

    def get_throttles(self) -> list[BaseThrottle]:
        return [FixedWindowScopedThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        responses=answers({200: KeySerializer(many=True)}, 400, 401, 403),
        summary="The account's API keys, oldest first (never the keys themselves)",
        operation_id="account_tokens_list",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        query_read(request, serializers.Serializer)  # (it takes none)
        rows = services.key_list_for(user=request.user)
        return Response([services.key_payload(row) for row in rows])

    @extend_schema(
        request=KeyInSerializer,
        responses=answers({201: NewKeySerializer}, 400, 401, 403, 429, body=True),
        summary="Make a named API key with some scopes, perhaps expiring; the key is shown once. "
        "A key made with an OAuth token expires no later than its grant and dies with it",
        operation_id="account_tokens_create",
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        options = key_create_options(request)
        if services.key_count_for(user=request.user) >= services.MAX_KEYS:
            raise Forbidden(
                _("An account holds at most %(max)s keys: revoke one first.")
                % {"max": services.MAX_KEYS}
            )
        grant = None
        if isinstance(request.auth, TokenAuth) and request.auth.oauth_token_id is not None:
            grant = services.oauth_grant_of(access_token_id=request.auth.oauth_token_id)
            if grant is None:
                raise Forbidden(_("This OAuth token's grant has ended: it makes no keys."))
        row, key = services.key_create(user=request.user, grant=grant, **options)
        return Response({**services.key_payload(row), "token": key}, status=201)


class KeyDetailApi(APIView):
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "account"

    @extend_schema(
        parameters=[KEY_ID],
        request=None,
        responses=answers({204: None}, 401, 403, 404, 429),
        summary="Revoke an API key: it answers 401 from then on",
        operation_id="account_tokens_delete",
    )
    def delete(self, request: AuthenticatedRequest, key_id: str) -> Response:
        if not services.key_revoke(user=request.user, key_id=key_id[:16]):
            raise NotFound(_("No such key."))
        return Response(status=204)


# ---- the account (docs/api.md "Accounts", "the account") --------------------------------------


class StandingSerializer(serializers.Serializer[object]):
    ranked = serializers.BooleanField(
        help_text="may play ranked dailies and rated matches (R36); else its daily is provisional"
    )
    until = serializers.DateTimeField(
        allow_null=True,
        help_text="when the account is old enough (RANKED_MIN_AGE_HOURS); null once it is",
    )
    games_needed = serializers.IntegerField(
        help_text="finished games of any kind still needed (RANKED_MIN_GAMES); 0 once played"
    )


class AccountSerializer(serializers.Serializer[object]):
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="declared a bot (R34): ranks among bots only")
    created = serializers.DateTimeField()
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=services.SCOPES),
        help_text="the calling key's scopes",
    )
    standing = StandingSerializer(help_text="R36: whether it plays ranked, and what it lacks")


class AccountPayload(TypedDict):
    """docs/api.md's ACCOUNT (AccountSerializer documents it)."""

    username: str
    bot: bool
    created: str
    scopes: list[str]
    standing: Mapping[str, object]


def account_payload(
    user: User, *, bot: bool, scopes: Iterable[str] = services.SCOPES
) -> AccountPayload:
    return {
        "username": user.username,
        "bot": bot,
        "created": user.date_joined.isoformat().replace("+00:00", "Z"),
        "scopes": services.scopes_ordered(scopes),
        "standing": identity.account_games().standing(user=user, now=timezone.now()),
    }


def _password(message: StrOrPromise, help_text: str | None = None) -> JsonTextField:
    """A password field of a body, taken as it is (spaces too)."""
    return JsonTextField(
        max_length=4096,
        trim_whitespace=False,
        allow_nul=True,
        error_messages=refused(message),
        help_text=help_text,
    )


CURRENT_PASSWORD = "the current password"
PASSWORD_REFUSED = gettext_lazy("password must be a non-empty string")


class PasswordChangeSerializer(serializers.Serializer[object]):
    password = _password(PASSWORD_REFUSED, help_text=CURRENT_PASSWORD)
    new_password = _password(gettext_lazy("new_password must be a non-empty string"))


class PasswordSerializer(serializers.Serializer[object]):
    password = _password(PASSWORD_REFUSED, help_text=CURRENT_PASSWORD)


class AccountApi(APIView):
    @extend_schema(
        responses=answers({200: AccountSerializer}, 401),
        summary="The caller's account",
        operation_id="account_get",
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        bot = identity.player_is_bot(user=request.user)
        return Response(account_payload(request.user, bot=bot, scopes=request_scopes(request)))

    @extend_schema(
        request=PasswordSerializer,
        responses=answers({204: None}, 400, 401, 403, 429, body=True),
        summary="Delete the account: it can no longer log in, its keys die, its name on boards "
        "becomes deleted-<n>; its ranked figures stay",
        operation_id="account_delete",
    )
    def delete(self, request: AuthenticatedRequest) -> Response:
        data = body_read(request, PasswordSerializer, required=False)
        identity.account_password_check(
            request=request._request, user=request.user, password=data["password"]
        )
        identity.account_delete(user=request.user)
        return Response(status=204)

    def get_throttles(self) -> list[BaseThrottle]:
        return [FixedWindowScopedThrottle()] if self.request.method == "DELETE" else []

    throttle_scope = "account"


class AccountPasswordApi(APIView):
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "account"

    @extend_schema(
        request=PasswordChangeSerializer,
        responses=answers({204: None}, 400, 401, 403, 429, body=True),
        summary="Change the password: the account's other keys stay valid, its sessions end",
        operation_id="account_password",
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        data = body_read(request, PasswordChangeSerializer, required=False)
        identity.account_password_check(
            request=request._request, user=request.user, password=data["password"]
        )
        identity.account_password_change(user=request.user, new_password=data["new_password"])
        return Response(status=204)


class AccountBotApi(APIView):
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "account"

    @extend_schema(
        request=None,
        responses=answers({200: AccountSerializer}, 401, 403, 429),
        summary="Declare the account a bot (R34): before its first ranked game; irreversible",
        operation_id="account_bot",
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        player = identity.account_bot_declare(user=request.user)
        return Response(account_payload(request.user, bot=player.bot))
