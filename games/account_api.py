"""REST API of the caller's account (docs/api.md "Accounts", "the account"): what it is,
and its declaration as a bot (R34)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Q
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services as key_services
from accounts.authentication import request_scopes
from core.api import answers, query_read
from core.errors import InvalidRequest
from core.throttling import FixedWindowScopedThrottle
from games import accounts, selectors
from games.api import GameFilterSerializer, GameOutSerializer
from games.models import Action, Game
from games.stream_api import NDJSON, NDJSONBytesRenderer, NDJSONRenderer, ndjson_type


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
        child=serializers.ChoiceField(choices=accounts.SCOPES),
        help_text="the calling key's scopes",
    )
    standing = StandingSerializer(help_text="R36: whether it plays ranked, and what it lacks")


def account_payload(user: Any, *, bot: bool, scopes: Any = accounts.SCOPES) -> dict[str, Any]:
    return {
        "username": user.username,
        "bot": bot,
        "created": user.date_joined.isoformat().replace("+00:00", "Z"),
        "scopes": key_services.scopes_ordered(scopes),
        "standing": selectors.account_standing(user=user, now=timezone.now()).as_dict(),
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
        bot = accounts.player_is_bot(user=request.user)
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
        accounts.account_password_check(
            request=request._request, user=request.user, password=data.get("password")
        )
        accounts.account_delete(user=request.user)
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
        accounts.account_password_check(
            request=request._request, user=request.user, password=data.get("password")
        )
        new_password = data.get("new_password")
        if not isinstance(new_password, str) or not new_password or len(new_password) > 4096:
            raise InvalidRequest(_("new_password must be a non-empty string"))
        accounts.account_password_change(user=request.user, new_password=new_password)
        return Response(status=204)


class ExportQuerySerializer(GameFilterSerializer):
    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)


class AccountExportApi(APIView):
    throttle_classes = [FixedWindowScopedThrottle]
    throttle_scope = "export"
    # What it answers is NDJSON: `Accept: application/x-ndjson` must not meet a 406.
    renderer_classes = [JSONRenderer, NDJSONRenderer, NDJSONBytesRenderer]

    @extend_schema(
        parameters=[ExportQuerySerializer],
        responses={
            (200, NDJSON): OpenApiResponse(
                GameOutSerializer,
                description="one GAME with its `actions` per line, oldest first",
            ),
            **answers({}, 400, 401, 403, 429),
        },
        summary="Export the caller's games as NDJSON, with their actions, oldest first",
        operation_id="account_export",
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        query = query_read(request, ExportQuerySerializer)
        chunks: Any = _export_chunks(request.user, query)
        if isinstance(request._request, ASGIRequest):
            # Under uvicorn a sync iterator would be read whole before the first byte is sent.
            chunks = _async_chunks(chunks)
        media_type = ndjson_type(request)
        charset = "; charset=utf-8" if media_type == NDJSON else ""
        response = StreamingHttpResponse(chunks, content_type=media_type + charset)
        response["Content-Disposition"] = 'attachment; filename="canfield-games.ndjson"'
        response["X-Accel-Buffering"] = "no"
        return response


EXPORT_BATCH = 200


def _export_chunks(user: Any, query: dict[str, Any]) -> Iterator[bytes]:
    """The caller's games that `query`'s filters keep (at most its `max`), a batch of lines at a
    time (a long history never sits in memory whole)."""
    from games.api import action_payload, game_filters, game_payload

    last: tuple[Any, Any] | None = None
    left = query.get("max")
    while left is None or left > 0:
        games = selectors.game_list_for(user=user, **game_filters(query))
        games = games.order_by("created_at", "id")
        if last is not None:
            games = games.filter(Q(created_at__gt=last[0]) | Q(created_at=last[0], id__gt=last[1]))
        batch = list(games[: EXPORT_BATCH if left is None else min(left, EXPORT_BATCH)])
        left = None if left is None else left - len(batch)
        if not batch:
            return
        logs: dict[Any, list[dict[str, Any]]] = {game.id: [] for game in batch}
        for row in Action.objects.filter(game__in=batch).order_by("game_id", "n"):
            logs[row.game_id].append(action_payload(row))
        lines = []
        for game in batch:
            payload = game_payload(game, viewer=user)
            payload["actions"] = logs[game.id]
            lines.append(json.dumps(payload, separators=(",", ":")) + "\n")
        yield "".join(lines).encode()
        last = (batch[-1].created_at, batch[-1].id)


async def _async_chunks(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    """`chunks` read in the database's thread, one batch at a time."""
    read = sync_to_async(next, thread_sensitive=True)
    while (chunk := await read(chunks, None)) is not None:
        yield chunk


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
