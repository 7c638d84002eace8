"""REST API of the caller's account (API.md "Added on 2026-12-01", "the account"): what it is,
and its declaration as a bot (R34)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from canfield_site.api import answers
from games import accounts
from games.throttling import FixedWindowScopedThrottle


class AccountSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="declared a bot (R34): ranks among bots only")
    created = serializers.DateTimeField()
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=accounts.SCOPES),
        help_text="the calling key's scopes",
    )


def account_payload(user: Any, *, bot: bool) -> dict[str, Any]:
    return {
        "username": user.username,
        "bot": bot,
        "created": user.date_joined.isoformat().replace("+00:00", "Z"),
        "scopes": list(accounts.SCOPES),
    }


class AccountApi(APIView):
    @extend_schema(
        responses=answers({200: AccountSerializer}, 401),
        summary="The caller's account",
        operation_id="account_get",
    )
    def get(self, request: Request) -> Response:
        bot = accounts.player_is_bot(user=request.user)
        return Response(account_payload(request.user, bot=bot))


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
        player = accounts.account_bot_declare(user=request.user)
        return Response(account_payload(request.user, bot=player.bot))
