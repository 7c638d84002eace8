"""Game streams (API.md "Streams and exports"): `GET games/{id}/stream` stays open while the game
is played and sends a line for each applied action within a second of its commit.

Why async views under uvicorn (the WebSocket processes) and not the live boards' hub: a stream
has one listener (only the owner sees a game in progress), so there is nothing to batch or fan
out as the boards do for thousands of listeners of one board; what costs is holding the open
responses. An async response under uvicorn is a coroutine parked on an `asyncio.Event` (a few
KiB), where gunicorn would hold a thread (or a process) for each. So nginx sends
`/api/v1/games/{id}/stream` to the ws upstream unbuffered, and the view hands Django's ASGI
handler an async iterator (`StreamingHttpResponse`), which it sends as it yields.

How a commit reaches a stream: the write path (`games.services`) calls `game_changed` after
each commit; with Redis that is one `PUBLISH` on the game's channel (every process hears it),
without Redis (development, one process) a wake-up of this process's streams. Each process
holds one Redis connection subscribed to the channels of the games it streams (`_Hub`), and a
stream woken reads the new log rows and the game from the database itself. Nothing is lost
when a wake-up is (Redis down, a restart): every stream also reads again after each idle
keep-alive (10 s), which also notices a daily game ended by the scheduler at its day's end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
import redis.asyncio
from django.conf import settings

log = logging.getLogger(__name__)

# An empty line this often while nothing happens (keeps proxies and clients from timing out).
IDLE_SECONDS = 10.0
# As the boards and the sockets count: an action never waits long on a Redis that is away.
REDIS_TIMEOUT = 0.5
# How long the subscriber waits before subscribing again after Redis failed.
RESUBSCRIBE_SECONDS = 1.0

# The open streams of this process, by game id: each an event set when that game changed.
_watchers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
_watchers_lock = threading.Lock()
_publisher: list[redis.Redis] = []


def _channel(game_id: str) -> str:
    return f"stream:{settings.DATABASES['default']['NAME']}:{game_id}"


def _wake_local(game_id: str) -> None:
    with _watchers_lock:
        events = list(_watchers.get(game_id, ()))
    for loop, event in events:
        with contextlib.suppress(RuntimeError):  # a closed loop: its stream is gone
            loop.call_soon_threadsafe(event.set)


def game_changed(game_id: Any) -> None:
    """After the commit of a change of the game `game_id`: wake its streams, in every process.
    Never raises: a lost wake-up delays a stream to its next idle re-read, nothing more."""
    game_id = str(game_id)
    if not settings.REDIS_URL:
        _wake_local(game_id)
        return
    try:
        if not _publisher:
            _publisher.append(
                redis.Redis.from_url(
                    settings.REDIS_URL,
                    socket_timeout=REDIS_TIMEOUT,
                    socket_connect_timeout=REDIS_TIMEOUT,
                )
            )
        _publisher[0].publish(_channel(game_id), b"1")
    except redis.RedisError as error:
        log.warning("stream_publish_failed", extra={"game": game_id, "error": repr(error)})


class _Hub:
    """One event loop's Redis subscriber: subscribed to the channels of the games streamed in
    this loop, it wakes their streams."""

    def __init__(self) -> None:
        self.client = redis.asyncio.Redis.from_url(
            settings.REDIS_URL, socket_timeout=None, socket_connect_timeout=REDIS_TIMEOUT
        )
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.games: dict[str, int] = {}
        self.changed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())

    def join(self, game_id: str) -> None:
        self.games[game_id] = self.games.get(game_id, 0) + 1
        if self.games[game_id] == 1:
            self.changed.set()

    def leave(self, game_id: str) -> None:
        self.games[game_id] -= 1
        if not self.games[game_id]:
            del self.games[game_id]
            self.changed.set()

    async def _sync(self, subscribed: set[str]) -> None:
        """Subscribe to the channels of the games streamed now, and only those."""
        wanted = {_channel(game) for game in self.games}
        new = wanted - subscribed
        if new:
            await self.pubsub.subscribe(*new)
            # A change published before this subscription: those streams read again.
            prefix = _channel("")
            for channel in new:
                _wake_local(channel[len(prefix) :])
        if subscribed - wanted:
            await self.pubsub.unsubscribe(*(subscribed - wanted))
        subscribed.clear()
        subscribed.update(wanted)

    async def _run(self) -> None:
        prefix = _channel("")
        subscribed: set[str] = set()
        while True:
            try:
                if self.changed.is_set() or not subscribed:
                    self.changed.clear()
                    await self._sync(subscribed)
                if not subscribed:
                    await self.changed.wait()
                    continue
                message = await self.pubsub.get_message(timeout=0.5)
                if message and message["type"] == "message":
                    _wake_local(message["channel"].decode()[len(prefix) :])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: subscribe again, the streams re-read
                log.warning("stream_subscribe_failed", extra={"error": repr(error)})
                subscribed.clear()
                await self.pubsub.reset()
                self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)
                # Whatever was published meanwhile is unknown: every stream reads again.
                for game in list(self.games):
                    _wake_local(game)


# One hub per event loop (tests run several loops in one process; a Redis client belongs to
# the loop it was made in).
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()


def _hub() -> _Hub | None:
    if not settings.REDIS_URL:
        return None
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = _Hub()
    return hub


@contextmanager
def game_watch(game_id: Any) -> Iterator[asyncio.Event]:
    """In an async stream: an event set whenever the game changes (clear it after each read),
    for as long as the block lasts."""
    game_id = str(game_id)
    event = asyncio.Event()
    entry = (asyncio.get_running_loop(), event)
    with _watchers_lock:
        _watchers.setdefault(game_id, set()).add(entry)
    hub = _hub()
    if hub is not None:
        hub.join(game_id)
    try:
        yield event
    finally:
        if hub is not None:
            hub.leave(game_id)
        with _watchers_lock:
            watchers = _watchers.get(game_id, set())
            watchers.discard(entry)
            if not watchers:
                _watchers.pop(game_id, None)
