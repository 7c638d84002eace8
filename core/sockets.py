"""What a WebSocket or a game stream may cost: the frame limit, the sockets per client address
and the open streams per client address and per account.

Clients of the live boards never need to send anything (the consumers ignore what they send), so
- a client frame or message over `WS_MAX_MESSAGE` bytes (4 KiB) closes its socket with 1009 as
  soon as its header announces the length, before any of it is buffered: uvicorn's
  `--ws-max-size` (scripts/serve-ws.sh), daphne's DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE and
  DAPHNE_WEBSOCKET_MAX_FRAME_SIZE settings under `runserver` (its `--websocket-max-*` options
  under `daphne`); the servers enforce it, nothing here does;
- one client address (core/clients.py: the proxy's view of it; an IPv6 client's /64,
  as every per-address count, `client_key`) holds at most `WS_PER_ADDRESS` sockets; the next is
  accepted and closed at once with 4429 (a browser sees a close code, never a refused
  handshake's status), and a closed socket frees its place.

Game streams (games/stream_api.py) are held the same way, in places of their own: at most
`STREAMS_PER_ADDRESS` per client address and `STREAMS_PER_ACCOUNT` per account; the view takes
them (`hold`) and `PlacesHeld`, around the ASGI HTTP application, gives them back when the
response ends, however it ends (sent in full, the client gone, the request cancelled); it also
lets a process answer at most OPENING requests at once until their response starts.

With REDIS_URL the places are counted across processes: each address has a sorted set in Redis
(`ws:{db}:{address}`, streams' `stream:{db}:{address}` and `stream-account:{db}:{user id}`;
member: one socket or stream, value: when its lease ends). A process renews its
sockets' leases every third of LEASE (adding them again after a Redis restart) and removes a
socket when it closes; a process that dies stops renewing, so its places free themselves within
LEASE seconds. Each process also counts its own sockets, so the limit holds in this process
while Redis is down (the Redis count is skipped then, with a warning). Without Redis (the
embedded mode: one process) this process's count is the count.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import itertools
import logging
import time
import uuid
import weakref
from collections.abc import AsyncIterator
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest

from core.clients import client_key
from core.logs import WarnEvery
from core.redis_clients import redis_async_client

logger = logging.getLogger(__name__)

CLOSE_TOO_MANY = 4429
LEASE = 30.0
REDIS_TIMEOUT = 0.5

_warn = WarnEvery(logger, seconds=30.0)

# Drops the expired places, then takes one if the address has fewer than the limit.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


def socket_address(scope: dict[str, Any]) -> str:
    """The client key of a WebSocket's scope (`client_key`: an IPv6 client's /64), read as an
    HTTP request's would be."""
    return client_key(ASGIRequest({**scope, "method": "GET"}, io.BytesIO()))


class AddressPlaces:
    """The sockets per address of this process (and, given a Redis client, of all processes)."""

    def __init__(
        self, limit: int, client: redis.asyncio.Redis | None, namespace: str, lease: float = LEASE
    ) -> None:
        self.limit = limit
        self.client = client
        self.namespace = namespace
        self.lease = lease
        self.take_script = None if client is None else client.register_script(_TAKE)
        self.held: dict[str, set[str]] = {}
        self.names = (f"{uuid.uuid4().hex}:{n}" for n in itertools.count())
        self.renewer: asyncio.Task[None] | None = None

    def _key(self, address: str) -> str:
        return f"{self.namespace}:{address}"

    async def take(self, address: str) -> str | None:
        """A place for one more socket of `address` (its name), or None when it holds them all."""
        mine = self.held.setdefault(address, set())
        if len(mine) >= self.limit:
            return None
        place = next(self.names)
        mine.add(place)  # before the wait on Redis: this process's count holds meanwhile
        if self.take_script is not None:
            now = time.time()
            args: list[str | int] = [
                _ms(now),
                self.limit,
                _ms(now + self.lease),
                place,
                _ms(self.lease),
            ]
            try:
                taken = await self.take_script(keys=[self._key(address)], args=args)
            except redis.RedisError as error:
                _warn("ws_places_unavailable", {"error": repr(error)})
                taken = True
            if not taken:
                self._forget(address, place)
                return None
            if self.renewer is None:
                self.renewer = asyncio.create_task(self._renew())
        return place

    async def give_back(self, address: str, place: str) -> None:
        self._forget(address, place)
        if not self.held and self.renewer is not None:
            self.renewer.cancel()
            self.renewer = None
        if self.client is not None:
            try:
                await self.client.zrem(self._key(address), place)
            except redis.RedisError as error:  # its lease ends on its own
                _warn("ws_places_unavailable", {"error": repr(error)})

    def _forget(self, address: str, place: str) -> None:
        mine = self.held[address]
        mine.discard(place)
        if not mine:
            del self.held[address]

    async def _renew(self) -> None:
        assert self.client is not None
        while True:
            await asyncio.sleep(self.lease / 3)
            expires = _ms(time.time() + self.lease)
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for address, places in self.held.items():
                        pipe.zadd(self._key(address), dict.fromkeys(places, expires))
                        pipe.pexpire(self._key(address), _ms(self.lease))
                    await pipe.execute()
            except redis.RedisError as error:
                _warn("ws_places_unavailable", {"error": repr(error)})


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


# The places of each event loop, by kind (tests run several loops in one process; a Redis
# client belongs to the loop it was made in).
_places: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, AddressPlaces]]
_places = weakref.WeakKeyDictionary()

# Each kind of place and the setting that is its limit.
LIMITS = {
    "ws": "WS_PER_ADDRESS",
    "stream": "STREAMS_PER_ADDRESS",
    "stream-account": "STREAMS_PER_ACCOUNT",
}


