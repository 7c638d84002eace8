"""The account's events over a WebSocket (`/ws/account/events`, docs/api.md "Streams and
exports"): the same events as `GET account/events`, one JSON text message each, as its NDJSON
lines are; resumable with `?since=`; ASGI only (the ws processes).

It is the NDJSON stream's generator (games.stream_api) sent as messages, so it costs what an
open stream costs (games/streams.py: no thread, no database connection; its database steps in
the streams' pool) and ends as one does: once its key, token or session would answer 401, within
one keep-alive (IDLE_SECONDS), closed with 4401. No keep-alive message: the server's WebSocket
pings keep it up through proxies (scripts/serve-ws.sh).

Who: the key or OAuth access token after `Authorization: Token` or `Bearer` (scope
`account:read`), or the site's session cookie (a browser: the origin is checked first,
canfield_site/asgi.py; the site's own pages listen so, for their live notices:
web/static/web/notices.js). The socket takes one of the account's stream places
(STREAMS_PER_ACCOUNT) beside its address's socket place (WS_PER_ADDRESS).

The first message is `stream_opened` (its id: the position the socket starts after, where a
reconnection resumes with `?since=`), as the NDJSON stream's first line.

Close codes: 4400 a `since` from the future or after which events were forgotten, 4401 no
credential (or it ended), 4403 a key or token without `account:read`, 4429 the account holds
all its streams.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping
from http.cookies import SimpleCookie
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user
from django.core.handlers.asgi import ASGIRequest
from rest_framework.exceptions import AuthenticationFailed

from accounts import events
from accounts.authentication import TokenAuthentication
from accounts.scopes import ACCOUNT_READ
from core import sockets
from games import selectors, streams
from games.stream_api import account_event_lines

CLOSE_BAD_REQUEST = 4400
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY = sockets.CLOSE_TOO_MANY


def _credential(scope: Mapping[str, Any]) -> tuple[Any, selectors.Credential] | int:
    """The socket's user and credential, or the close code that refuses it."""
    headers = dict(scope.get("headers", []))
    words = headers.get(b"authorization", b"").split()
    if words and words[0].lower() in (b"token", b"bearer"):
        try:
            key = words[1].decode() if len(words) == 2 else ""
            user, auth = TokenAuthentication().authenticate_credentials(key)
        except (AuthenticationFailed, UnicodeError):
            return CLOSE_UNAUTHENTICATED
        if ACCOUNT_READ not in auth.scopes:
            return CLOSE_FORBIDDEN
        if auth.key_id is not None:
            return user, selectors.Credential("key", auth.key_id)
        return user, selectors.Credential("oauth", auth.oauth_token_id)  # type: ignore[arg-type]
    cookie = SimpleCookie(headers.get(b"cookie", b"").decode("latin1"))
    session = cookie.get(settings.SESSION_COOKIE_NAME)
    if session is None:
        return CLOSE_UNAUTHENTICATED
    request = ASGIRequest({**scope, "method": "GET"}, io.BytesIO())
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session.value)
    user = get_user(request)
    if not user.is_authenticated:
        return CLOSE_UNAUTHENTICATED
    return user, selectors.Credential("user", user.pk)


def _open(scope: Mapping[str, Any]) -> tuple[int, selectors.Credential, int] | int:
    """In the streams' pool: the socket's account, credential and the event it starts after,
    or the close code that refuses it."""
    found = _credential(scope)
    if isinstance(found, int):
        return found
    user, credential = found
    since = parse_qs(scope.get("query_string", b"").decode("latin1")).get("since")
    if since is None:
        return user.pk, credential, events.events_position()
    if not (since[-1].isdigit() and events.since_accepted(int(since[-1]))):
        return CLOSE_BAD_REQUEST
    return user.pk, credential, int(since[-1])


_open_in_pool = streams.in_pool(_open)


class AccountEventsConsumer(AsyncWebsocketConsumer):
    # No channel on the layer: the account's wake-ups come through games/streams.py.
    channel_layer_alias = None  # type: ignore[assignment]
    sender: asyncio.Task[None] | None = None
    place: str | None = None

    async def connect(self) -> None:
        await self.accept()  # first: a close code reaches the client only on an open socket
        opened = await _open_in_pool(self.scope)
        if isinstance(opened, int):
            reason = {
                CLOSE_BAD_REQUEST: "since is in the future or events after it were forgotten",
                CLOSE_UNAUTHENTICATED: "authentication required",
                CLOSE_FORBIDDEN: "the key or token lacks account:read",
            }[opened]
            await self.close(code=opened, reason=reason)
            return
        user_id, credential, last = opened
        self.account = str(user_id)
        self.place = await sockets.places("stream-account").take(self.account)
        if self.place is None:
            await self.close(code=CLOSE_TOO_MANY, reason="the account holds all its streams")
            return
        self.sender = asyncio.create_task(self._send(user_id, last, credential))

    async def _send(self, user_id: int, last: int, credential: selectors.Credential) -> None:
        async for line in account_event_lines(user_id, last, credential):
            if line != b"\n":  # (the NDJSON's keep-alives: pings do that here)
                await self.send(text_data=line.decode().rstrip("\n"))
        await self.close(code=CLOSE_UNAUTHENTICATED, reason="the credential ended")

    async def disconnect(self, code: int) -> None:
        if self.sender is not None and self.sender is not asyncio.current_task():
            self.sender.cancel()
        if self.place is not None:
            place, self.place = self.place, None
            await sockets.places("stream-account").give_back(self.account, place)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Listeners only listen: anything they send is ignored."""
