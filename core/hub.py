"""The realtime hub: how a process's live listeners (a live board's and a match's sockets, a
game's or an account's event streams) hear what happened, in this process or another.

A listener subscribes to a topic (`subscribe`: a name and a callable, called in the listener's
event loop with each message) and leaves it (`unsubscribe`); a writer publishes to the topic
(`publish` from any thread, never raising; `apublish` from an event loop, raising when the
message was not sent). A topic goes one of two ways, as its publishers need (`Via`):

- "layer": messages carried by the channel layer (settings.CHANNEL_LAYERS: channels_redis with
  REDIS_URL, else the in-memory layer of one process), to the group named by the topic and the
  database (`layer_group`: projects on other databases may share the Redis database). The
  hub's channel, one per topic and event loop, is the group's only member for all the loop's
  listeners (a message is one channel message per process, not one per listener), and it joins
  the group again every REJOIN_SECONDS: Redis keeps no group membership across a restart, so
  messages reach it again within a second or two of Redis answering, while its read waits out
  the outage. A keeper that writes to its own topic on a clock (a live board's tick) joins
  instead, with `join`, right before it takes what it writes (`Keeper.joins`). (The live boards,
  whose batches carry the board's entries; the matches.)
- "pubsub": wake-ups, published with one Redis PUBLISH (every process hears it) and heard by one
  Redis subscription per event loop for all its topics; without REDIS_URL (development, one
  process), handed straight to this process's listeners. A listener is also called with LOST
  when messages may have been missed (its topic just subscribed, or Redis was away): it reads
  afresh. (The game and account event streams, the streams' credential checks.)

Each topic has one reader per event loop (the layer channel's receive, or the loop's one
subscription) that hands each message to the topic's listeners in turn, in the loop, without a
task or a queue of their own: a listener's cost is one call per message. What a topic's
listeners share in a loop (a board's snapshot and tick) is its `Keeper`, made for the first
listener and closed after the last, which sees each message first and hands the listeners what
it makes of it (made once, not once per listener).

The registry is per event loop (`_hubs`), not per process: a channel layer's receive, a
redis.asyncio client, an asyncio.Event or a task belong to the loop they were made in, and tests
(and the sender's thread below) run several loops in one process; a server runs one loop per
process, where it is the same. A publish without Redis reaches every loop's listeners through
`call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import threading
import weakref
from collections.abc import Callable
from typing import Any, Literal

import redis
from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from core import metrics
from core.logs import WarnEvery
from core.redis_clients import redis_async_client, redis_client

logger = logging.getLogger(__name__)
_warn = WarnEvery(logger, seconds=30.0)
_warn_publish = WarnEvery(logger, seconds=30.0)
_warn_cancel = WarnEvery(logger, seconds=30.0)

Via = Literal["layer", "pubsub"]
# A listener: called in its event loop with each message of its topic (or LOST).
Listener = Callable[[Any], None]


class _Lost:
    """What a "pubsub" listener is called with when messages may have been missed."""


LOST = _Lost()

# How often a topic's layer channel joins its group again (Redis forgets it when it restarts).
REJOIN_SECONDS = 1.0
# How long a receive that failed waits before the next (Redis away).
RETRY_SECONDS = 1.0
# Publishing and subscribing never wait long on a Redis that is away.
REDIS_TIMEOUT = 0.5
# A topic's task still running this long after its cancel is cancelled again (`_cancelled`).
CANCEL_AGAIN_SECONDS = 1.0
# How long a publish from a thread waits for the channel layer.
SEND_SECONDS = 5.0


class Keeper:
    """What one topic's listeners in one event loop share: made for the first listener, closed
    after the last (module docstring). `listeners`: how many there are now."""

    listeners = 0
    # True: the keeper joins its "layer" topic's group itself (`join`) before each of its
    # writes, and the topic has no timer of its own to join it.
    joins = False

    def receive(self, message: Any) -> Any:
        """A message of the topic, first: what its listeners are called with."""
        return message

    async def close(self) -> None:
        """The topic's last listener left."""


def _layer() -> BaseChannelLayer:
    """The default channel layer (settings.CHANNEL_LAYERS), which every deployment has."""
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("CHANNEL_LAYERS has no default layer")
    return layer


def _channel(name: str) -> str:
    """A "pubsub" topic's Redis channel (of this database: tests share one Redis)."""
    return f"hub:{settings.DATABASES['default']['NAME']}:{name}"


def layer_group(name: str, database: str | None = None) -> str:
    """A "layer" topic's channel-layer group: its name and a digest of this database's name, so
    that processes of two databases sharing a Redis database never hear each other's messages.
    (The test suite's worker shares its Redis database between its tests, its server and the
    servers they start, each on a database of its own: a live board of another database's
    batches, numbered higher, made the server's listeners skip its own batches as already
    seen: CI, 2026-12-07.) Group names are at most 99 characters of [a-zA-Z0-9._-].
    `database`: another database's name (this one's by default)."""
    named = str(settings.DATABASES["default"]["NAME"] if database is None else database)
    return f"{name}.{hashlib.blake2s(named.encode(), digest_size=6).hexdigest()}"


