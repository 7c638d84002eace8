"""The live board (`WS /ws/daily/{date}/{draw}/`) as an async iterator of events, reconnecting
by itself, and `Standings`, the board those events describe."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import replace
from types import TracebackType
from typing import Generic, Self, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from canfield_client._core import USER_AGENT, backoff_delay, ws_base
from canfield_client.errors import BoardClosed, CanfieldError
from canfield_client.models import (
    BoardEvent,
    Draw,
    Entries,
    Entry,
    Json,
    Removed,
    Snapshot,
    board_event,
)

E = TypeVar("E")

# Close codes meaning "this board does not exist": reconnecting cannot help.
FINAL_CLOSE_CODES = {4400: "bad date or draw", 4404: "no daily challenge on that day"}


class LiveSocket(Generic[E]):
    """What the live board and the live match share: `async for event in live` reads the
    socket's messages as events, reopening a dropped connection (after `backoff`, doubling,
    jittered; after `max_failures` failed attempts in a row the iteration raises the failure).
    A close code of `final` (the board or match does not exist) raises `BoardClosed`. Close it with
    `aclose()` or `async with`."""

    final: dict[int, str] = {}

    def __init__(
        self, url: str, *, reconnect: bool = True, backoff: float = 0.5, max_failures: int = 6
    ) -> None:
        self.url = url
        self.reconnect = reconnect
        self.backoff = backoff
        self.max_failures = max_failures
        self.connections = 0  # how many times it connected (1 + reconnections)
        # Each ended connection's close code (None: dropped without one), oldest first: 4408
        # is the server's "fell behind, reconnect" (docs/api.md).
        self.close_codes: list[int | None] = []
        self._drops = 0  # connections dropped in a row (no message since)
        self._ws: ClientConnection | None = None
        self._closed = False

    def _event(self, data: Json) -> E | None:
        raise NotImplementedError

    def _url(self) -> str:
        """The address of the next connection (a resuming socket puts where it stopped in it)."""
        return self.url

    def _headers(self) -> dict[str, str]:
        """Headers of each connection's opening request (a credential)."""
        return {}

    def _closed_error(self, code: int, reason: str) -> CanfieldError:
        """What a `final` close code raises."""
        return BoardClosed(reason or self.final[code], status=code)

    async def _mended(self, code: int) -> bool:
        """Whether a `final` close code was mended (a new credential): reconnect at once."""
        return False

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    def __aiter__(self) -> Self:
        return self

    async def aclose(self) -> None:
        self._closed = True
        if self._ws is not None:
            await self._ws.close()
            self._ws = None

    async def _connect(self) -> ClientConnection:
        failures = 0
        while True:
            try:
                ws = await connect(
                    self._url(),
                    additional_headers=self._headers() or None,
                    user_agent_header=USER_AGENT,
                    open_timeout=10,
                )
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                failures += 1
                refused = isinstance(exc, InvalidStatus) and exc.response.status_code < 500
                if refused or isinstance(exc, InvalidURI) or failures >= self.max_failures:
                    raise
                await asyncio.sleep(backoff_delay(self.backoff, failures - 1))
                continue
            self.connections += 1
            return ws

    async def __anext__(self) -> E:
        while True:
            if self._closed:
                raise StopAsyncIteration
            if self._ws is None:
                self._ws = await self._connect()
            try:
                raw = await self._ws.recv()
            except ConnectionClosed as exc:
                self._ws = None
                code = exc.rcvd.code if exc.rcvd is not None else None
                self.close_codes.append(code)
                if code is not None and code in self.final:
                    if await self._mended(code):
                        continue
                    reason = exc.rcvd.reason if exc.rcvd else ""
                    raise self._closed_error(code, reason) from None
                if self._closed or not self.reconnect:
                    raise StopAsyncIteration from None
                # Jittered and growing while drops follow each other (a server restart: its
                # listeners do not all come back at the same instant).
                await asyncio.sleep(backoff_delay(self.backoff, self._drops))
                self._drops += 1
                continue
            self._drops = 0
            try:
                data = json.loads(raw)
            except ValueError:
                continue
            event = self._event(data) if isinstance(data, dict) else None
            if event is not None:
                return event


class LiveBoard(LiveSocket[BoardEvent]):
    """`async for event in board`: a `Snapshot` on every (re)connection, then `Entries` and
    `Removed`. A dropped connection is reopened (after `backoff`, doubling) and a new snapshot
    follows; after `max_failures` failed attempts in a row the iteration raises the failure.
    A board that does not exist raises `BoardClosed`. Close it with `aclose()` or `async with`.
    """

    final = FINAL_CLOSE_CODES

    def __init__(
        self,
        server: str,
        date: dt.date,
        draw: Draw,
        *,
        reconnect: bool = True,
        backoff: float = 0.5,
        max_failures: int = 6,
    ) -> None:
        url = f"{ws_base(server)}/ws/daily/{date.isoformat()}/{draw}/"
        super().__init__(url, reconnect=reconnect, backoff=backoff, max_failures=max_failures)
        self.date = date
        self.draw = draw

    def _event(self, data: Json) -> BoardEvent | None:
        return board_event(data)


class Standings:
    """The top of a board as the events describe it: apply each event, read `top()`.

    A batch carries only the entries that changed, each with its current rank (docs/api.md): each
    goes to the place its rank gives it and the other rows keep their order (their own ranks
    may be older: `top()` numbers the rows by place). When an entry falls below the rows kept
    and nothing known fills its place, `incomplete` turns true: read the leaderboard's first
    page again (`Client.leaderboard`) and apply it as a `Snapshot`.
    """

    def __init__(self, size: int = 50) -> None:
        self.size = size
        self.count = 0
        self.depth = size  # how many rows are kept: the most a snapshot gave, at least `size`
        self.rows: list[Entry] = []

    @property
    def incomplete(self) -> bool:
        return len(self.rows) < min(self.depth, self.count)

    def apply(self, event: BoardEvent) -> None:
        if isinstance(event, Snapshot):
            self.count = event.count
            self.depth = max(self.size, len(event.results))
            self.rows = sorted(_ranked(event.results), key=_rank)[: self.depth]
        elif isinstance(event, Entries):
            changed = {entry.player: entry for entry in event.entries}
            known = {entry.player for entry in self.rows}
            if event.count is not None:
                self.count = event.count
            else:  # a server of per-entry messages sends no count
                self.count += sum(1 for player in changed if player not in known)
            rows = [entry for entry in self.rows if entry.player not in changed]
            for entry in sorted(_ranked(changed.values()), key=_rank):
                if _rank(entry) - 1 <= len(rows):
                    rows.insert(_rank(entry) - 1, entry)
            self.rows = rows[: self.depth]
        elif isinstance(event, Removed):
            before = len(self.rows)
            self.rows = [entry for entry in self.rows if entry.player != event.player]
            if len(self.rows) < before:
                self.count = max(0, self.count - 1)

    def top(self) -> list[Entry]:
        """The best `size` entries, best first, each with its place as its rank."""
        return [replace(entry, rank=place) for place, entry in enumerate(self.rows[: self.size], 1)]


def _ranked(entries: Iterable[Entry]) -> list[Entry]:
    """The ranked entries (a live board carries no provisional one, R36: they have no rank)."""
    return [entry for entry in entries if entry.rank is not None]


def _rank(entry: Entry) -> int:
    return entry.rank or 0
