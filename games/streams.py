"""Game streams (docs/api.md "Streams and exports"): `GET games/{id}/stream` stays open while
the game is played and sends a line for each applied action within a second of its commit.

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
stream woken reads the new log rows and the game from the database itself.

What an open stream holds: no thread and no database connection. Every database step of a
stream (its opening's authentication and checks, a woken stream's read, the timed check below)
runs in `in_pool`: a pool of DATABASE_THREADS threads shared by all of the process's streams,
each thread keeping its one connection (CONN_MAX_AGE) for the next step, so a process holds
at most DATABASE_THREADS sessions for its streams however many it serves, and an opening makes
no new session. Nor does it keep the request: Django's ASGI handler gives each request a
thread of its own (for its sync middleware) until the request ends, and keeps the request's
objects as long; so the view hands its lines over (`core.sockets.send_after`), Django
answers the headers and is done, and the lines follow, sent by the ASGI middleware.

An idle stream costs nothing but its keep-alive timer: it reads only when woken (or once when
its daily or match game's time is up: the day's end ends it, R26a). Wake-ups lost while the
subscriber was cut off from Redis are made good when it subscribes again: every stream of the
process reads then; one lost otherwise (a publish that failed) by the process's timed check
below, which also reads each streamed game's move count and wakes the streams behind it.

The account event streams (`GET account/events`, accounts/events.py) go the same way: a watch is
named `account:{user id}` rather than by a game, what it has seen is the id of the last event
it sent, an event for every account (a new day) is published once on the EVERY_ACCOUNT channel
and wakes them all, and the timed check reads the last event id of every account the process
streams in one query (not a read per stream), after stamping the events a writer left without
their id (accounts/events.py). The account's WebSocket (games/consumers.py) is the same stream
sent as messages.

A stream lives by the credential that opened it (an API key, an OAuth token, a session): once a
REST request with it would answer 401 (the key or token revoked or expired, the account deleted),
the stream closes within a keep-alive (`IDLE_SECONDS`), without another line. Each read checks
the credential with the game (so no action is sent after a revocation), and each event loop
checks all of its streams' credentials in one query per kind (`_Sweeper`, with one query for
its games' move counts): every IDLE_SECONDS
while it holds streams, and at once when told (`credentials_changed`, published on one Redis
channel that every process's subscriber hears) that a key was revoked or an account deleted.
The timed check catches the rest (expiry, OAuth revocation inside django-oauth-toolkit, a
message lost while Redis was away) with one query per process, however many streams it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from accounts.events import events_stamp
from core.logs import WarnEvery
from core.redis_clients import redis_async_client, redis_client
from games.selectors import Credential, account_last_events, credentials_alive, game_moves

log = logging.getLogger(__name__)
_warn = WarnEvery(log, seconds=30.0)

# An empty line this often while nothing happens (keeps proxies and clients from timing out).
IDLE_SECONDS = 10.0
# As the boards and the sockets count: an action never waits long on a Redis that is away.
REDIS_TIMEOUT = 0.5
# How long the subscriber waits before subscribing again after Redis failed.
RESUBSCRIBE_SECONDS = 1.0


class Watch:
    """One open stream's wake-up: `changed` is set when what it streams changed (clear it after
    each read, and keep `seen` up to date: a game's move count sent, or an account's last event
    id sent) or its credential ended (then `ended` is true). `name`: a game's id, or
    `account_name(user id)` for an account's events."""

    def __init__(self, name: str, credential: Credential | None, seen: int) -> None:
        self.name = name
        self.credential = credential
        self.seen = seen
        self.changed = asyncio.Event()
        self.ended = False

    def end(self) -> None:
        self.ended = True
        self.changed.set()


# The open streams of this process, by name (Watch).
_watchers: dict[str, set[tuple[asyncio.AbstractEventLoop, Watch]]] = {}
_watchers_lock = threading.Lock()
_publisher: list[redis.Redis] = []
# The channel's name after the prefix that tells the subscriber to check the credentials.
CREDENTIALS = "credentials"
# An account's events' name (Watch), and the channel of the events every account receives.
ACCOUNT = "account:"
EVERY_ACCOUNT = "accounts"


