"""Game streams (docs/api.md "Streams and exports"): `GET games/{id}/stream` stays open while
the game is played and sends a line for each applied action within a second of its commit.

Why async views under uvicorn (the WebSocket processes) and not a board's batches: a stream
has one listener (only the owner sees a game in progress), so there is nothing to batch or fan
out as the boards do for thousands of listeners of one board; what costs is holding the open
responses. An async response under uvicorn is a coroutine parked on an `asyncio.Event` (a few
KiB), where gunicorn would hold a thread (or a process) for each. So nginx sends
`/api/v1/games/{id}/stream` to the ws upstream unbuffered, and the view hands Django's ASGI
handler an async iterator (`StreamingHttpResponse`), which it sends as it yields.

How a commit reaches a stream: the write path (`games.services`) calls `game_changed` after
each commit of a game that a stream may be watching, a wake-up published on the game's topic
of the realtime hub (core/hub.py, a "pubsub" topic): with Redis one `PUBLISH` (every process
hears it), without Redis (development, one process) a wake-up of this process's streams. Each
event loop holds one Redis connection subscribed to the topics of the games it streams, and a
stream woken reads the new log rows and the game from the database itself.

Which games a stream may be watching: a stream marks its game's row (`Game.streamed_until`,
MARK_SECONDS from the database's clock) before it subscribes and reads, and its process's
timed check (below) renews the marks of the games it streams. The action's write statement
reads the mark of the row it updates (games.services, `_WRITE_SQL`): a write that finds none
was committed before the mark (the row's lock orders the two), so the stream's first read sees
it, and one that finds it publishes. Most games are never streamed, and their actions make no
Redis round trip for it (bench/api.py). On other databases than PostgreSQL every action
publishes.

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
named `account:{user id}` rather than by a game (accounts/events.py publishes on that topic),
what it has seen is the id of the last event it sent, an event for every account (a new day) is
published once on the EVERY_ACCOUNT topic, which every account's stream listens to as well, and
the timed check reads the last event id of every account the process streams in one query (not
a read per stream), after stamping the events a writer left without their id
(accounts/events.py). The account's WebSocket (games/consumers.py) is the same stream sent as
messages.

A stream lives by the credential that opened it (an API key, an OAuth token, a session): once a
REST request with it would answer 401 (the key or token revoked or expired, the account deleted),
the stream closes within a keep-alive (`IDLE_SECONDS`), without another line. Each read checks
the credential with the game (so no action is sent after a revocation), and each event loop
checks all of its streams' credentials in one query per kind (`_Sweeper`, with one statement
renewing its games' marks and one query for their move counts): every IDLE_SECONDS while it
holds streams, and at once when told (accounts.services' `credentials_changed`,
published on the hub's CREDENTIALS topic, which every loop's sweeper listens to while it holds
streams) that a key was revoked or an account deleted.
The timed check catches the rest (expiry, OAuth revocation inside django-oauth-toolkit, a
message lost while Redis was away) with one query per process, however many streams it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.db.models import Q
from django.db.models.functions import Now

from accounts.events import ACCOUNT, EVERY_ACCOUNT, account_name, events_stamp
from accounts.services import CREDENTIALS
from core import hub
from core.logs import WarnEvery
from games.models import Game
from games.selectors import Credential, account_last_events, credentials_alive, game_moves

log = logging.getLogger(__name__)
_warn = WarnEvery(log, seconds=30.0)

# An empty line this often while nothing happens (keeps proxies and clients from timing out).
IDLE_SECONDS = 10.0
# How long a stream's mark on its game lasts (module docstring). A check renews only the marks
# past their half: a process's 3,000 streams rewrite 50 rows a second, not 300.
MARK_SECONDS = 12 * IDLE_SECONDS


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

    def deliver(self, message: Any) -> None:
        """A message of its topic (core/hub.py), or LOST: it reads again."""
        self.changed.set()

    def end(self) -> None:
        self.ended = True
        self.changed.set()


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


def games_mark_streamed(game_ids: Collection[str]) -> None:
    """Mark the games in progress among `game_ids` streamed (module docstring): their actions
    wake their streams for at least MARK_SECONDS / 2 from now; a mark with less left is renewed
    for MARK_SECONDS. One statement, on the database's clock."""
    mark = datetime.timedelta(seconds=MARK_SECONDS)
    Game.objects.filter(
        Q(streamed_until=None) | Q(streamed_until__lt=Now() + mark / 2),
        pk__in=list(game_ids),
        status=Game.Status.PLAYING,
    ).update(streamed_until=Now() + mark)


_mark_in_pool = in_pool(games_mark_streamed)


def game_changed(game_id: Any) -> None:
    """After the commit of a change of the game `game_id`: wake its streams, in every process.
    Never raises: a lost wake-up is made good when the subscriber is back (module docstring)."""
    hub.publish(str(game_id), via="pubsub")


class _Sweeper:
    """One event loop's check of its streams' credentials (module docstring): a task that runs
    while the loop holds streams."""

    def __init__(self) -> None:
        self.watches: set[Watch] = set()
        self.due = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def join(self, watch: Watch) -> None:
        self.watches.add(watch)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())
            await hub.subscribe(CREDENTIALS, self.tell, via="pubsub")

    async def leave(self, watch: Watch) -> None:
        self.watches.discard(watch)
        if not self.watches and self.task is not None:
            self.task.cancel()
            self.task = None
            await hub.unsubscribe(CREDENTIALS, self.tell)

    def tell(self, message: Any) -> None:
        """A credential was revoked (or messages were missed): check them now."""
        self.due.set()

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
    account's last event id, the games' marks renewed (`games_mark_streamed`): one statement
    per kind and step, however many streams."""
    games = {name for name in names if not name.startswith(ACCOUNT)}
    accounts = {int(name[len(ACCOUNT) :]) for name in names - games}
    if games:
        games_mark_streamed(games)
    latest: dict[str, int | None] = dict(game_moves(games)) if games else {}
    if accounts:
        events_stamp()  # a writer that died before its stamp: its events are sent now
        for user_id, last in account_last_events(accounts).items():
            latest[account_name(user_id)] = last
    return credentials_alive(credentials), latest


# Each event loop's sweeper (tests run several loops in one process).
_sweepers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Sweeper]
_sweepers = weakref.WeakKeyDictionary()


def _sweeper() -> _Sweeper:
    loop = asyncio.get_running_loop()
    sweeper = _sweepers.get(loop)
    if sweeper is None:
        sweeper = _sweepers[loop] = _Sweeper()
    return sweeper


@contextlib.asynccontextmanager
async def stream_watch(name: str, credential: Credential | None, seen: int) -> AsyncIterator[Watch]:
    """In an async stream opened with `credential` that has sent `seen` (Watch) of what `name`
    names: its wake-up (`Watch`), for as long as the block lasts: a listener of the hub's topic
    `name` (an account's also of EVERY_ACCOUNT's)."""
    watch = Watch(name, credential, seen)
    topics = [name, EVERY_ACCOUNT] if name.startswith(ACCOUNT) else [name]
    sweeper = _sweeper()
    if not name.startswith(ACCOUNT):
        await _mark_in_pool([name])  # before the first read (module docstring)
    try:
        for topic in topics:
            await hub.subscribe(topic, watch.deliver, via="pubsub")
        await sweeper.join(watch)
        yield watch
    finally:
        await sweeper.leave(watch)
        for topic in topics:
            await hub.unsubscribe(topic, watch.deliver)
