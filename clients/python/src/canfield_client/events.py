"""The account's events over a WebSocket (`WS /ws/account/events`, docs/asyncapi.yaml
`accountEventsSocket`): the events of `Client.account_events` (NDJSON), one message each, as
an iterator that reopens a dropped connection by itself and resumes after the last event it
gave (`?since=`), so that a reconnection loses no event and repeats none. Opened without
`since`, the socket's first message (`stream_opened`, read as it opens and never given) tells
where it starts: a reconnection before any event resumes from there. `LiveAccountEvents`
for asyncio (`async for`), `AccountEventSocket` blocking (`for`)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Self
from urllib.parse import quote

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection as SyncConnection
from websockets.sync.client import connect as sync_connect

from canfield_client import errors
from canfield_client._core import USER_AGENT, backoff_delay, ws_base
from canfield_client.board import LiveSocket
from canfield_client.models import OPENED, AccountEvent, Json

PATH = "/ws/account/events"
# The longest wait for a new socket's `stream_opened` message (sent as it opens).
OPENING_WAIT = 10.0
# Close codes reconnecting cannot mend (4429, the account's streams all held, and the
# server's own closes are retried with back-off).
FINAL_CLOSE_CODES = {
    4400: "since is in the future or events after it were forgotten",
    4401: "authentication required",
    4403: "the key or token lacks account:read",
}
CLOSE_UNAUTHENTICATED = 4401
_ERRORS: dict[int, type[errors.CanfieldError]] = {
    4400: errors.InvalidRequest,
    4401: errors.NotAuthenticated,
    4403: errors.Forbidden,
}


def closed_error(code: int, reason: str) -> errors.CanfieldError:
    """The error of a final close code (`status` is the close code): 4400 `InvalidRequest`
    (a `since` from the future or after which events were forgotten), 4401 `NotAuthenticated`
    (no credential, or it ended), 4403 `Forbidden` (no `account:read`)."""
    return _ERRORS[code](reason or FINAL_CLOSE_CODES[code], status=code)


def socket_headers(token: str | None, headers: dict[str, str] | None = None) -> dict[str, str]:
    """The opening request's headers: the key or OAuth token as `Authorization: Token`."""
    found = dict(headers or {})
    if token:
        found["Authorization"] = f"Token {token}"
    return found


def event_of(raw: str | bytes) -> AccountEvent | None:
    """A message as an event; None for what is no event (not JSON, not an object)."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return AccountEvent.from_json(data) if isinstance(data, dict) else None


class _Resume:
    """Where a socket of the account's events stands: `since`, the id of the last event given,
    or of the first connection's `stream_opened` message (None: not opened yet)."""

    def __init__(self, server: str, since: int | None) -> None:
        self.base = f"{ws_base(server)}{PATH}"
        self.since = since

    def url(self) -> str:
        return self.base if self.since is None else f"{self.base}?since={quote(str(self.since))}"

    def event(self, raw: str | bytes) -> AccountEvent | None:
        """The event a message gives (None: none); `since` follows it, the opening's too."""
        event = event_of(raw)
        if event is None:
            return None
        self.since = event.id
        return None if event.type == OPENED else event


class _Credential:
    """A socket's key or token, sent with each opening, and its renewal after a 4401: at most
    once between two messages (a renewed token refused again is final)."""

    def __init__(self, token: str | None, headers: dict[str, str] | None) -> None:
        self.token = token
        self._extra = headers
        self.headers = socket_headers(token, headers)
        self.renewed = False

    def due(self, code: int) -> bool:
        """Whether the close code asks for a renewal this socket has not yet tried."""
        return code == CLOSE_UNAUTHENTICATED and not self.renewed

    def take(self, fresh: str | None) -> bool:
        """Whether `fresh` (what the renewal answered) is a new token: the next opening's."""
        if fresh is None or fresh == self.token:
            return False
        self.token, self.renewed = fresh, True
        self.headers = socket_headers(fresh, self._extra)
        return True


