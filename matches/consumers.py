"""A match live over WebSockets (`/ws/matches/{id}/`, R32): a snapshot of MATCH, then a
`player` message with a player's row within a second of each change of their game, and
`finished` with the finished MATCH (again once it is rated: after the fair-play review of its
games, R35). Never a card or an action: the rows carry figures only, and the cards and the code
are in no message before the match is finished.

Each process's listeners of a match hear its events through the realtime hub (core/hub.py:
the match's topic, one channel-layer channel per match and process, not one per socket), which
hands each event, encoded once, to their outboxes; a listener's sender task runs only while
its outbox holds events. Close codes: 4400 the path names no match, 4404 no such match, 4408
fell behind (its outbox full). Frames from the client are ignored.
"""

from __future__ import annotations

import asyncio
import collections
import json
import uuid
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from core import hub
from matches import selectors
from matches.services import match_group, match_read

CLOSE_BAD_REQUEST = 4400
CLOSE_NOT_FOUND = 4404
CLOSE_FELL_BEHIND = 4408
OUTBOX = 50


class Events(hub.Keeper):
    """A match's topic in this process: each event encoded once for all its listeners."""

    def receive(self, message: dict[str, Any]) -> str:
        return json.dumps(message.get("event"))


@database_sync_to_async
def _snapshot(match_id: uuid.UUID) -> str | None:
    match = selectors.match_find(match_id)
    if match is None:
        return None
    match = match_read(match=match)
    return json.dumps({"type": "snapshot", "match": selectors.match_payload(match, viewer=None)})


class MatchConsumer(AsyncWebsocketConsumer):
    # No channel of its own on the layer: the hub listens for this process's sockets.
    channel_layer_alias = None  # type: ignore[assignment]
    topic = ""
    sender: asyncio.Task[None] | None = None
    # The snapshot is out: events follow it.
    sent = False
    # Fell behind or gone: events are no longer sent.
    done = False

    async def connect(self) -> None:
        await self.accept()  # first: a close code reaches the client only on an open socket
        try:
            match_id = uuid.UUID(self.scope["url_route"]["kwargs"]["match_id"])
        except ValueError:
            await self.close(code=CLOSE_BAD_REQUEST, reason="expected /ws/matches/<match id>/")
            return
        self.outbox: collections.deque[str] = collections.deque()
        # Joined before the snapshot is read: an event published meanwhile waits in the outbox
        # (it repeats what the snapshot may show already, which is harmless: rows are whole).
        self.topic = match_group(str(match_id))
        await hub.subscribe(self.topic, self.deliver, via="layer", keeper=Events)
        snapshot = await _snapshot(match_id)
        if snapshot is None:
            await self._leave()
            await self.close(code=CLOSE_NOT_FOUND, reason="no such match")
            return
        await self.send(text_data=snapshot)
        self.sent = True
        self._send_soon()

    def deliver(self, text: str) -> None:
        """An event from the hub, to the outbox, unless it is full (the listener fell behind)."""
        if self.done:
            return
        if len(self.outbox) >= OUTBOX:
            self.done = True
            self.outbox.clear()
            if self.sender is not None:
                self.sender.cancel()
            self.sender = asyncio.create_task(self._close_behind())
            return
        self.outbox.append(text)
        self._send_soon()

    def _send_soon(self) -> None:
        if self.sent and self.outbox and self.sender is None and not self.done:
            self.sender = asyncio.create_task(self._send_events())

    async def _send_events(self) -> None:
        while self.outbox:
            await self.send(text_data=self.outbox.popleft())
        self.sender = None

    async def _close_behind(self) -> None:
        await self.close(code=CLOSE_FELL_BEHIND, reason="fell behind: reconnect")
        await self._leave()

    async def _leave(self) -> None:
        if self.topic:
            topic, self.topic = self.topic, ""
            await hub.unsubscribe(topic, self.deliver)

    async def disconnect(self, code: int) -> None:
        self.done = True
        if self.sender is not None and self.sender is not asyncio.current_task():
            self.sender.cancel()
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Listeners only listen: anything they send is ignored."""
