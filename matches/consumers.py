"""A match live over WebSockets (`/ws/matches/{id}/`, R32): a snapshot of MATCH, then a
`player` message with a player's row within a second of each change of their game, and
`finished` with the finished MATCH (again once it is rated: after the fair-play review of its
games, R35). Never a card or an action: the rows carry figures only, and the cards and the code
are in no message before the match is finished.

As the live boards do (leaderboard.consumers), each process keeps one hub per match that has
listeners here: the hub alone is a member of the match's channel-layer group (one layer
channel per match and process, not one per socket) and hands each event to its listeners'
outboxes; it joins the group again every few seconds, since Redis keeps no membership across a
restart. Close codes: 4400 the path names no match, 4404 no such match, 4408 fell behind.
Frames from the client are ignored.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import BaseChannelLayer, get_channel_layer
from django.core.exceptions import ImproperlyConfigured

from core.logs import WarnEvery
from matches import selectors
from matches.services import match_group, match_read

logger = logging.getLogger(__name__)

CLOSE_BAD_REQUEST = 4400
CLOSE_NOT_FOUND = 4404
CLOSE_FELL_BEHIND = 4408
OUTBOX = 50
REJOIN_SECONDS = 5.0

_warn = WarnEvery(logger, seconds=30.0)


def _layer() -> BaseChannelLayer:
    """The default channel layer (settings.CHANNEL_LAYERS), which every deployment has."""
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("CHANNEL_LAYERS has no default layer")
    return layer


class MatchHub:
    """One match's live feed in this process."""

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.group = match_group(match_id)
        self.listeners: set[MatchConsumer] = set()
        self.layer = _layer()
        self.channel = ""
        self.tasks: list[asyncio.Task[None]] = []
        self.ready: asyncio.Future[None] | None = None

    async def start(self) -> None:
        assert self.layer is not None
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        self.tasks = [asyncio.create_task(self._receive()), asyncio.create_task(self._rejoin())]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        # Their ends run before the hub goes: a receive cancelled mid-wait gives the channel
        # layer's receive lock back (left held, the next event loop of this process, a test's,
        # found it "bound to a different event loop" and its board heard nothing for a while).
        await asyncio.gather(*self.tasks, return_exceptions=True)
        try:
            await self.layer.group_discard(self.group, self.channel)
        except Exception as error:  # Redis down: the membership expires on its own
            _warn("live_match_leave_failed", {"match": self.match_id, "error": repr(error)})

    async def _receive(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: wait it out
                _warn("live_match_receive_failed", {"match": self.match_id, "error": repr(error)})
                await asyncio.sleep(1.0)
                continue
            text = json.dumps(message.get("event"))
            for listener in list(self.listeners):
                listener.deliver(text)

    async def _rejoin(self) -> None:
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            try:
                await self.layer.group_add(self.group, self.channel)
            except Exception as error:
                _warn("live_match_join_failed", {"match": self.match_id, "error": repr(error)})


_hubs: dict[str, MatchHub] = {}


async def hub_join(match_id: str, listener: MatchConsumer) -> MatchHub:
    """The match's hub in this process, started for its first listener."""
    hub = _hubs.get(match_id)
    if hub is None:
        hub = _hubs[match_id] = MatchHub(match_id)
        hub.ready = asyncio.ensure_future(hub.start())
    hub.listeners.add(listener)
    assert hub.ready is not None
    await asyncio.shield(hub.ready)
    return hub


async def hub_leave(hub: MatchHub, listener: MatchConsumer) -> None:
    hub.listeners.discard(listener)
    if not hub.listeners and _hubs.get(hub.match_id) is hub:
        del _hubs[hub.match_id]
        await hub.stop()


@database_sync_to_async
def _snapshot(match_id: uuid.UUID) -> str | None:
    match = selectors.match_find(match_id)
    if match is None:
        return None
    match = match_read(match=match)
    return json.dumps({"type": "snapshot", "match": selectors.match_payload(match, viewer=None)})


class MatchConsumer(AsyncWebsocketConsumer):
    # No channel of its own on the layer: the match's hub listens for this process's sockets.
    channel_layer_alias = None  # type: ignore[assignment]
    hub: MatchHub | None = None
    sender: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await self.accept()  # first: a close code reaches the client only on an open socket
        try:
            match_id = uuid.UUID(self.scope["url_route"]["kwargs"]["match_id"])
        except ValueError:
            await self.close(code=CLOSE_BAD_REQUEST, reason="expected /ws/matches/<match id>/")
            return
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=OUTBOX)
        # Joined before the snapshot is read: an event published meanwhile waits in the outbox
        # (it repeats what the snapshot may show already, which is harmless: rows are whole).
        self.hub = await hub_join(str(match_id), self)
        snapshot = await _snapshot(match_id)
        if snapshot is None:
            await self._leave()
            await self.close(code=CLOSE_NOT_FOUND, reason="no such match")
            return
        await self.send(text_data=snapshot)
        self.sender = asyncio.create_task(self._send_events())

    def deliver(self, text: str) -> None:
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.outbox = asyncio.Queue(maxsize=1)
            self.outbox.put_nowait(None)  # tells the sender to close

    async def _send_events(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None:
                await self.close(code=CLOSE_FELL_BEHIND, reason="fell behind: reconnect")
                await self._leave()
                return
            await self.send(text_data=text)

    async def _leave(self) -> None:
        if self.hub is not None:
            hub, self.hub = self.hub, None
            await hub_leave(hub, self)

    async def disconnect(self, code: int) -> None:
        if self.sender is not None and self.sender is not asyncio.current_task():
            self.sender.cancel()
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Listeners only listen: anything they send is ignored."""

    async def match_event(self, message: dict[str, Any]) -> None:  # pragma: no cover
        """Not used: events reach the hub, not the socket."""
