"""REST API of the export of the caller's games (docs/api.md "Accounts", "the account"):
`GET account/export`, every game with its actions as NDJSON, oldest first. Its URL is the
account's; what it reads is games (the rest of the account's API: accounts/api.py)."""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Q
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from accounts.authentication import AuthenticatedRequest
from core.api import answers, query_read
from core.renderers import JSONRenderer
from core.throttling import FixedWindowScopedThrottle
from games import selectors
from games.api import (
    GameFilterSerializer,
    GameOutSerializer,
    action_payload,
    game_filters,
    game_payload,
)
from games.models import Action, Game
from games.stream_api import NDJSON, NDJSONBytesRenderer, NDJSONRenderer, ndjson_type


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
    def get(self, request: AuthenticatedRequest) -> StreamingHttpResponse:
        query = query_read(request, ExportQuerySerializer)
        chunks: Iterator[bytes] | AsyncIterator[bytes]
        chunks = _export_chunks(request.user, query)
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


def _export_chunks(user: User, query: dict[str, Any]) -> Iterator[bytes]:
    """The caller's games that `query`'s filters keep (at most its `max`), a batch of lines at a
    time (a long history never sits in memory whole)."""
    last: tuple[datetime.datetime, uuid.UUID] | None = None
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
        logs: dict[uuid.UUID, list[dict[str, object]]] = {game.id: [] for game in batch}
        for row in Action.objects.filter(game__in=batch).order_by("game_id", "n"):
            logs[row.game_id].append(action_payload(row))
        lines = []
        for game in batch:
            payload = game_payload(game, viewer=user)
            payload["actions"] = logs[game.id]
            lines.append(json.dumps(payload, separators=(",", ":")) + "\n")
        yield "".join(lines).encode()
        last = (batch[-1].created_at, batch[-1].id)


def _next_chunk(chunks: Iterator[bytes]) -> bytes | None:
    return next(chunks, None)


async def _async_chunks(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    """`chunks` read in the database's thread, one batch at a time."""
    read = sync_to_async(_next_chunk, thread_sensitive=True)
    while (chunk := await read(chunks)) is not None:
        yield chunk