def places(kind: str = "ws") -> AddressPlaces:
    loop = asyncio.get_running_loop()
    kinds = _places.setdefault(loop, {})
    found = kinds.get(kind)
    if found is None:
        client = None
        if settings.REDIS_URL:
            client = redis_async_client(timeout=REDIS_TIMEOUT)
        namespace = f"{kind}:{settings.DATABASES['default']['NAME']}"
        limit = getattr(settings, LIMITS[kind])
        found = kinds[kind] = AddressPlaces(limit, client, namespace)
    return found


# The places the current HTTP request holds (set by PlacesHeld; None outside of it).
_held: contextvars.ContextVar[list[tuple[AddressPlaces, str, str]] | None]
_held = contextvars.ContextVar("places_held", default=None)


def hold(kind: str, key: str) -> bool:
    """From a view (a sync thread of the ASGI application): takes a place of `kind` for `key`
    until the response ends; False if `key` holds all of them. Outside PlacesHeld (a WSGI
    server, the test client) there is no response to outlive the view, and nothing is held."""
    held = _held.get()
    if held is None:
        return True
    return async_to_sync(_take)(held, kind, key)


def release() -> None:
    """From a view: gives back now every place the current request holds, so that a refused
    opening does not count while its answer goes out (the client's next request may come
    before the response has ended)."""
    held = _held.get()
    if held:
        async_to_sync(_give_back_all)(held)


async def _give_back_all(held: list[tuple[AddressPlaces, str, str]]) -> None:
    while held:
        kind_places, key, place = held.pop()
        await kind_places.give_back(key, place)


async def _take(held: list[tuple[AddressPlaces, str, str]], kind: str, key: str) -> bool:
    kind_places = places(kind)
    place = await kind_places.take(key)
    if place is not None:
        held.append((kind_places, key, place))
    return place is not None


# HTTP requests a ws process answers at once until their response starts (a stream's is its
# headers): each takes a thread meanwhile (Django's ASGI handler runs a request's sync
# middleware in a thread of its own; a stream's database work waits for the streams' pool,
# games/streams.py), so a flood of stream openings waits here, in the event loop, rather than
# take a thread each. An open stream holds neither a thread nor a connection.
OPENING = 8
_opening: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
_opening = weakref.WeakKeyDictionary()


# The body a view handed over (`send_after`; set by PlacesHeld, None outside of it).
_after: contextvars.ContextVar[list[AsyncIterator[bytes]] | None]
_after = contextvars.ContextVar("body_after", default=None)


def send_after(body: AsyncIterator[bytes]) -> bool:
    """From a view whose response is a stream's headers (a 200 with an empty streaming body):
    PlacesHeld sends `body` after them once Django is done with the request, so that an open
    stream holds none of the request's objects, nor its thread; False outside PlacesHeld (a
    WSGI server, the test client): the view's response sends `body` itself then."""
    after = _after.get()
    if after is None:
        return False
    after.append(body)
    return True


class PlacesHeld:
    """ASGI middleware for HTTP: the places a request's view took (`hold`) are given back when
    the application is done with the request (its response sent, or the client gone); a body
    handed over (`send_after`) is sent after the application's response, which it then holds;
    at most OPENING requests are answered at once until their response starts."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        held: list[tuple[AddressPlaces, str, str]] = []
        token = _held.set(held)
        after: list[AsyncIterator[bytes]] = []
        after_token = _after.set(after)
        loop = asyncio.get_running_loop()
        opening = _opening.get(loop)
        if opening is None:
            opening = _opening[loop] = asyncio.Semaphore(OPENING)
        await opening.acquire()
        started = handed = False

        async def send_started(message: dict[str, Any]) -> None:
            nonlocal started, handed
            if not started and message["type"] == "http.response.start":
                started = True
                handed = bool(after) and message["status"] == 200
                opening.release()
            elif handed:
                return  # the application's (empty) body: the handed-over one follows
            await send(message)

        try:
            await self.application(scope, receive, send_started)
            if handed:
                await _send_body(after.pop(), receive, send)
        finally:
            if not started:
                opening.release()
            _held.reset(token)
            _after.reset(after_token)
            for kind_places, key, place in held:
                await kind_places.give_back(key, place)


async def _send_body(body: AsyncIterator[bytes], receive: Any, send: Any) -> None:
    """Sends `body` as it comes, until it ends or the client leaves (then it is cancelled)."""

    async def lines() -> None:
        async for line in body:
            await send({"type": "http.response.body", "body": line, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    sending, leaving = asyncio.ensure_future(lines()), asyncio.ensure_future(gone())
    try:
        await asyncio.wait([sending, leaving], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sending, leaving):
            task.cancel()
        await asyncio.gather(sending, leaving, return_exceptions=True)
    if sending.done() and not sending.cancelled():
        sending.result()  # (its error, if any, is the server's to log)


class SocketsPerAddress:
    """ASGI middleware for WebSockets: at most WS_PER_ADDRESS open sockets per client address
    (an IPv6 client's /64; see the module's docstring)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        address = socket_address(scope)
        held = places()
        place = await held.take(address)
        if place is None:
            await _refuse(receive, send)
            return
        try:
            await self.application(scope, receive, send)
        finally:
            await held.give_back(address, place)


async def _refuse(receive: Any, send: Any) -> None:
    """Accepted (a close code reaches the client only on an open socket), closed with 4429."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    reason = "too many sockets from this address"
    await send({"type": "websocket.close", "code": CLOSE_TOO_MANY, "reason": reason})
    while (await receive())["type"] != "websocket.disconnect":
        pass
