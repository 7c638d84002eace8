"""Live boards over WebSockets.

Each ASGI process's listeners of a board hear its batches through the realtime hub (core/hub.py:
the board's topic, one channel-layer channel per board and process, not one per listener). The
topic's keeper (`Board`) tries to claim the board's tick every second (one process in all wins
it and publishes the batch: leaderboard.services.board_tick), keeps the board's latest snapshot
for new listeners, and makes each batch's frames once for its listeners (below: a write, or an
outbox). A listener whose outbox is full, or that missed a batch, has fallen behind: it is
closed with 4408 and reconnects for a fresh snapshot.

The keeper joins the board's group again on every tick, before it tries to claim the tick
(Redis keeps no group membership across a restart; core/hub.py `join`): batches reach the
process again within a second or two of Redis answering, while the hub's receive waits out the
outage. Batches lost meanwhile (and the batch numbers, which go on from a new
start: leaderboard/boards.py) show as a gap, and the listeners reconnect for a fresh snapshot
(4408).

A board is a day's people's (`/ws/daily/{date}/{draw}/`) or its bots' (`?players=bots`, R34;
any other `players` closes with 4400, as a bad path does).
Close codes (4000-4999 are the application's): 4400 the path names no board (bad date or draw),
4404 no board there (no challenge that day, or a path that routes nowhere), 4408 the listener
fell behind. Frames from the client are ignored. The server's WebSocket pings (every 20 s,
scripts/serve-ws.sh) keep idle sockets up through proxies and close those whose client stopped
answering. A socket's sends wait while its buffer is full (the server's backpressure), so a
listener that reads too slowly lets its outbox fill, and is closed with 4408 too.

A batch reaches thousands of sockets a second, so a listener's share is one write: the board's
keeper makes the batch's WebSocket frames once (`frames`), and under uvicorn
(scripts/serve-ws.sh) a listener that is up to date writes them straight to its socket's
transport, in the hub's reader, without a task, Channels' send or the websockets library's
framing of its own (bench/live.py: the ws process's CPU per batch and listener). A listener
whose transport is paused (its buffer full), or that still waits for its snapshot, queues the
batch in its outbox, which a task of its own sends once the transport is writable again; under
another server (daphne, the tests' communicator) every batch goes that way, through Channels'
send.
"""

from __future__ import annotations

import asyncio
import collections
import datetime as dt
import functools
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from core import hub, metrics
from core.logs import WarnEvery
from games.days import DRAWS, day_parse, day_today
from games.models import DailyChallenge
from leaderboard import selectors, services

logger = logging.getLogger(__name__)

CLOSE_BAD_REQUEST = 4400
CLOSE_NOT_FOUND = 4404
CLOSE_FELL_BEHIND = 4408
# Batches waiting for one listener's socket: a listener this far behind is dropped.
OUTBOX = 30
# A batch at most this often per board.
TICK_SECONDS = 1.0
PUBLISH_TIMEOUT = 2.0
# A snapshot kept this long without a batch is read again for the next listener: batches tell
# a hub only of what a process announced (in the embedded mode, not another process's writes).
SNAPSHOT_MAX_AGE = 5.0

_warn = WarnEvery(logger, seconds=30.0)
_late = WarnEvery(logger, seconds=30.0)


