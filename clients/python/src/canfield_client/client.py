"""`Client` (blocking) and `AsyncClient` (asyncio): the same methods, on httpx."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import httpx

from canfield_client import errors
from canfield_client._core import (
    DEFAULT_SERVER,
    Call,
    Core,
    Op,
    api_base,
    backoff_delay,
    drive_step,
    headers_for,
)
from canfield_client.board import LiveBoard
from canfield_client.events import AccountEventSocket, LiveAccountEvents
from canfield_client.match import LiveMatch
from canfield_client.models import (
    OPENED,
    Account,
    AccountEvent,
    Acted,
    Action,
    Analysis,
    ApiToken,
    Card,
    Challenge,
    ConcretePile,
    Daily,
    DailyMonth,
    Draw,
    Entry,
    Game,
    GameEvent,
    GameFilters,
    Hint,
    Language,
    Leaderboard,
    Match,
    Move,
    Page,
    Pile,
    Player,
    PlayerStats,
    RateLimit,
    RatingChange,
    RatingEntry,
    Ruleset,
    Scope,
    Status,
    WeeklyBoard,
)

T = TypeVar("T")


# Answers of a server being restarted or deployed, or of its proxy meanwhile: a stream is
# opened again after them, as after a dropped connection.
RESTARTING = frozenset({502, 503, 504})


class _Options:
    """Constructor arguments and read-only state both clients share."""

    def __init__(
        self,
        server: str,
        token: str | None,
        language: str | None,
        retries: int,
        backoff: float,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.language = language
        self.headers = dict(headers or {})
        self._core = Core(token=token, retries=retries, backoff=backoff)

    @property
    def token(self) -> str | None:
        """The API token in use (set by `register` and `login`)."""
        return self._core.token

    @token.setter
    def token(self, value: str | None) -> None:
        self._core.token = value

    @property
    def rate_limit(self) -> RateLimit | None:
        """The rate-limit headers of the last answer that had them."""
        return self._core.rate_limit

    def _http_args(self, timeout: float, transport: Any) -> dict[str, Any]:
        args: dict[str, Any] = {"base_url": api_base(self.server), "timeout": timeout}
        if self.headers:
            args["headers"] = self.headers
        if transport is not None:
            args["transport"] = transport
        return args

    def _stream_args(self, url: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        # Reads time out after 30 s: the server sends a line at least every 10 s.
        return {
            "method": "GET",
            "url": url,
            "params": params,
            "headers": headers_for(self._core.token, self.language, "application/x-ndjson"),
            "timeout": httpx.Timeout(10.0, read=30.0),
        }

    def _events_args(self, since: int | None) -> dict[str, Any]:
        return self._stream_args("account/events", None if since is None else {"since": since})

    def _socket_args(self, since: int | None, backoff: float) -> dict[str, Any]:
        """A live account event socket's arguments but its `renew`."""
        return {"since": since, "headers": self.headers, "backoff": backoff}

    def _restarting(self, response: httpx.Response, failures: int, reconnect: bool) -> float:
        """The wait before opening a stream again after an error answer that a restarting
        server or its proxy gives (RESTARTING; Retry-After honoured); any other error, or one
        past the retries, is raised."""
        if response.status_code in RESTARTING and reconnect and failures < self._core.retries:
            return self._core.wait(failures, response).seconds
        raise _error(response)

    def _request_args(self, call: Call) -> dict[str, Any]:
        return {
            "method": call.method,
            "url": call.path,
            "json": call.json,
            "params": call.params or None,
            "headers": headers_for(self._core.token, self.language, call.accept),
        }