def account_name(user_id: Any) -> str:
    return f"{ACCOUNT}{user_id}"


# The threads (and so the database connections) of a process's streams (module docstring).
DATABASE_THREADS = 4
_pool = ThreadPoolExecutor(DATABASE_THREADS, thread_name_prefix="streams-db")

_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_pool(function: Callable[_P, _R]) -> Callable[_P, Awaitable[_R]]:
    """`function` as a coroutine run in the streams' database pool (module docstring)."""

    @functools.wraps(function)
    def step(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        close_old_connections()  # these threads serve no request whose end would close them
        return function(*args, **kwargs)

    return sync_to_async(step, thread_sensitive=False, executor=_pool)


def _channel(game_id: str) -> str:
    return f"stream:{settings.DATABASES['default']['NAME']}:{game_id}"


def _wake_local(name: str) -> None:
    with _watchers_lock:
        if name == EVERY_ACCOUNT:
            watches = [w for key, ws in _watchers.items() if key.startswith(ACCOUNT) for w in ws]
        else:
            watches = list(_watchers.get(name, ()))
    for loop, watch in watches:
        with contextlib.suppress(RuntimeError):  # a closed loop: its stream is gone
            loop.call_soon_threadsafe(watch.changed.set)


def _check_local() -> None:
    with _watchers_lock:  # (called from a request's thread)
        sweepers = list(_sweepers.items())
    for loop, sweeper in sweepers:
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(sweeper.due.set)


def _publish(name: str, on_failure: str) -> None:
    try:
        if not _publisher:
            _publisher.append(redis_client(timeout=REDIS_TIMEOUT))
        _publisher[0].publish(_channel(name), b"1")
    except redis.RedisError as error:
        log.warning(on_failure, extra={"channel": name, "error": repr(error)})


def game_changed(game_id: Any) -> None:
    """After the commit of a change of the game `game_id`: wake its streams, in every process.
    Never raises: a lost wake-up is made good when the subscriber is back (module docstring)."""
    changed(str(game_id))


def changed(name: str) -> None:
    """After the commit of a change of what the streams named `name` (Watch) stream, or of an
    event for every account (EVERY_ACCOUNT): wake them, in every process. Never raises."""
    if settings.REDIS_URL:
        _publish(name, "stream_publish_failed")
    else:
        _wake_local(name)


def accounts_changed(users: Iterable[Any]) -> None:
    """After the commit of account events (accounts/events.py): wake the event streams of the
    accounts `users` (a user id, or None: every account's). Never raises."""
    for user in users:
        changed(EVERY_ACCOUNT if user is None else account_name(user))


def credentials_changed() -> None:
    """After the commit of a key's revocation or an account's deletion: every process checks
    its streams' credentials now rather than at its next timed check. Never raises."""
    if settings.REDIS_URL:
        _publish(CREDENTIALS, "stream_publish_failed")
    else:
        _check_local()


class _Sweeper:
    """One event loop's check of its streams' credentials (module docstring): a task that runs
    while the loop holds streams."""

    def __init__(self) -> None:
        self.watches: set[Watch] = set()
        self.due = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def join(self, watch: Watch) -> None:
        self.watches.add(watch)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    def leave(self, watch: Watch) -> None:
        self.watches.discard(watch)
        if not self.watches and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        check = in_pool(_check)
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.due.wait(), IDLE_SECONDS)
            self.due.clear()
            watches = list(self.watches)
            credentials = {watch.credential for watch in watches if watch.credential is not None}
            try:
                alive, latest = await check(credentials, {watch.name for watch in watches})
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away: the next check tries again
                _warn("stream_check_failed", {"error": repr(error)})
                continue
            for watch in watches:
                if watch.credential is not None and watch.credential not in alive:
                    watch.end()
                elif latest.get(watch.name) != watch.seen:  # a wake-up lost, or the game gone
                    watch.changed.set()


