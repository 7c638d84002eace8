"""REST API of the caller's account (docs/api.md "Accounts", "the account"): what it is, its
password, its deletion, its declaration as a bot (R34), and its API keys: list, make (shown
once), revoke. The export of its games is games' (games/export_api.py)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import identity, services
from accounts.authentication import TokenAuth, request_scopes
from core.api import answers, query_read
from core.errors import Forbidden, InvalidRequest, NotFound
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


class KeyInSerializer(serializers.Serializer[object]):
    name = serializers.CharField(max_length=100)
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=services.SCOPES), min_length=1
    )
    days = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_DAYS,
        required=False,
        help_text="the key expires after this many days; never if left out",
    )


KEY_ID = OpenApiParameter("key_id", OpenApiTypes.STR, OpenApiParameter.PATH, description="`id`")


def parse_key_create(data: Any, *, allowed: frozenset[str]) -> dict[str, Any]:
    """The keyword arguments of key_create for a POST account/tokens body; a key may only make
    keys within its own scopes (a session may make any)."""
    if not isinstance(data, dict):
        raise InvalidRequest(_("The body must be a JSON object."))
    unknown = sorted(str(key) for key in data if key not in ("name", "scopes", "days"))
    if unknown:
        raise InvalidRequest(
            _("Unknown field(s): %(fields)s.") % {"fields": ", ".join(unknown)[:200]}
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 100 or "\x00" in name:
        raise InvalidRequest(_("name must be a non-empty string of at most 100 characters."))
    scopes = data.get("scopes")
    if (
        not isinstance(scopes, list)
        or not scopes
        or not all(isinstance(scope, str) and scope in services.SCOPES for scope in scopes)
    ):
        raise InvalidRequest(
            _("scopes must be a non-empty list of: %(scopes)s.")
            % {"scopes": ", ".join(services.SCOPES)}
        )
    beyond = [scope for scope in services.scopes_ordered(scopes) if scope not in allowed]
    if beyond:
        raise Forbidden(
            _("A key cannot make a key with scopes it lacks: %(scopes)s.")
            % {"scopes": ", ".join(beyond)}
        )
    days = data.get("days")
    if days is not None and (type(days) is not int or not 1 <= days <= services.MAX_DAYS):
        raise InvalidRequest(
            _("days must be a whole number from 1 to %(max)s.") % {"max": services.MAX_DAYS}
        )
    return {"name": name.strip(), "scopes": scopes, "days": days}


class KeyListCreateApi(APIView):
    throttle_scope = "account"

    def get_throttles(self) -> list[Any]:
        return [FixedWindowScopedThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        responses=answers({200: KeySerializer(many=True)}, 400, 401, 403),
        summary="The account's API keys, oldest first (never the keys themselves)",
        operation_id="account_tokens_list",
    )
    def get(self, request: Request) -> Response:
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
    def post(self, request: Request) -> Response:
        options = parse_key_create(request.data, allowed=request_scopes(request))
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
    def delete(self, request: Request, key_id: str) -> Response:
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


def account_payload(user: Any, *, bot: bool, scopes: Any = services.SCOPES) -> dict[str, Any]:
    return {
        "username": user.username,
        "bot": bot,
        "created": user.date_joined.isoformat().replace("+00:00", "Z"),
        "scopes": services.scopes_ordered(scopes),
        "standing": identity.account_games().standing(user=user, now=timezone.now()),
    }


class PasswordChangeSerializer(serializers.Serializer[object]):
    password = serializers.CharField(help_text="the current password")
    new_password = serializers.CharField()


class PasswordSerializer(serializers.Serializer[object]):
    password = serializers.CharField(help_text="the current password")


def _fields(request: Request, names: tuple[str, ...]) -> dict[str, Any]:
    data = request.data
    if not isinstance(data, dict):
        raise InvalidRequest(_("The body must be a JSON object."))
    unknown = sorted(str(key) for key in data if key not in names)
    if unknown:
        raise InvalidRequest(
            _("Unknown field(s): %(fields)s.") % {"fields": ", ".join(unknown)[:200]}
        )
    return data


class AccountApi(APIView):
    @extend_schema(
        responses=answers({200: AccountSerializer}, 401),
        summary="The caller's account",
        operation_id="account_get",
    )
    def get(self, request: Request) -> Response:
        bot = identity.player_is_bot(user=request.user)
        return Response(account_payload(request.user, bot=bot, scopes=request_scopes(request)))

    @extend_schema(
        request=PasswordSerializer,
        responses=answers({204: None}, 400, 401, 403, 429, body=True),
        summary="Delete the account: it can no longer log in, its keys die, its name on boards "
        "becomes deleted-<n>; its ranked figures stay",
        operation_id="account_delete",
    )
    def delete(self, request: Request) -> Response:
        data = _fields(request, ("password",))
        identity.account_password_check(
            request=request._request, user=request.user, password=data.get("password")
        )
        identity.account_delete(user=request.user)
        return Response(status=204)

    def get_throttles(self) -> list[Any]:
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
    def post(self, request: Request) -> Response:
        data = _fields(request, ("password", "new_password"))
        identity.account_password_check(
            request=request._request, user=request.user, password=data.get("password")
        )
        new_password = data.get("new_password")
        if not isinstance(new_password, str) or not new_password or len(new_password) > 4096:
            raise InvalidRequest(_("new_password must be a non-empty string"))
        identity.account_password_change(user=request.user, new_password=new_password)
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
    def post(self, request: Request) -> Response:
        player = identity.account_bot_declare(user=request.user)
        return Response(account_payload(request.user, bot=player.bot))