class Board(hub.Keeper):
    """One board's live feed in this process (see the module's docstring), the keeper of its
    topic: a challenge's people's, or its bots' (R34)."""

    joins = True  # on each tick (`_tick`)

    def __init__(self, challenge: DailyChallenge, bots: bool) -> None:
        self.challenge = challenge
        self.bots = bots
        self.group = selectors.board_group(challenge.date, challenge.draw, bots=bots)
        self.latest: tuple[int, str] | None = None
        self.latest_at = 0.0
        self.snapshot_lock = asyncio.Lock()
        # Set from taking a batch until the board is released: a batch taken is numbered, and
        # one numbered but never sent is a gap every listener of every process sees (4408).
        self.batching = False
        self.closing = False
        self.ticks = asyncio.create_task(self._tick())

    async def close(self) -> None:
        """The last listener left: the ticks stop, but a batch being made is sent first (a
        graceful restart of the process closes its listeners, then its boards)."""
        self.closing = True
        if not self.batching:
            self.ticks.cancel()
        await asyncio.gather(self.ticks, return_exceptions=True)

    def _keep(self, seq: int, snapshot: str) -> None:
        if self.latest is None or seq > self.latest[0]:
            self.latest = (seq, snapshot)
            self.latest_at = time.monotonic()

    async def snapshot(self) -> tuple[int, str]:
        """(number of the last batch, the board's snapshot after it): kept from the batches
        this process heard, read from the board's cache once when it has heard none."""
        async with self.snapshot_lock:
            if self.latest is None:
                read = database_sync_to_async(services.board_snapshot)
                self._keep(*await read(challenge=self.challenge, bots=self.bots))
            elif time.monotonic() - self.latest_at > SNAPSHOT_MAX_AGE:
                # At most one read per board per interval, however many listeners connect.
                seq = self.latest[0]
                read_text = database_sync_to_async(services.board_snapshot_text)
                text = await read_text(challenge=self.challenge, now=timezone.now(), bots=self.bots)
                if self.latest[0] == seq:  # else a batch brought a newer one meanwhile
                    self.latest = (seq, text)
                    self.latest_at = time.monotonic()
        assert self.latest is not None
        return self.latest

    def receive(self, message: dict[str, Any]) -> Batch:
        """A batch, as the board's listeners get it (its frames made once for all)."""
        self._keep(message["seq"], message["snapshot"])
        if "tick" in message:
            tick_at = message["tick"] * TICK_SECONDS
            metrics.live_batch(draw=self.challenge.draw, bots=self.bots, tick_at=tick_at)
        return (message["seq"], message["messages"], frames(message["messages"]))

    async def _tick(self) -> None:
        tick_batch = database_sync_to_async(services.board_tick)
        while not self.closing:
            await asyncio.sleep(TICK_SECONDS - time.time() % TICK_SECONDS)
            # Every process names the same tick, so that exactly one of them claims it.
            tick = round(time.time() / TICK_SECONDS)
            times = [time.time()]  # woke, batch made, sent, board released, back here
            self.batching = True  # (close() no longer cancels: it waits for this tick)
            try:
                # Again each tick, before the batch is taken: a restarted Redis forgot the group
                # (and the layer forgets a member after a day), and a join that fails on a
                # connection Redis dropped loses no batch.
                await hub.join(self.group)
                batch = await tick_batch(challenge=self.challenge, tick=tick, bots=self.bots)
                if batch is None:
                    continue
                times.append(time.time())
                message: dict[str, Any] = {
                    "type": "board.batch",
                    "seq": batch.seq,
                    "messages": batch.messages,
                    "snapshot": batch.snapshot,
                    "tick": tick,  # for the batch lag each receiving process measures
                }
                sent = False
                try:
                    await hub.apublish(self.group, message, timeout=PUBLISH_TIMEOUT)
                    sent = True
                    times.append(time.time())
                finally:
                    # Not sent (e.g. a connection Redis dropped when it restarted): the next
                    # tick sends its games again under a later number.
                    # Released on a thread of its own (one Redis call), not through the database
                    # thread and this loop: while the board is held no process can make its
                    # next batch, and this loop may be busy handing the batch to thousands of
                    # listeners (4,000 took it over a second under load).
                    release = functools.partial(_release, self.challenge, tick, self.bots, sent)
                    times.append(await asyncio.to_thread(release))
                times.append(time.time())
                if times[-1] > (tick + 1) * TICK_SECONDS:
                    # Back after the next tick began: this process does not try that one.
                    steps = [round((t - s) * 1000) for s, t in zip(times, times[1:], strict=False)]
                    woke = round((times[0] - tick * TICK_SECONDS) * 1000)
                    fields = {"board": self.group, "woke_ms": woke, "steps_ms": steps}
                    _late("live_board_tick_late", fields | {"listeners": self.listeners})
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis or the database down: the next tick tries again
                _warn("live_board_tick_failed", {"board": self.group, "error": repr(error)})
            finally:
                self.batching = False