def _check(
    credentials: set[Credential], names: set[str]
) -> tuple[set[Credential], dict[str, int | None]]:
    """The credentials still accepted, each game's move count (None once it is over) and each
    account's last event id: one query per kind, however many streams."""
    games = {name for name in names if not name.startswith(ACCOUNT)}
    accounts = {int(name[len(ACCOUNT) :]) for name in names - games}
    latest: dict[str, int | None] = dict(game_moves(games)) if games else {}
    if accounts:
        events_stamp()  # a writer that died before its stamp: its events are sent now
        for user_id, last in account_last_events(accounts).items():
            latest[account_name(user_id)] = last
    return credentials_alive(credentials), latest


_sweepers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Sweeper]
_sweepers = weakref.WeakKeyDictionary()


def _sweeper() -> _Sweeper:
    loop = asyncio.get_running_loop()
    with _watchers_lock:
        sweeper = _sweepers.get(loop)
        if sweeper is None:
            sweeper = _sweepers[loop] = _Sweeper()
    return sweeper


class _Hub:
    """One event loop's Redis subscriber: subscribed to the channels of the games and accounts
    streamed in this loop, it wakes their streams."""

    def __init__(self) -> None:
        self.client = redis_async_client(timeout=None, connect_timeout=REDIS_TIMEOUT)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.names: dict[str, int] = {}
        self.changed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())

    def join(self, name: str) -> None:
        self.names[name] = self.names.get(name, 0) + 1
        if self.names[name] == 1:
            self.changed.set()

    def leave(self, name: str) -> None:
        self.names[name] -= 1
        if not self.names[name]:
            del self.names[name]
            self.changed.set()

    async def _sync(self, subscribed: set[str]) -> None:
        """Subscribe to the channels of the games and accounts streamed now, and only those
        (and, while there are any, to the credentials' channel; while accounts are, to the
        channel of the events for every account)."""
        names = [*self.names, CREDENTIALS] if self.names else []
        if any(name.startswith(ACCOUNT) for name in self.names):
            names.append(EVERY_ACCOUNT)
        wanted = {_channel(name) for name in names}
        new = wanted - subscribed
        if new:
            await self.pubsub.subscribe(*new)
            # A change published before this subscription: those streams read again.
            prefix = _channel("")
            for channel in new:
                self._heard(channel[len(prefix) :])
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
                    self._heard(message["channel"].decode()[len(prefix) :])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: subscribe again, the streams re-read
                log.warning("stream_subscribe_failed", extra={"error": repr(error)})
                subscribed.clear()
                await self.pubsub.reset()
                self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)
                # Whatever was published meanwhile is unknown: every stream reads again, and
                # the credentials are checked.
                for name in list(self.names):
                    _wake_local(name)
                _sweeper().due.set()

    def _heard(self, name: str) -> None:
        if name == CREDENTIALS:
            _sweeper().due.set()
        else:
            _wake_local(name)


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
def stream_watch(name: str, credential: Credential | None, seen: int) -> Iterator[Watch]:
    """In an async stream opened with `credential` that has sent `seen` (Watch) of what `name`
    names: its wake-up (`Watch`), for as long as the block lasts."""
    watch = Watch(name, credential, seen)
    entry = (asyncio.get_running_loop(), watch)
    with _watchers_lock:
        _watchers.setdefault(name, set()).add(entry)
    hub = _hub()
    if hub is not None:
        hub.join(name)
    sweeper = _sweeper()
    sweeper.join(watch)
    try:
        yield watch
    finally:
        sweeper.leave(watch)
        if hub is not None:
            hub.leave(name)
        with _watchers_lock:
            watchers = _watchers.get(name, set())
            watchers.discard(entry)
            if not watchers:
                _watchers.pop(name, None)
