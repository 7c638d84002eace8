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
    MatchRated,
    MatchSnapshot,
    SeatChanged,
    match_event,
)


class LiveMatch(LiveSocket[MatchEvent]):
    """`async for event in live`: a `MatchSnapshot` on every (re)connection, then a
    `SeatChanged` within a second of each change of a player's figures, `MatchFinished`
    (places, the code) once the match is over, and `MatchRated` (the rating changes) once it
    is rated, if it was not at once (the fair-play review of its games, R35); the iteration
    stops after the match is settled: rated, or cancelled. A match held for staff (R33a) may
    wait long for its `MatchRated`: a caller that wants only the places stops at
    `MatchFinished`. The opponents' cards and actions never come before the end. A match that
    does not exist raises `BoardClosed`."""

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
        if not isinstance(event, SeatChanged) and settled(event.match):
            self._over = True  # nothing more comes: the next step stops
        return event

    def _event(self, data: Json) -> MatchEvent | None:
        return match_event(data)


def settled(match: Match) -> bool:
    """Nothing more will change: finished and rated, or cancelled."""
    return match.over and (match.rated or match.cancelled)


class MatchView:
    """The match as the events describe it: `apply` each event, read `match` (None before
    the first snapshot)."""

    def __init__(self, match: Match | None = None) -> None:
        self.match = match

    def apply(self, event: MatchEvent) -> Match | None:
        if isinstance(event, MatchSnapshot | MatchFinished | MatchRated):
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