class LiveAccountEvents(LiveSocket[AccountEvent]):
    """`async for event in live`: the account's `AccountEvent`s as they happen, endlessly,
    after `since` (an `AccountEvent.id`) if given, else from the connection's opening on
    (`async with` opens it: what happens from then on is told). A dropped connection (or a
    server restart, or 4429 while the server has not yet let the dropped one go) is reopened
    after `backoff` (doubling, jittered) with `since` the last event given: no event is lost or
    given twice. After `max_failures` failed openings in a row the iteration raises the
    failure; 4400, 4401 and 4403 raise `InvalidRequest`, `NotAuthenticated`, `Forbidden`, but
    for a 4401 (the token expired or was revoked) that `renew` mends: called with the token
    refused, it answers a new one (OAuthApp's clients: a refresh) and the socket reopens with
    it at once, after the last event given; a second 4401 before any message raises.
    `since` is the id to keep to resume later (a new socket, another process); opened without
    it, `open()` waits for the socket's `stream_opened` message, whose id it takes."""

    final = FINAL_CLOSE_CODES

    def __init__(
        self,
        server: str,
        token: str | None,
        *,
        since: int | None = None,
        headers: dict[str, str] | None = None,
        reconnect: bool = True,
        backoff: float = 0.5,
        max_failures: int = 6,
        renew: Callable[[str | None], Awaitable[str | None]] | None = None,
    ) -> None:
        self._resume = _Resume(server, since)
        super().__init__(
            self._resume.base, reconnect=reconnect, backoff=backoff, max_failures=max_failures
        )
        self._credential = _Credential(token, headers)
        self._renew = renew
        self._pending: list[AccountEvent] = []

    async def _mended(self, code: int) -> bool:
        if self._renew is None or not self._credential.due(code):
            return False
        return self._credential.take(await self._renew(self._credential.token))

    @property
    def since(self) -> int | None:
        """The id of the last event given (or the `since` it was made with)."""
        return self._resume.since

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def open(self) -> None:
        """Connect now (else the first `anext` does): events from then on are told. Without
        `since`, returns once the `stream_opened` message told where the socket starts (a
        connection dropped before it is opened again; a final close code raises)."""
        drops = 0
        while self._ws is None and not self._closed:
            self._ws = await self._connect()
            if self._resume.since is not None:
                return
            try:
                raw = await asyncio.wait_for(self._ws.recv(), OPENING_WAIT)
            except (ConnectionClosed, TimeoutError) as exc:
                self._ws = None
                rcvd = exc.rcvd if isinstance(exc, ConnectionClosed) else None
                if rcvd is not None and rcvd.code in FINAL_CLOSE_CODES:
                    if await self._mended(rcvd.code):
                        continue
                    raise closed_error(rcvd.code, rcvd.reason) from None
                drops += 1
                if drops >= self.max_failures:
                    raise
                await asyncio.sleep(backoff_delay(self.backoff, drops - 1))
                continue
            self._credential.renewed = False
            event = self._resume.event(raw)
            if event is not None:  # (a server that sends no opening message: the first event)
                self._pending.append(event)

    async def __anext__(self) -> AccountEvent:
        if self._pending:
            return self._pending.pop(0)
        if self._ws is None and self._resume.since is None:
            await self.open()
            if self._pending:
                return self._pending.pop(0)
        return await super().__anext__()

    def _url(self) -> str:
        return self._resume.url()

    def _headers(self) -> dict[str, str]:
        return self._credential.headers

    def _closed_error(self, code: int, reason: str) -> errors.CanfieldError:
        return closed_error(code, reason)

    def _event(self, data: Json) -> AccountEvent | None:
        self._credential.renewed = False
        event = AccountEvent.from_json(data)
        self._resume.since = event.id  # (the opening's too: where the connection starts)
        return None if event.type == OPENED else event


