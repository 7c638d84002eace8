"""The live match (`WS /ws/matches/{id}/`) as an async iterator of events, reconnecting by
itself like the live board, and `MatchView`, the match those events describe."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from canfield_client._core import ws_base
from canfield_client.board import LiveSocket
from canfield_client.models import (
    Json,
    Match,
    MatchEvent,
    MatchFinished,
    MatchSnapshot,
    SeatChanged,
    match_event,
)


class LiveMatch(LiveSocket[MatchEvent]):
    """`async for event in live`: a `MatchSnapshot` on every (re)connection, then a
    `SeatChanged` within a second of each change of a player's figures, and `MatchFinished`
    (places, rating changes, the code) once the match is over; the iteration then stops. The
    opponents' cards and actions never come before the end. A match that does not exist raises
    `BoardClosed`."""

    final = {4400: "bad match id", 4404: "no such match"}

    def __init__(self, server: str, match_id: str, **options: Any) -> None:
        super().__init__(f"{ws_base(server)}/ws/matches/{match_id}/", **options)
        self.match_id = match_id
        self._over = False

    async def __anext__(self) -> MatchEvent:
        if self._over:
            await self.aclose()
            raise StopAsyncIteration
        event = await super().__anext__()
        if isinstance(event, MatchFinished) or (
            isinstance(event, MatchSnapshot) and event.match.over
        ):
            self._over = True  # nothing more comes: the next step stops
        return event

    def _event(self, data: Json) -> MatchEvent | None:
        return match_event(data)


class MatchView:
    """The match as the events describe it: `apply` each event, read `match` (None before
    the first snapshot)."""

    def __init__(self, match: Match | None = None) -> None:
        self.match = match

    def apply(self, event: MatchEvent) -> Match | None:
        if isinstance(event, MatchSnapshot | MatchFinished):
            self.match = event.match
        elif isinstance(event, SeatChanged) and self.match is not None:
            seats = list(self.match.players)
            for index, seat in enumerate(seats):
                if seat.player == event.seat.player:
                    seats[index] = event.seat
                    break
            else:  # a player who took a seat since the snapshot
                seats.append(event.seat)
            self.match = replace(self.match, players=seats)
        return self.match