class Client(_Options):
    """A blocking client of the Canfield Club API.

    >>> with Client("https://canfield.example", token="...") as client:
    ...     game = client.daily_game()
    ...     client.draw(game)
    """

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        token: str | None = None,
        language: str | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.25,
        transport: httpx.BaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
        renew: Callable[[str | None], str | None] | None = None,
    ) -> None:
        super().__init__(server, token, language, retries, backoff, headers)
        self._http = httpx.Client(**self._http_args(timeout, transport))
        # Called with the token a request was refused with (401): a new token, or None
        # (OAuthApp.client: an OAuth refresh).
        self._renew = renew

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _run(self, op: Op[T]) -> T:
        done, step = drive_step(op, None)
        while not done:
            sent: httpx.Response | BaseException | None = None
            if isinstance(step, Call):
                try:
                    sent = self._send(step)
                except httpx.TransportError as exc:
                    sent = exc
            else:
                time.sleep(step.seconds)
            done, step = drive_step(op, sent)
        result: T = step
        return result

    def _send(self, call: Call) -> httpx.Response:
        """One request; refused 401 with a token that `renew` replaces, sent once more."""
        response = self._http.request(**self._request_args(call))
        if self._renewed(response):
            response = self._http.request(**self._request_args(call))
        self._core.seen(response)
        return response

    def _renewed(self, response: httpx.Response) -> bool:
        """Whether a 401 got the client a new token from `renew`: the request may go again."""
        return response.status_code == 401 and self._token_renewed(self.token) is not None

    def _token_renewed(self, refused: str | None) -> str | None:
        """A new token from `renew` for one refused (a request's 401, a socket's 4401), or
        None: the client's requests go on with it."""
        if self._renew is None:
            return None
        fresh = self._renew(refused)
        if fresh is not None:
            self.token = fresh
        return fresh

    # Accounts
    def register(self, username: str, password: str) -> str:
        """Create an account; returns its token, which the client then uses."""
        return self._run(self._core.register(username, password))

    def login(self, username: str, password: str) -> str:
        """Get the account's token, which the client then uses."""
        return self._run(self._core.login(username, password))

    # Games
    def new_game(self, *, draw: Draw = 3, ruleset: Ruleset = "app") -> Game:
        """A random deal."""
        return self._run(self._core.create({"draw": draw, "ruleset": ruleset}))

    def new_game_from_code(self, code: str, *, ruleset: Ruleset | None = None) -> Game:
        """The deal of a code (CF1-/CF2-...): a practice game."""
        body = {"code": code} if ruleset is None else {"code": code, "ruleset": ruleset}
        return self._run(self._core.create(body))

    def new_game_from_deck(
        self, deck: Sequence[Card], *, draw: Draw = 3, ruleset: Ruleset = "app"
    ) -> Game:
        """A custom deal of 52 cards d[0]..d[51] (R5): a practice game."""
        return self._run(self._core.create({"deck": list(deck), "draw": draw, "ruleset": ruleset}))

    def daily_game(self, *, draw: Draw = 3) -> Game:
        """The caller's ranked game on today's daily challenge, created or resumed."""
        return self._run(self._core.create({"daily": True, "draw": draw}, idempotent=True))

    def games(
        self,
        *,
        page: int = 1,
        page_size: int | None = None,
        status: Status | None = None,
        daily: bool | None = None,
        filters: GameFilters | None = None,
    ) -> Page[Game]:
        """The caller's games, newest first, those `filters` keep."""
        return self._run(self._core.games(page, page_size, status, daily, filters))

    def games_by_ids(self, ids: Sequence[str]) -> list[Game]:
        """Up to 100 games by id, those the caller may see, in the order asked."""
        return self._run(self._core.games_by_ids(ids))

    def game(self, game_id: str) -> Game:
        return self._run(self._core.game(game_id))

    def actions(self, game_id: str) -> list[Action]:
        """The game's action log, oldest first."""
        return self._run(self._core.actions(game_id))

    def legal_actions(self, game: Game | str) -> list[Move]:
        return self._run(self._core.legal_actions(_id(game)))

    def text(self, game: Game | str, *, lang: Language = "en") -> str:
        """The table in words (R28)."""
        return self._run(self._core.text(_id(game), lang))

    def hint(self, game: Game | str) -> Hint:
        """The next action of a winning line (not for a ranked daily game while its day lasts)."""
        return self._run(self._core.hint(_id(game)))

    def analysis(self, game: Game | str, *, wait: float = 60.0) -> Analysis:
        """Where the win was lost (R37), for a finished game whose deal may be shown
        (`DealHidden` before). The server computes it once, off the request path: this waits
        up to `wait` seconds for it (0: ask once), then returns it, `done` or not."""
        return self._run(self._core.analysis(_id(game), wait))

    # Actions (each with automatic `expect` and safe retry, see `act`)
    def act(self, game: Game | str, move: Move) -> Acted:
        """Apply `move`, expecting the `moves` of `game` (or the last seen for that id)."""
        return self._run(self._core.act(game, move))

    def move(self, game: Game | str, from_pile: ConcretePile, to: Pile, count: int = 1) -> Acted:
        return self.act(game, Move("move", from_pile, to, count))

    def tap(
        self, game: Game | str, from_pile: ConcretePile, count: int = 1, *, columns: bool = True
    ) -> Acted:
        """Move to where the server picks (R27); `columns=False`: to a foundation only."""
        return self.act(game, Move("tap", from_pile, None, count, columns))

    def draw(self, game: Game | str) -> Acted:
        return self.act(game, Move("draw"))

    def recycle(self, game: Game | str) -> Acted:
        return self.act(game, Move("recycle"))

    def undo(self, game: Game | str) -> Acted:
        return self.act(game, Move("undo"))

    def resign(self, game: Game | str) -> Acted:
        return self.act(game, Move("resign"))

    def finish(self, game: Game | str) -> Acted:
        """Every card left home in one action (R20b); `CannotFinish` while a card
        is hidden or they cannot all go home one after another."""
        return self.act(game, Move("finish"))

    # Daily challenges, boards, players
    def daily(self, date: dt.date | None = None) -> Daily:
        """Today's challenge (or that day's): its boards, and once over their codes and par."""
        return self._run(self._core.daily(date))

    def daily_month(self, month: str) -> DailyMonth:
        """The archive's month ("YYYY-MM"): its days with a daily up to today (codes and par of
        the days that are over)."""
        return self._run(self._core.daily_month(month))

    def leaderboard(
        self,
        date: dt.date,
        *,
        draw: Draw = 3,
        page: int = 1,
        page_size: int | None = None,
        section: Literal["provisional"] | None = None,
    ) -> Leaderboard:
        """A day's board; `section="provisional"`: its provisional entries, unranked (R36)."""
        return self._run(self._core.leaderboard(date, draw, page, page_size, section))

    def player(self, username: str) -> Player:
        return self._run(self._core.player(username))

    def player_stats(self, username: str) -> PlayerStats:
        """A player's daily streak (current, best) and history: heat map days, weeks, par."""
        return self._run(self._core.player_stats(username))

    def player_games(
        self,
        username: str,
        *,
        page: int = 1,
        page_size: int | None = None,
        status: Literal["won", "resigned"] | None = None,
        filters: GameFilters | None = None,
    ) -> Page[Game]:
        """A player's finished public games, newest first, those `filters` keep."""
        return self._run(self._core.player_games(username, page, page_size, status, filters))

    # Page iterators: every item of a list, page after page (one request a page)
    def iter_games(
        self, *, status: Status | None = None, daily: bool | None = None, page_size: int = 100
    ) -> Iterator[Game]:
        """Each of the caller's games, newest first."""
        return _items(
            lambda page: self.games(page=page, page_size=page_size, status=status, daily=daily)
        )

    def iter_player_games(
        self,
        username: str,
        *,
        status: Literal["won", "resigned"] | None = None,
        page_size: int = 100,
    ) -> Iterator[Game]:
        """Each of a player's finished public games, newest first."""
        return _items(
            lambda page: self.player_games(username, page=page, page_size=page_size, status=status)
        )

    def iter_leaderboard(
        self, date: dt.date, *, draw: Draw = 3, page_size: int = 100
    ) -> Iterator[Entry]:
        """Each entry of a daily board, best first."""
        return _items(
            lambda page: self.leaderboard(date, draw=draw, page=page, page_size=page_size)
        )

    # A game's stream
    def game_stream(self, game: Game | str, *, reconnect: bool = True) -> Iterator[GameEvent]:
        """The game's events as they happen (`GET games/{id}/stream`): a `"game"` event, an
        `"action"` event for each applied action, and an `"end"` event, after which the
        iteration stops. A dropped stream is opened again (jittered exponential back-off, up to
        `retries` failures in a row): its first event is then the game as it is."""
        path = f"games/{_id(game)}/stream"
        for line in self._follow(lambda: self._stream_args(path), reconnect):
            event = _event(line)
            if event is not None:
                yield event
                if event.type == "end":
                    return

    def account_events(self, since: int | None = None) -> Iterator[AccountEvent]:
        """The account's events as they happen (`GET account/events`), after the event `since`
        (an `AccountEvent.id`) if given, endlessly: a dropped stream is opened again after the
        last event received (jittered exponential back-off, up to `retries` failures in a
        row), so none is lost. Without `since` it starts where the stream opens: its first line
        (`stream_opened`, never given) tells that position, which a reconnection resumes from
        even when no event came yet."""
        last = [since]
        for line in self._follow(lambda: self._events_args(last[0]), True):
            event = AccountEvent.from_json(json.loads(line))
            last[0] = event.id  # (the `stream_opened` line's too: where the stream starts)
            if event.type != OPENED:
                yield event

    def live_account_events(
        self, since: int | None = None, *, backoff: float = 0.5
    ) -> AccountEventSocket:
        """The account's events over the WebSocket (`/ws/account/events`, scope
        `account:read`): the events of `account_events`, to iterate with `for` (`with`
        connects at once: what happens from then on is told). A dropped connection is reopened
        (jittered back-off from `backoff`) after the last event given (`since`): none is lost
        or repeated. A socket of `OAuthApp.client` refreshes an expired token (4401) and
        reopens. See `AccountEventSocket`."""
        renew = None if self._renew is None else self._token_renewed
        return AccountEventSocket(
            self.server, self.token, **self._socket_args(since, backoff), renew=renew
        )

    def _follow(self, args: Callable[[], dict[str, Any]], reconnect: bool) -> Iterator[str]:
        """A stream's lines but its empty ones, opened again (`args()`) when dropped."""
        failures = 0
        renewed = False  # (once a refused opening: the new token is tried, then the error raised)
        while True:
            wait = backoff_delay(self._core.backoff, failures)
            try:
                with self._http.stream(**args()) as response:
                    if response.status_code >= 400:
                        response.read()
                        if not renewed and self._renewed(response):
                            renewed = True
                            continue
                        wait = self._restarting(response, failures, reconnect)
                    else:
                        for line in response.iter_lines():
                            if line.strip():
                                failures, renewed = 0, False
                                yield line
            except httpx.TransportError:
                if not reconnect or failures >= self._core.retries:
                    raise
            else:
                if not reconnect:
                    return
            time.sleep(wait)
            failures += 1

    # The account and its API keys
    def account(self) -> Account:
        """The caller's account and the scopes of the key in use."""
        return self._run(self._core.account())

    def declare_bot(self) -> Account:
        """Declare the account a bot (R34; before its first ranked game; irreversible)."""
        return self._run(self._core.account_bot())

    def change_password(self, password: str, new_password: str) -> None:
        """Other keys stay valid; the account's browser sessions end."""
        self._run(self._core.password_change(password, new_password))

    def delete_account(self, password: str) -> None:
        """The account can no longer log in and its keys die; its ranked figures stay."""
        self._run(self._core.account_delete(password))

    def export(
        self, *, status: Status | None = None, filters: GameFilters | None = None
    ) -> list[Game]:
        """The caller's games, oldest first, each with its action log, those `filters` keep."""
        return self._run(self._core.account_export(status, filters))

    def tokens(self) -> list[ApiToken]:
        """The account's API keys (never the keys themselves)."""
        return self._run(self._core.tokens())

    def create_token(
        self, name: str, scopes: Sequence[Scope], *, days: int | None = None
    ) -> ApiToken:
        """A new key with those scopes (`token` holds the key: shown this once)."""
        return self._run(self._core.token_create(name, list(scopes), days))

    def revoke_token(self, token: ApiToken | str) -> None:
        """The key answers 401 at once."""
        self._run(self._core.token_delete(token if isinstance(token, str) else token.id))

    # Matches and ratings (R32, R33)
    def join_match(self, *, size: int = 2, draw: int = 3) -> Match:
        """Join a match of `size` players (2 or 4) and draw mode: the caller's game in it
        (`Match.game`) is dealt at once; a caller already in an unfinished match of that mode
        gets that one."""
        return self._run(self._core.join_match(size, draw))

    def match(self, match_id: str) -> Match:
        """A match: its players' figures (only those until it is finished), then places,
        rating changes and the deal's code."""
        return self._run(self._core.match(match_id))

    def matches(self, *, status: str | None = None, page: int = 1) -> Page[Match]:
        """The caller's matches, newest first (`status`: "open" or "finished")."""
        return self._run(self._core.matches(status, page))

    # Challenges: a duel with a named player
    def challenge(self, player: str, *, draw: Draw = 3, rated: bool = False) -> Challenge:
        """Invite `player` to a duel on a fresh deal, pending for 24 hours; rated only if they
        accept it rated too (both in good standing, R36)."""
        return self._run(self._core.challenge(player, draw, rated))

    def challenges(self, *, page: int = 1) -> Page[Challenge]:
        """The caller's challenges, made and received: pending ones first, then the newest."""
        return self._run(self._core.challenges(page))

    def challenge_get(self, challenge: Challenge | str) -> Challenge:
        return self._run(self._core.challenge_get(_id(challenge)))

    def challenge_accept(self, challenge: Challenge | str, *, rated: bool | None = None) -> Match:
        """Accept a challenge made to the caller: the duel, both games dealt (`Match.game` is
        the caller's). `rated=False` plays a rated challenge unrated."""
        return self._run(self._core.challenge_accept(_id(challenge), rated))

    def challenge_decline(self, challenge: Challenge | str) -> Challenge:
        return self._run(self._core.challenge_decide(_id(challenge), "decline"))

    def challenge_cancel(self, challenge: Challenge | str) -> Challenge:
        """Take back a challenge the caller made."""
        return self._run(self._core.challenge_decide(_id(challenge), "cancel"))

    def ratings(self, *, size: int = 2, draw: int = 3, page: int = 1) -> Page[RatingEntry]:
        """The ratings board of a mode, best first."""
        return self._run(self._core.ratings(size, draw, page))

    def rating_history(self, username: str, *, size: int = 2, draw: int = 3) -> list[RatingChange]:
        """A player's rating changes in a mode, oldest first (the last 200 matches)."""
        return self._run(self._core.rating_history(username, size, draw))

    def weekly_ratings(self, *, size: int = 2, draw: int = 3, page: int = 1) -> WeeklyBoard:
        """The week's best rating gains of a mode (reset every Monday)."""
        return self._run(self._core.weekly_ratings(size, draw, page))