class AccountEventSocket:
    """`LiveAccountEvents`, blocking: `for event in live` (or `next(live)`). `with` (or
    `open()`) connects at once (without `since`: once the `stream_opened` message told where
    the socket starts); the first `next` otherwise."""

    def __init__(
        self,
        server: str,
        token: str | None,
        *,
        since: int | None = None,
        headers: dict[str, str] | None = None,
        reconnect: bool = True,
        backoff: float = 0.5,
        max_failures: int = 6,
        renew: Callable[[str | None], str | None] | None = None,
    ) -> None:
        self._resume = _Resume(server, since)
        self._credential = _Credential(token, headers)
        self._renew = renew  # (`LiveAccountEvents`'s, blocking)
        self.reconnect = reconnect
        self.backoff = backoff
        self.max_failures = max_failures
        self.connections = 0  # how many times it connected (1 + reconnections)
        self._drops = 0  # connections dropped in a row (no message since)
        self._ws: SyncConnection | None = None
        self._closed = False
        self._pending: list[AccountEvent] = []

    @property
    def since(self) -> int | None:
        """The id of the last event given (or the `since` it was made with)."""
        return self._resume.since

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __iter__(self) -> Self:
        return self

    def open(self) -> None:
        """Connect now (else the first `next` does): events from then on are told. Without
        `since`, returns once the `stream_opened` message told where the socket starts (a
        connection dropped before it is opened again; a final close code raises)."""
        drops = 0
        while self._ws is None and not self._closed:
            self._ws = self._connect()
            if self._resume.since is not None:
                return
            try:
                raw = self._ws.recv(timeout=OPENING_WAIT)
            except (ConnectionClosed, TimeoutError) as exc:
                self._ws = None
                rcvd = exc.rcvd if isinstance(exc, ConnectionClosed) else None
                if rcvd is not None and rcvd.code in FINAL_CLOSE_CODES:
                    if self._mended(rcvd.code):
                        continue
                    raise closed_error(rcvd.code, rcvd.reason) from None
                drops += 1
                if drops >= self.max_failures:
                    raise
                time.sleep(backoff_delay(self.backoff, drops - 1))
                continue
            self._credential.renewed = False
            event = self._resume.event(raw)
            if event is not None:  # (a server that sends no opening message: the first event)
                self._pending.append(event)

    def close(self) -> None:
        self._closed = True
        if self._ws is not None:
            self._ws.close()
            self._ws = None

    def _mended(self, code: int) -> bool:
        """Whether a final close code was mended: a 4401 for which `renew` gave a new token."""
        if self._renew is None or not self._credential.due(code):
            return False
        return self._credential.take(self._renew(self._credential.token))

    def _connect(self) -> SyncConnection:
        failures = 0
        while True:
            try:
                ws = sync_connect(
                    self._resume.url(),
                    additional_headers=self._credential.headers or None,
                    user_agent_header=USER_AGENT,
                    open_timeout=10,
                ).__enter__()  # (as `with connect(...)`: its end is `close()`)
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                failures += 1
                refused = isinstance(exc, InvalidStatus) and exc.response.status_code < 500
                if refused or isinstance(exc, InvalidURI) or failures >= self.max_failures:
                    raise
                time.sleep(backoff_delay(self.backoff, failures - 1))
                continue
            self.connections += 1
            return ws

    def __next__(self) -> AccountEvent:
        return self.receive()

    def receive(self, timeout: float | None = None) -> AccountEvent:
        """The next event (`next(live)`), waiting for it at most `timeout` seconds if given
        (then `TimeoutError`; the socket stays as it was: ask again)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._closed:
                raise StopIteration
            self.open()
            if self._pending:
                return self._pending.pop(0)
            assert self._ws is not None
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                raw = self._ws.recv(timeout=left)
            except ConnectionClosed as exc:
                self._ws = None
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code is not None and code in FINAL_CLOSE_CODES:
                    if self._mended(code):
                        continue
                    raise closed_error(code, exc.rcvd.reason if exc.rcvd else "") from None
                if self._closed or not self.reconnect:
                    raise StopIteration from None
                time.sleep(backoff_delay(self.backoff, self._drops))
                self._drops += 1
                continue
            self._drops, self._credential.renewed = 0, False
            event = self._resume.event(raw)
            if event is not None:
                return event