class _Topic:
    """A topic's listeners in one event loop, and its reader there."""

    def __init__(self, name: str, via: Via, keeper: Keeper) -> None:
        self.name = name
        self.via = via
        self.keeper = keeper
        self.listeners: dict[Listener, None] = {}
        self.channel = ""
        self.tasks: list[asyncio.Task[None]] = []
        # Open (in the channel layer's group) for "layer", at once for "pubsub".
        if via == "layer":
            self.ready: asyncio.Future[None] = asyncio.ensure_future(self._open())
        else:
            self.ready = asyncio.get_running_loop().create_future()
            self.ready.set_result(None)

    def deliver(self, message: Any) -> None:
        if not isinstance(message, _Lost):
            message = self.keeper.receive(message)
        for listener in list(self.listeners):
            listener(message)

    async def _open(self) -> None:
        layer = _layer()
        self.channel = await layer.new_channel()
        await self.join()
        self.tasks = [asyncio.create_task(self._receive(layer))]
        if not self.keeper.joins:
            self.tasks.append(asyncio.create_task(self._rejoin()))

    async def join(self) -> None:
        """Puts the topic's channel in its group (again: Redis forgets it when it restarts)."""
        await _layer().group_add(layer_group(self.name), self.channel)

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # a failed start: nothing to close but the keeper
            await asyncio.shield(self.ready)
        # Their ends run first: a receive cancelled mid-wait gives the channel layer's receive
        # lock back (left held, the next event loop of this process, a test's, found it "bound
        # to a different event loop" and its topic heard nothing for a while).
        await _cancelled(self.tasks, self.name)
        if self.channel:
            try:
                await _layer().group_discard(layer_group(self.name), self.channel)
            except Exception as error:  # Redis down: the membership expires on its own
                _warn("hub_leave_failed", {"topic": self.name, "error": repr(error)})
        await self.keeper.close()

    async def _receive(self, layer: BaseChannelLayer) -> None:
        while True:
            try:
                message = await layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis down: listen again once it is back
                metrics.redis_error("live.receive")
                _warn("hub_receive_failed", {"topic": self.name, "error": repr(error)})
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.deliver(message)

    async def _rejoin(self) -> None:
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            try:
                await self.join()
            except Exception as error:  # Redis down: the next try once it is back
                _warn("hub_join_failed", {"topic": self.name, "error": repr(error)})


async def _cancelled(tasks: list[asyncio.Task[None]], topic: str) -> None:
    """Cancels `tasks` and returns once they have ended; one still running CANCEL_AGAIN_SECONDS
    after its cancel is cancelled again. A cancel can be lost under the channel layer's Redis
    client: a topic's receive, cancelled, was seen waiting on its next blocking read
    (`cancelling()` 1, in channels_redis's BZPOPMIN loop) and never ended, which held the
    topic's close, and the match socket closing with 4404 behind it, for good: the TypeScript
    SDK's rare CI hang (2026-12-06: 3 runs in ~13 hung under load; with this, 25 of 25 passed,
    4 of them with a cancel given again)."""
    for task in tasks:
        task.cancel()
    pending = {task for task in tasks if not task.done()}
    while pending:
        _, pending = await asyncio.wait(pending, timeout=CANCEL_AGAIN_SECONDS)
        for task in pending:
            _warn_cancel("hub_cancel_again", {"topic": topic, "cancelling": task.cancelling()})
            task.cancel()
    for task in tasks:  # (their errors are seen: nothing to log at their collection)
        if not task.cancelled():
            task.exception()