def frames(messages: list[str]) -> bytes:
    """The messages as unmasked, unfragmented WebSocket text frames (RFC 6455, 5.2), as a
    server sends them: made once per batch for all of a process's listeners."""
    out = bytearray()
    for message in messages:
        payload = message.encode()
        size = len(payload)
        if size < 126:
            out += bytes((0x81, size))
        elif size < 1 << 16:
            out += bytes((0x81, 126)) + size.to_bytes(2, "big")
        else:
            out += bytes((0x81, 127)) + size.to_bytes(8, "big")
        out += payload
    return bytes(out)


# A batch as the board's keeper hands it out: (its number, its messages' texts, the same as frames).
Batch = tuple[int, list[str], bytes]


def _release(challenge: DailyChallenge, tick: int, bots: bool, sent: bool) -> float:
    """The hub's batch is out (or failed): the board may make its next one (when, for the
    late-tick log)."""
    services.board_published(challenge=challenge, tick=tick, sent=sent, bots=bots)
    return time.time()


_challenges: dict[tuple[dt.date, int], DailyChallenge] = {}


async def _challenge(day: dt.date, draw: int) -> DailyChallenge | None:
    """The board's challenge, kept once found (a challenge never changes): a listener of a
    known board costs no database work. Today's board exists before anyone plays it, as the
    daily info's; other days only once created."""
    found = _challenges.get((day, draw))
    if found is None:
        found = await database_sync_to_async(_challenge_read)(day, draw)
        if found is not None:
            _challenges[(day, draw)] = found
    return found


def _challenge_read(day: dt.date, draw: int) -> DailyChallenge | None:
    if day == day_today():
        return services.challenge_get_or_create(date=day, draw=draw)
    return selectors.challenge_find(date=day, draw=draw)


def _players(query_string: bytes) -> str | None:
    """The board's population from the URL's query: `people` (the default) or `bots` (R34);
    None for anything else."""
    query = parse_qs(query_string.decode("latin-1"), keep_blank_values=True)
    players = query.get("players", ["people"])
    return players[0] if len(players) == 1 and players[0] in selectors.POPULATIONS else None


