"""Live boards over WebSockets: a thin consumer that joins its board's group, sends a snapshot,
then forwards the entries the write path publishes. It never writes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from leaderboard import selectors
from leaderboard.days import DRAWS, day_parse, day_today

# Close codes (4000-4999 are the application's): the request named no board.
CLOSE_BAD_REQUEST = 4400
CLOSE_NOT_FOUND = 4404


class BoardConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        day = day_parse(kwargs["date"])
        draw = kwargs["draw"]
        # Accept first: a close code reaches the client only on an open socket.
        await self.accept()
        if day is None or draw not in {str(d) for d in DRAWS}:
            await self.close(code=CLOSE_BAD_REQUEST, reason="expected /ws/daily/YYYY-MM-DD/3|1/")
            return
        if not await self._board_exists(day, int(draw)):
            await self.close(code=CLOSE_NOT_FOUND, reason="no daily challenge on that day")
            return
        self.group = selectors.board_group(day, int(draw))
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Joined before reading: an entry that changes meanwhile is sent, not missed.
        await self.send_json({"type": "snapshot", "results": await self._snapshot(day, int(draw))})

    @database_sync_to_async
    def _board_exists(self, day: dt.date, draw: int) -> bool:
        # Today's board exists before anyone plays it; other days only once created.
        return day == day_today() or selectors.challenge_find(date=day, draw=draw) is not None

    @database_sync_to_async
    def _snapshot(self, day: dt.date, draw: int) -> list[dict[str, Any]]:
        challenge = selectors.challenge_find(date=day, draw=draw)
        if challenge is None:
            return []
        return selectors.board_page(challenge=challenge, page=1, now=timezone.now())

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Listeners only listen: anything they send is ignored."""

    async def entry_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "entry", "entry": event["entry"]})
