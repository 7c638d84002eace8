"""Streams and exports (docs/api.md "Streams and exports"): a game's NDJSON stream, and a player's
finished public games as a page or, asked for as `application/x-ndjson`, all of them.

Why the stream is an async response served by uvicorn, and why its database work runs in a
small shared pool: games/streams.py."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import json
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import events
from accounts.scopes import ScopeRequired
from core import sockets
from core.api import PageQuerySerializer, WholeNumberField, answers, query_read
from core.clients import client_key
from core.errors import InvalidRequest, TooManyStreams
from core.renderers import JSONRenderer
from games import selectors, services, streams
from games.access import game_read_for, request_credential
from games.api import (
    GAME_ID,
    STREAM_LINE,
    GameFilterSerializer,
    GameOutSerializer,
    GamePageSerializer,
    action_payload,
    game_filters,
    game_page,
    game_payload,
)
from games.models import Action, Game
from games.seats import SEAT

NDJSON = "application/x-ndjson"
BYTES = "application/octet-stream"
PLAYER_GAMES_PAGE_SIZE = 20
FINISHED = selectors.FINISHED


class NDJSONRenderer(BaseRenderer):
    """Lets content negotiation accept `Accept: application/x-ndjson` (else DRF answers 406).
    The views stream their NDJSON themselves; what reaches this renderer is an error body,
    rendered as one JSON line."""

    media_type = NDJSON
    format = "ndjson"
    charset = None

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):  # type: ignore[no-untyped-def]
        return b"" if data is None else _line(data)


def _line(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


class NDJSONBytesRenderer(NDJSONRenderer):
    """The same lines as `application/octet-stream`, for clients whose generator knows no NDJSON
    (openapi-python-client reads them as bytes; canfield_site/schema.py)."""

    media_type = BYTES
    format = "bytes"


def ndjson_type(request: Request) -> str:
    """The media type an NDJSON answer goes as: NDJSON, or bytes when asked for them."""
    return BYTES if request.accepted_renderer.media_type == BYTES else NDJSON


def _ndjson(
    lines: Iterator[bytes] | AsyncIterator[bytes], media_type: str = NDJSON
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=media_type)
    # Every proxy on the way sends each line on at once (nginx reads this header).
    response["X-Accel-Buffering"] = "no"
    response["Cache-Control"] = "no-store"
    return response


# ---- the stream --------------------------------------------------------------------------------


def _read_since(
    game_id: Any, last: int, viewer: Any, credential: selectors.Credential | None
) -> tuple[list[dict[str, Any]], dict[str, Any], bool] | None:
    """In a worker thread: the log rows after `last`, the game as `viewer` sees it, and whether
    it is over (a daily game whose day has ended is ended first, R26a); None once `credential`
    would no longer be accepted (games/streams.py). Only the rows the game read counts
    (`actions_count`): an action committed between the two reads waits for the next read (its
    own wake-up), so that a line never pairs an action with the game before it.
    The credential is checked after the reads, not before: every action read was committed
    before a moment the credential was still accepted. Checked first, a read whose check came
    just before a revocation and its reads just after the next action sent that action (CI,
    2026-12-07: test_stream_ends.py, a revocation then an action at once)."""
    game = Game.objects.select_related("challenge", SEAT).get(pk=game_id)
    game = services.game_end_day_over(game)
    rows = [
        action_payload(row)
        for row in Action.objects.filter(game=game, n__gt=last, n__lte=game.actions_count).order_by(
            "n"
        )
    ]
    if credential is not None and not selectors.credentials_alive([credential]):
        return None
    return rows, game_payload(game, viewer=viewer), game.status != Game.Status.PLAYING


_read_in_pool = streams.in_pool(_read_since)


async def _stream(
    game_id: Any,
    last: int,
    first: bytes,
    viewer: Any,
    credential: selectors.Credential | None,
    ends_at: dt.datetime | None,
) -> AsyncIterator[bytes]:
    """The lines of a game in progress after its `first` (sent as it is; the game had `last`
    moves then)."""
    yield first
    del first  # (an open stream keeps as little as it can: the first line holds the log)
    async with streams.stream_watch(str(game_id), credential, last) as watch:
        # Whatever landed between the view's read and the watch is read now.
        watch.changed.set()
        while True:
            # Idle: a keep-alive every IDLE_SECONDS, and one read when the game's time is up.
            wait = streams.IDLE_SECONDS
            if ends_at is not None:
                wait = max(0.0, min(wait, (ends_at - timezone.now()).total_seconds()))
            try:
                await asyncio.wait_for(watch.changed.wait(), wait)
            except TimeoutError:
                if ends_at is None or timezone.now() < ends_at:
                    yield b"\n"
                    continue
                ends_at = None  # read once now; any later read ends it too (_read_since)
            watch.changed.clear()
            if watch.ended:
                return
            try:
                found = await _read_in_pool(game_id, last, viewer, credential)
            except Game.DoesNotExist:
                return
            if found is None:
                return
            rows, payload, over = found
            for row in rows:
                last = watch.seen = row["n"]
                yield _line({"type": "action", "action": row, "game": payload})
            if over:
                yield _end(payload)
                return
            del found, rows, payload  # (not kept while the stream waits)


class GameStreamApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]
    renderer_classes = [JSONRenderer, NDJSONRenderer, NDJSONBytesRenderer]

    @extend_schema(
        parameters=[GAME_ID],
        responses=answers(
            {
                (200, NDJSON): OpenApiResponse(
                    STREAM_LINE,
                    description=(
                        "NDJSON, open until the game ends: a `game` line, an `action` line for "
                        "each applied action (within a second of its commit), an empty line "
                        "every 10 s while idle, and an `end` line last; closed without one "
                        "within 10 s of its key's, token's or account's end"
                    ),
                ),
            },
            401,
            404,
            429,
        ),  # fmt: skip
        summary="The game's events as they happen (NDJSON)",
        operation_id="games_stream",
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        game = game_read_for(request, game_id)
        credential = request_credential(request)
        if game.status == Game.Status.PLAYING:
            _hold_places(request, credential)
        first = game_payload(game, viewer=request.user, with_log=True)
        line = _line({"type": "game", "game": first})
        if game.status != Game.Status.PLAYING:
            return _ndjson(_lines(line, _end(first)), ndjson_type(request))
        ends_at = services.game_day_ends_at(game)
        lines = _stream(game.pk, game.actions_count, line, request.user, credential, ends_at)
        # Under uvicorn the lines are sent once Django is done with the request (a stream holds
        # none of its objects: games/streams.py).
        return _ndjson(_lines() if sockets.send_after(lines) else lines, ndjson_type(request))


def _end(game: dict[str, Any]) -> bytes:
    return _line({"type": "end", "game": game})


async def _lines(*lines: bytes) -> AsyncIterator[bytes]:
    for line in lines:
        yield line


def stream_view(api: type[APIView]) -> Callable[..., Coroutine[Any, Any, HttpResponseBase]]:
    """The async view of a stream's APIView, whose database work runs, under an ASGI server, in
    the streams' pool (games/streams.py: an opening makes no connection of its own); elsewhere
    (the test client, a WSGI server) in the request's thread, within its transaction."""
    view = api.as_view()
    in_pool = streams.in_pool(view)

    async def stream(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        if isinstance(request, ASGIRequest):
            return await in_pool(request, **kwargs)
        return await sync_to_async(view)(request, **kwargs)

    # The schema (drf-spectacular), CSRF and the URL resolver see the APIView's view.
    functools.update_wrapper(stream, view, assigned=(), updated=("__dict__",))
    return stream


# `GET games/{id}/stream`
game_stream = stream_view(GameStreamApi)


def _hold_places(request: Request, credential: selectors.Credential | None) -> None:
    """Takes the stream's places (core/sockets.py), or raises TooManyStreams."""
    if not sockets.hold("stream", client_key(request)):
        raise TooManyStreams(
            _("This address already holds %(max)s open streams: close one first.")
            % {"max": settings.STREAMS_PER_ADDRESS}
        )
    if credential is not None and not sockets.hold("stream-account", str(request.user.pk)):
        sockets.release()  # (the address's place too: the opening is refused)
        raise TooManyStreams(
            _("This account already holds %(max)s open streams: close one first.")
            % {"max": settings.STREAMS_PER_ACCOUNT}
        )


# ---- the account's events (accounts/events.py) ------------------------------------------------


def _events_since(
    user_id: int, last: int, credential: selectors.Credential | None
) -> list[dict[str, Any]] | None:
    """In a worker thread: the account's events after `last`; None once `credential` would no
    longer be accepted (games/streams.py), checked after the read (as `_read_since`)."""
    found = events.events_after(user_id=user_id, after=last)
    if credential is not None and not selectors.credentials_alive([credential]):
        return None
    return found


_events_in_pool = streams.in_pool(_events_since)


async def account_event_lines(
    user_id: int, last: int, credential: selectors.Credential | None
) -> AsyncIterator[bytes]:
    """The account's events after the position `last`, as they come, after an empty line at
    once (the stream is open: a server may send the headers only with the first line) and the
    opening line (`events.OPENED`: its id is `last`, where a reconnection resumes)."""
    yield b"\n"
    yield _line(events.opened_payload(last))
    async with streams.stream_watch(events.account_name(user_id), credential, last) as watch:
        watch.changed.set()  # what came before the watch (or after `since`) is read now
        while True:
            try:
                await asyncio.wait_for(watch.changed.wait(), streams.IDLE_SECONDS)
            except TimeoutError:
                yield b"\n"
                continue
            watch.changed.clear()
            if watch.ended:
                return
            found = await _events_in_pool(user_id, last, credential)
            if found is None:
                return
            for event in found:
                last = watch.seen = event["id"]
                yield _line(event)
            if len(found) == events.READ_BATCH:  # more to read at once
                watch.changed.set()
            del found


class AccountEventSerializer(serializers.Serializer[object]):
    id = serializers.IntegerField(
        help_text=(
            f"the event's id: `since` resumes after it (on the first line, `{events.OPENED}`: "
            "the position the stream starts after)"
        )
    )
    type = serializers.ChoiceField(
        choices=[events.OPENED, *events.KINDS],
        help_text=(
            f"`{events.OPENED}` on the first line only; a client ignores types it does not know"
        ),
    )
    at = serializers.DateTimeField()
    # (a field named `data`: DRF's metaclass moves it into the declared fields, so the
    # serializer's `data` property stays as it is; the stubs see a class attribute)
    data = serializers.JSONField(  # type: ignore[assignment]
        help_text='by type: docs/api.md "Streams and exports"'
    )


def _since_message() -> str:
    return _("since must be the id of an event of the last %(days)s days.") % {
        "days": settings.EVENTS_KEPT_DAYS
    }


SINCE_REFUSED = lazy(_since_message, str)()


class AccountEventsQuerySerializer(serializers.Serializer[object]):
    since = WholeNumberField(
        required=False,
        error_messages=dict.fromkeys(("invalid", "max_string_length"), SINCE_REFUSED),
        help_text=(
            "the id of the last event (or `stream_opened` line) received: the stream starts "
            "after it; refused if later than the last event or if an event after it was "
            "forgotten (older than the kept days)"
        ),
    )


class AccountEventsApi(APIView):
    renderer_classes = [JSONRenderer, NDJSONRenderer, NDJSONBytesRenderer]

    @extend_schema(
        parameters=[AccountEventsQuerySerializer],
        responses=answers(
            {
                (200, NDJSON): OpenApiResponse(
                    AccountEventSerializer,
                    description=(
                        "NDJSON, open until closed: an empty line at once, then the "
                        "`stream_opened` line (its id: where the stream starts, `since` if "
                        "given, to resume from), then an event a line (within a second of its "
                        "commit), after `since` if given, else from the opening on; an empty "
                        "line every 10 s while idle; closed within 10 s of its key's, token's "
                        "or account's end"
                    ),
                ),
            },
            400,
            401,
            403,
            429,
        ),  # fmt: skip
        summary="The account's events as they happen (NDJSON)",
        operation_id="account_events",
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        since = query_read(request, AccountEventsQuerySerializer).get("since")
        user_id = request.user.pk
        assert user_id is not None  # (IsAuthenticated: an account's)
        if since is None:
            last = events.events_position()
        elif events.since_accepted(since):
            last = since
        else:
            raise InvalidRequest(_since_message())
        credential = request_credential(request)
        _hold_places(request, credential)
        if sockets.send_after(account_event_lines(user_id, last, credential)):
            return _ndjson(_lines(), ndjson_type(request))
        # No ASGI server to hold it open (a WSGI server, the test client; production sends this
        # path to the ws processes): the events there are after `last`, then the end.
        backlog = [_line(event) for event in events.events_after(user_id=user_id, after=last)]
        opened = _line(events.opened_payload(last))
        return _ndjson(iter([b"\n", opened, *backlog]), ndjson_type(request))


# `GET account/events`
account_events = stream_view(AccountEventsApi)


# ---- a player's finished public games ----------------------------------------------------------


class PlayerGamesQuerySerializer(GameFilterSerializer, PageQuerySerializer):
    status = serializers.ChoiceField(choices=FINISHED, required=False)


class PlayerGamesApi(APIView):
    permission_classes = [AllowAny, ScopeRequired]
    renderer_classes = [JSONRenderer, NDJSONRenderer]

    @extend_schema(
        parameters=[PlayerGamesQuerySerializer],
        responses=answers(
            {
                200: GamePageSerializer,
                (200, NDJSON): OpenApiResponse(
                    GameOutSerializer,
                    description="with `Accept: application/x-ndjson`: every one, a GAME a line",
                ),
            },
            400,
            401,
            404,
        ),  # fmt: skip
        summary=f"A player's finished public games, newest first ({PLAYER_GAMES_PAGE_SIZE} a page)",
        operation_id="players_games",
    )
    def get(self, request: Request, username: str) -> Response | StreamingHttpResponse:
        query = query_read(request, PlayerGamesQuerySerializer)
        games = selectors.game_list_public_of(username=username, **game_filters(query))
        if request.accepted_renderer.media_type == NDJSON:
            viewer = request.user
            games = games[: query["max"]] if "max" in query else games
            return _ndjson(
                _line(game_payload(game, viewer=viewer)) for game in games.iterator(chunk_size=200)
            )
        return Response(game_page(request, games, query=query, default_size=PLAYER_GAMES_PAGE_SIZE))