class AsyncClient(_Options):
    """The asyncio client: the same methods as `Client`, awaited, plus `board()`."""

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        token: str | None = None,
        language: str | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.25,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
        renew: Callable[[str | None], Awaitable[str | None]] | None = None,
    ) -> None:
        super().__init__(server, token, language, retries, backoff, headers)
        self._http = httpx.AsyncClient(**self._http_args(timeout, transport))
        # `Client`'s `renew`, awaited (OAuthApp.async_client).
        self._renew = renew

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _run(self, op: Op[T]) -> T:
        done, step = drive_step(op, None)
        while not done:
            sent: httpx.Response | BaseException | None = None
            if isinstance(step, Call):
                try:
                    sent = await self._send(step)
                except httpx.TransportError as exc:
                    sent = exc
            else:
                await asyncio.sleep(step.seconds)
            done, step = drive_step(op, sent)
        result: T = step
        return result

    async def _send(self, call: Call) -> httpx.Response:
        """`Client._send`, for asyncio."""
        response = await self._http.request(**self._request_args(call))
        if await self._renewed(response):
            response = await self._http.request(**self._request_args(call))
        self._core.seen(response)
        return response

    async def _renewed(self, response: httpx.Response) -> bool:
        """`Client._renewed`, for asyncio."""
        return response.status_code == 401 and await self._token_renewed(self.token) is not None

    async def _token_renewed(self, refused: str | None) -> str | None:
        """`Client._token_renewed`, for asyncio."""
        if self._renew is None:
            return None
        fresh = await self._renew(refused)
        if fresh is not None:
            self.token = fresh
        return fresh

    async def register(self, username: str, password: str) -> str:
        return await self._run(self._core.register(username, password))

    async def login(self, username: str, password: str) -> str:
        return await self._run(self._core.login(username, password))

    async def new_game(self, *, draw: Draw = 3, ruleset: Ruleset = "app") -> Game:
        return await self._run(self._core.create({"draw": draw, "ruleset": ruleset}))

    async def new_game_from_code(self, code: str, *, ruleset: Ruleset | None = None) -> Game:
        body = {"code": code} if ruleset is None else {"code": code, "ruleset": ruleset}
        return await self._run(self._core.create(body))

    async def new_game_from_deck(
        self, deck: Sequence[Card], *, draw: Draw = 3, ruleset: Ruleset = "app"
    ) -> Game:
        body = {"deck": list(deck), "draw": draw, "ruleset": ruleset}
        return await self._run(self._core.create(body))

    async def daily_game(self, *, draw: Draw = 3) -> Game:
        return await self._run(self._core.create({"daily": True, "draw": draw}, idempotent=True))

    async def games(
        self,
        *,
        page: int = 1,
        page_size: int | None = None,
        status: Status | None = None,
        daily: bool | None = None,
        filters: GameFilters | None = None,
    ) -> Page[Game]:
        return await self._run(self._core.games(page, page_size, status, daily, filters))

    async def games_by_ids(self, ids: Sequence[str]) -> list[Game]:
        return await self._run(self._core.games_by_ids(ids))

    async def game(self, game_id: str) -> Game:
        return await self._run(self._core.game(game_id))

    async def actions(self, game_id: str) -> list[Action]:
        return await self._run(self._core.actions(game_id))

    async def legal_actions(self, game: Game | str) -> list[Move]:
        return await self._run(self._core.legal_actions(_id(game)))

    async def text(self, game: Game | str, *, lang: Language = "en") -> str:
        return await self._run(self._core.text(_id(game), lang))

    async def hint(self, game: Game | str) -> Hint:
        return await self._run(self._core.hint(_id(game)))

    async def analysis(self, game: Game | str, *, wait: float = 60.0) -> Analysis:
        return await self._run(self._core.analysis(_id(game), wait))

    async def act(self, game: Game | str, move: Move) -> Acted:
        return await self._run(self._core.act(game, move))

    async def move(
        self, game: Game | str, from_pile: ConcretePile, to: Pile, count: int = 1
    ) -> Acted:
        return await self.act(game, Move("move", from_pile, to, count))

    async def tap(
        self, game: Game | str, from_pile: ConcretePile, count: int = 1, *, columns: bool = True
    ) -> Acted:
        return await self.act(game, Move("tap", from_pile, None, count, columns))

    async def draw(self, game: Game | str) -> Acted:
        return await self.act(game, Move("draw"))

    async def recycle(self, game: Game | str) -> Acted:
        return await self.act(game, Move("recycle"))

    async def undo(self, game: Game | str) -> Acted:
        return await self.act(game, Move("undo"))

    async def resign(self, game: Game | str) -> Acted:
        return await self.act(game, Move("resign"))

    async def finish(self, game: Game | str) -> Acted:
        return await self.act(game, Move("finish"))

    async def daily(self, date: dt.date | None = None) -> Daily:
        return await self._run(self._core.daily(date))

    async def daily_month(self, month: str) -> DailyMonth:
        return await self._run(self._core.daily_month(month))

    async def leaderboard(
        self,
        date: dt.date,
        *,
        draw: Draw = 3,
        page: int = 1,
        page_size: int | None = None,
        section: Literal["provisional"] | None = None,
    ) -> Leaderboard:
        return await self._run(self._core.leaderboard(date, draw, page, page_size, section))

    async def player(self, username: str) -> Player:
        return await self._run(self._core.player(username))

    async def player_stats(self, username: str) -> PlayerStats:
        return await self._run(self._core.player_stats(username))

    async def player_games(
        self,
        username: str,
        *,
        page: int = 1,
        page_size: int | None = None,
        status: Literal["won", "resigned"] | None = None,
        filters: GameFilters | None = None,
    ) -> Page[Game]:
        return await self._run(self._core.player_games(username, page, page_size, status, filters))

    async def iter_games(
        self, *, status: Status | None = None, daily: bool | None = None, page_size: int = 100
    ) -> AsyncIterator[Game]:
        page = 1
        while True:
            found = await self.games(page=page, page_size=page_size, status=status, daily=daily)
            for game in found.results:
                yield game
            if found.next is None:
                return
            page += 1

    async def iter_player_games(
        self,
        username: str,
        *,
        status: Literal["won", "resigned"] | None = None,
        page_size: int = 100,
    ) -> AsyncIterator[Game]:
        page = 1
        while True:
            found = await self.player_games(username, page=page, page_size=page_size, status=status)
            for game in found.results:
                yield game
            if found.next is None:
                return
            page += 1

    async def iter_leaderboard(
        self, date: dt.date, *, draw: Draw = 3, page_size: int = 100
    ) -> AsyncIterator[Entry]:
        page = 1
        while True:
            found = await self.leaderboard(date, draw=draw, page=page, page_size=page_size)
            for entry in found.results:
                yield entry
            if found.next is None:
                return
            page += 1

    async def game_stream(
        self, game: Game | str, *, reconnect: bool = True
    ) -> AsyncIterator[GameEvent]:
        """`Client.game_stream`, for asyncio."""
        path = f"games/{_id(game)}/stream"
        async for line in self._follow(lambda: self._stream_args(path), reconnect):
            event = _event(line)
            if event is not None:
                yield event
                if event.type == "end":
                    return

    async def account_events(self, since: int | None = None) -> AsyncIterator[AccountEvent]:
        """`Client.account_events`, for asyncio."""
        last = [since]
        async for line in self._follow(lambda: self._events_args(last[0]), True):
            event = AccountEvent.from_json(json.loads(line))
            last[0] = event.id  # (the `stream_opened` line's too: where the stream starts)
            if event.type != OPENED:
                yield event

    async def _follow(
        self, args: Callable[[], dict[str, Any]], reconnect: bool
    ) -> AsyncIterator[str]:
        """`Client._follow`, for asyncio."""
        failures = 0
        renewed = False
        while True:
            wait = backoff_delay(self._core.backoff, failures)
            try:
                async with self._http.stream(**args()) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        if not renewed and await self._renewed(response):
                            renewed = True
                            continue
                        wait = self._restarting(response, failures, reconnect)
                    else:
                        async for line in response.aiter_lines():
                            if line.strip():
                                failures, renewed = 0, False
                                yield line
            except httpx.TransportError:
                if not reconnect or failures >= self._core.retries:
                    raise
            else:
                if not reconnect:
                    return
            await asyncio.sleep(wait)
            failures += 1

    async def account(self) -> Account:
        return await self._run(self._core.account())

    async def declare_bot(self) -> Account:
        return await self._run(self._core.account_bot())

    async def change_password(self, password: str, new_password: str) -> None:
        await self._run(self._core.password_change(password, new_password))

    async def delete_account(self, password: str) -> None:
        await self._run(self._core.account_delete(password))

    async def export(
        self, *, status: Status | None = None, filters: GameFilters | None = None
    ) -> list[Game]:
        return await self._run(self._core.account_export(status, filters))

    async def tokens(self) -> list[ApiToken]:
        return await self._run(self._core.tokens())

    async def create_token(
        self, name: str, scopes: Sequence[Scope], *, days: int | None = None
    ) -> ApiToken:
        return await self._run(self._core.token_create(name, list(scopes), days))

    async def revoke_token(self, token: ApiToken | str) -> None:
        await self._run(self._core.token_delete(token if isinstance(token, str) else token.id))

    async def join_match(self, *, size: int = 2, draw: int = 3) -> Match:
        return await self._run(self._core.join_match(size, draw))

    async def match(self, match_id: str) -> Match:
        return await self._run(self._core.match(match_id))

    async def matches(self, *, status: str | None = None, page: int = 1) -> Page[Match]:
        return await self._run(self._core.matches(status, page))

    async def challenge(self, player: str, *, draw: Draw = 3, rated: bool = False) -> Challenge:
        return await self._run(self._core.challenge(player, draw, rated))

    async def challenges(self, *, page: int = 1) -> Page[Challenge]:
        return await self._run(self._core.challenges(page))

    async def challenge_get(self, challenge: Challenge | str) -> Challenge:
        return await self._run(self._core.challenge_get(_id(challenge)))

    async def challenge_accept(
        self, challenge: Challenge | str, *, rated: bool | None = None
    ) -> Match:
        return await self._run(self._core.challenge_accept(_id(challenge), rated))

    async def challenge_decline(self, challenge: Challenge | str) -> Challenge:
        return await self._run(self._core.challenge_decide(_id(challenge), "decline"))

    async def challenge_cancel(self, challenge: Challenge | str) -> Challenge:
        return await self._run(self._core.challenge_decide(_id(challenge), "cancel"))

    async def ratings(self, *, size: int = 2, draw: int = 3, page: int = 1) -> Page[RatingEntry]:
        return await self._run(self._core.ratings(size, draw, page))

    async def rating_history(
        self, username: str, *, size: int = 2, draw: int = 3
    ) -> list[RatingChange]:
        return await self._run(self._core.rating_history(username, size, draw))

    async def weekly_ratings(self, *, size: int = 2, draw: int = 3, page: int = 1) -> WeeklyBoard:
        return await self._run(self._core.weekly_ratings(size, draw, page))

    def live_match(self, match: Match | str) -> LiveMatch:
        """The match live, to iterate with `async for`: a `MatchSnapshot` first (and after
        every reconnection), then `SeatChanged` as the players' figures change, `MatchFinished`
        at the end and `MatchRated` once its ratings change, after which the iteration stops
        (see `LiveMatch`)."""
        return LiveMatch(self.server, match if isinstance(match, str) else match.id)

    def live_account_events(
        self, since: int | None = None, *, backoff: float = 0.5
    ) -> LiveAccountEvents:
        """`Client.live_account_events`, to iterate with `async for` (`async with` connects
        at once). See `LiveAccountEvents`."""
        renew = None if self._renew is None else self._token_renewed
        return LiveAccountEvents(
            self.server, self.token, **self._socket_args(since, backoff), renew=renew
        )

    async def board(self, date: dt.date | None = None, *, draw: Draw = 3) -> LiveBoard:
        """The live board of that day (default: the server's today) and draw mode, to iterate
        with `async for`: a `Snapshot` first (and after every reconnection), then `Entries`
        and `Removed` as they happen."""
        if date is None:
            date = (await self.daily()).date
        return LiveBoard(self.server, date, draw)


def _id(item: Game | Challenge | str) -> str:
    return item if isinstance(item, str) else item.id


def _items(fetch: Callable[[int], Page[T] | Leaderboard]) -> Iterator[Any]:
    page = 1
    while True:
        found = fetch(page)
        yield from found.results
        if found.next is None:
            return
        page += 1


def _event(line: str) -> GameEvent | None:
    """A stream's line as an event; None for the idle keep-alive (an empty line) and for what
    this client does not know."""
    if not line.strip():
        return None
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return GameEvent.from_json(data) if isinstance(data, dict) else None


def _error(response: httpx.Response) -> errors.CanfieldError:
    try:
        body = response.json()
    except ValueError:
        body = None
    return errors.error_from(response.status_code, body, response.headers)