class BoardConsumer(AsyncWebsocketConsumer):
    # No channel of its own on the layer: the hub listens for all of this process's listeners
    # (one layer receive per board, not one per socket).
    channel_layer_alias = None  # type: ignore[assignment]
    board: Board | None = None
    sender: asyncio.Task[None] | None = None
    # The last batch number sent (0: a snapshot from before any batch); None until the snapshot
    # is out.
    seq: int | None = None
    # Fell behind or gone: batches are no longer sent.
    done = False

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch (a handler per message type) without its hop to the database
        thread before every message (to close old connections): these handlers reach the
        database only through database_sync_to_async, which does that itself, and only for a
        board this process has not seen yet. A handshake then costs no thread hop at all."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        day = day_parse(kwargs["date"])
        draw = kwargs["draw"]
        players = _players(self.scope.get("query_string", b""))
        # Accept first: a close code reaches the client only on an open socket.
        await self.accept()
        if day is None or draw not in {str(d) for d in DRAWS} or players is None:
            reason = "expected /ws/daily/YYYY-MM-DD/3|1/ (?players=bots for the bots' board)"
            await self.close(code=CLOSE_BAD_REQUEST, reason=reason)
            return
        challenge = await _challenge(day, int(draw))
        if challenge is None:
            await self.close(code=CLOSE_NOT_FOUND, reason="no daily challenge on that day")
            return
        # Before the snapshot is out a full outbox drops its oldest batch: one the snapshot does
        # not show leaves a gap, which closes the listener with 4408 when it is reached.
        self.outbox: collections.deque[Batch] = collections.deque(maxlen=OUTBOX)
        # uvicorn's protocol of this socket (the ASGI `send` is its method), whose transport
        # the batches' frames are written to; None under another server.
        server = getattr(self.base_send, "__self__", None)
        self.server = server if isinstance(server, WebSocketsSansIOProtocol) else None
        # Joined before the snapshot is read: a batch published meanwhile waits in the outbox.
        bots = players == "bots"
        group = selectors.board_group(challenge.date, challenge.draw, bots=bots)
        board = await hub.subscribe(
            group, self.deliver, via="layer", keeper=functools.partial(Board, challenge, bots)
        )
        assert isinstance(board, Board)
        self.board = board
        metrics.live_listener(draw=challenge.draw, bots=bots, change=1)
        seq, snapshot = await board.snapshot()
        await self.send(text_data=snapshot)
        self.seq = seq
        if self.outbox:
            self.sender = asyncio.create_task(self._send_outbox())

    def deliver(self, batch: Batch) -> None:
        """A batch from the hub: written at once when the listener is up to date and its
        socket writable, else queued, unless the outbox is full (the listener fell behind)."""
        if self.done:
            return
        if self.seq is not None and self.sender is None and self._writable():
            self._write(batch)
        elif self.seq is None or len(self.outbox) < OUTBOX:
            self.outbox.append(batch)
            if self.seq is not None and self.sender is None:
                self.sender = asyncio.create_task(self._send_outbox())
        else:
            self._fall_behind()

    def _writable(self) -> bool:
        """Frames may go straight to the socket now (uvicorn, open, its buffer not full)."""
        server = self.server
        return (
            server is not None
            and server.writable.is_set()
            and server.conn.state is State.OPEN
            and not server.close_sent
            and not server.transport.is_closing()
        )

    def _follows(self, seq: int) -> bool | None:
        """Whether batch `seq` is to be sent (False: already in the snapshot), None if it
        shows the listener missed one."""
        assert self.seq is not None
        if seq <= self.seq:
            return False
        # The first batch of a board whose snapshot came before any batch (seq 0) may have any
        # number (leaderboard/boards.py).
        return True if not self.seq or seq == self.seq + 1 else None

    def _write(self, batch: Batch) -> None:
        seq, _, data = batch
        follows = self._follows(seq)
        if follows is None:
            self._fall_behind()
        elif follows:
            assert self.server is not None
            self.server.transport.write(data)
            self.seq = seq

    async def _send_outbox(self) -> None:
        """Sends the outbox in order, each batch once the socket takes it (backpressure)."""
        while self.outbox and not self.done:
            if self.server is not None:
                await self.server.writable.wait()
                if not self._writable():  # closing: its disconnect cleans up
                    self.done = True
                    break
                self._write(self.outbox.popleft())
                continue
            seq, messages, _ = self.outbox.popleft()
            follows = self._follows(seq)
            if follows is None:
                self._fall_behind()
            elif follows:
                for message in messages:
                    await self.send(text_data=message)
                self.seq = seq
        if self.sender is asyncio.current_task():
            self.sender = None

    def _fall_behind(self) -> None:
        """Closes the listener with 4408 (once): it reconnects for a fresh snapshot."""
        if self.done:
            return
        self.done = True
        self.outbox.clear()
        if self.sender is not None and self.sender is not asyncio.current_task():
            self.sender.cancel()
        self.sender = asyncio.create_task(self._close_behind())

    async def _close_behind(self) -> None:
        server = self.server
        if server is None or (server.conn.state is State.OPEN and not server.close_sent):
            await self.close(code=CLOSE_FELL_BEHIND, reason="fell behind: reconnect")
        await self._leave()

    async def _leave(self) -> None:
        if self.board is not None:
            board, self.board = self.board, None
            metrics.live_listener(draw=board.challenge.draw, bots=board.bots, change=-1)
            await hub.unsubscribe(board.group, self.deliver)

    async def disconnect(self, code: int) -> None:
        self.done = True
        if self.sender is not None and self.sender is not asyncio.current_task():
            self.sender.cancel()
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Listeners only listen: anything they send is ignored."""


class NoRouteConsumer(AsyncWebsocketConsumer):
    """A WebSocket path that names nothing: closed with 4404, as a missing board."""

    # No channel on the layer either: nothing is ever sent to it. (With one, on the Redis layer,
    # its pending read outlived the socket and held the server's shutdown until killed.)
    channel_layer_alias = None  # type: ignore[assignment]

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND, reason="no such WebSocket path")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Ignored, as on a board."""