class _Subscriber:
    """One event loop's Redis subscription to the channels of its "pubsub" topics."""

    def __init__(self, hub: _Hub) -> None:
        self.hub = hub
        self.client = redis_async_client(timeout=None, connect_timeout=REDIS_TIMEOUT)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    def _heard(self, name: str, message: Any) -> None:
        topic = self.hub.topics.get(name)
        if topic is not None:
            topic.deliver(message)

    async def _sync(self, subscribed: set[str]) -> None:
        """Subscribe to the channels of the loop's "pubsub" topics now, and only those."""
        names = [name for name, topic in self.hub.topics.items() if topic.via == "pubsub"]
        wanted = {_channel(name) for name in names}
        new = wanted - subscribed
        if new:
            await self.pubsub.subscribe(*new)
            # A message published before this subscription: its listeners read afresh.
            for name in names:
                if _channel(name) in new:
                    self._heard(name, LOST)
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
                    name = message["channel"].decode()[len(prefix) :]
                    self._heard(name, json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: subscribe again, the listeners read afresh
                logger.warning("hub_subscribe_failed", extra={"fields": {"error": repr(error)}})
                subscribed.clear()
                await self.pubsub.reset()
                self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await asyncio.sleep(RETRY_SECONDS)
                # Whatever was published meanwhile is unknown.
                for name, topic in list(self.hub.topics.items()):
                    if topic.via == "pubsub":
                        self._heard(name, LOST)


class _Hub:
    """One event loop's topics."""

    def __init__(self) -> None:
        self.topics: dict[str, _Topic] = {}
        self.subscriber: _Subscriber | None = None


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()  # publish() reads the registry from other threads


def _hub() -> _Hub:
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = _Hub()
    return hub


async def subscribe(
    name: str, listener: Listener, *, via: Via, keeper: Callable[[], Keeper] = Keeper
) -> Keeper:
    """Call `listener` with each message of the topic `name` from now on (once this returns:
    for a "layer" topic, once this process's channel is in the group); returns the topic's
    keeper in this loop, made by `keeper` for its first listener."""
    hub = _hub()
    topic = hub.topics.get(name)
    if topic is None:
        topic = hub.topics[name] = _Topic(name, via, keeper())
        if via == "pubsub" and settings.REDIS_URL:
            if hub.subscriber is None:
                hub.subscriber = _Subscriber(hub)
            hub.subscriber.changed.set()
    if listener not in topic.listeners:
        topic.listeners[listener] = None
        topic.keeper.listeners += 1
    try:
        await asyncio.shield(topic.ready)
    except Exception:
        await unsubscribe(name, listener)
        raise
    return topic.keeper


async def unsubscribe(name: str, listener: Listener) -> None:
    """`listener` hears no more of the topic `name`; the last to leave closes the topic."""
    hub = _hub()
    topic = hub.topics.get(name)
    if topic is None or listener not in topic.listeners:
        return
    del topic.listeners[listener]
    topic.keeper.listeners -= 1
    if topic.listeners:
        return
    del hub.topics[name]
    if hub.subscriber is not None and topic.via == "pubsub":
        hub.subscriber.changed.set()
    await topic.close()


async def join(name: str) -> None:
    """Put this loop's channel of the "layer" topic `name` back in its group now; raises when
    Redis does not answer. A keeper that writes to its own topic (`Keeper.joins`: a live board's
    tick) calls it before it takes what it writes, so that after a Redis restart the write
    neither goes out before this process is back in the group (its listeners here would miss
    it) nor is the first use of a connection Redis dropped (a write taken and numbered, then
    lost: a gap for a listener whose snapshot was read meanwhile). A failed join costs nothing:
    the write waits for the next try. A topic already closing has nothing to join."""
    topic = _hub().topics.get(name)
    if topic is None:
        return
    await asyncio.shield(topic.ready)
    await topic.join()


def _deliver_local(name: str, message: Any) -> None:
    """A "pubsub" message without Redis: to the topic's listeners in every loop."""
    with _hubs_lock:
        hubs = list(_hubs.items())
    for loop, hub in hubs:
        if name in hub.topics:
            with contextlib.suppress(RuntimeError):  # a closed loop: its listeners are gone
                loop.call_soon_threadsafe(_deliver_in_loop, hub, name, message)


def _deliver_in_loop(hub: _Hub, name: str, message: Any) -> None:
    topic = hub.topics.get(name)
    if topic is not None:
        topic.deliver(message)


_publisher: list[redis.Redis] = []

# The event loop this process sends to the channel layer from, in a thread of its own (with its
# pid: a forked worker makes its own). async_to_sync would make a loop per send, and
# channels_redis a connection per loop: 5 ms of CPU per send against 0.5 ms here
# (bench/matches.py).
_sender: tuple[int, asyncio.AbstractEventLoop] | None = None
_sender_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _sender
    with _sender_lock:
        if _sender is None or _sender[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="hub-sender", daemon=True).start()
            _sender = (os.getpid(), loop)
        return _sender[1]


def _layer_message(message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "hub.message"} | message


def publish(name: str, message: Any = None, *, via: Via) -> None:
    """Send `message` to the listeners of the topic `name` in every process, from a thread
    (a request's, after its commit), not an event loop. Never raises: a message lost is logged
    (a "layer" one is in the listeners' next snapshot; a "pubsub" listener reads afresh when it
    subscribes again, or at its own timed check). A "layer" message is a dict."""
    try:
        if via == "layer":
            layer, sent, group = _layer(), _layer_message(message), layer_group(name)
            if isinstance(layer, InMemoryChannelLayer):  # its queues are the listeners' loop's
                async_to_sync(layer.group_send)(group, sent)
            else:
                sending = layer.group_send(group, sent)
                asyncio.run_coroutine_threadsafe(sending, _sender_loop()).result(SEND_SECONDS)
        elif settings.REDIS_URL:
            if not _publisher:
                _publisher.append(redis_client(timeout=REDIS_TIMEOUT))
            _publisher[0].publish(_channel(name), json.dumps(message))
        else:
            _deliver_local(name, message)
    except Exception as error:
        _warn_publish("hub_publish_failed", {"topic": name, "error": repr(error)})


async def apublish(name: str, message: dict[str, Any], *, timeout: float) -> None:
    """`publish` of a "layer" message from an event loop: raises if it was not sent within
    `timeout` seconds."""
    sending = _layer().group_send(layer_group(name), _layer_message(message))
    await asyncio.wait_for(sending, timeout=timeout)
