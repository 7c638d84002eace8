"""What the sync and async clients share: every operation is a generator that yields the
requests (and pauses) it needs and returns its result, so the retry rules live in one place and
`Client` and `AsyncClient` only differ in how they send a request and sleep."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeVar

import httpx

from canfield_client import errors
from canfield_client._version import __version__
from canfield_client.models import (
    Account,
    Acted,
    Action,
    Analysis,
    ApiToken,
    Challenge,
    Daily,
    DailyMonth,
    Game,
    GameFilters,
    Hint,
    Json,
    Leaderboard,
    Match,
    Move,
    Page,
    Player,
    PlayerStats,
    RateLimit,
    RatingChange,
    RatingEntry,
    Scope,
    WeeklyBoard,
)

T = TypeVar("T")

DEFAULT_SERVER = "http://127.0.0.1:8000"
USER_AGENT = f"canfield-client/{__version__}"
# Failures that never reached the server: retrying them is safe for any request.
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


@dataclass(frozen=True, slots=True)
class Call:
    method: str
    path: str  # relative to /api/v1/
    json: Json | None = None
    params: dict[str, str] = field(default_factory=dict)
    accept: str = "application/json"


def _list_params(
    page: int, page_size: int | None, status: str | None, filters: GameFilters | None
) -> dict[str, str]:
    """The query of a list of games: its page, its status and its filters."""
    params = {"page": str(page), **(filters or GameFilters()).params()}
    if page_size is not None:
        params["page_size"] = str(page_size)
    if status is not None:
        params["status"] = status
    return params


def _game_page(data: Any) -> Page[Game]:
    results = [Game.from_json(g) for g in data["results"]]
    return Page(data["count"], data.get("next"), data.get("previous"), results)


@dataclass(frozen=True, slots=True)
class Sleep:
    seconds: float


Op: TypeAlias = Generator[Call | Sleep, httpx.Response | None, T]


# The longest wait between two attempts, however many failed.
MAX_BACKOFF = 30.0


def backoff_delay(base: float, attempt: int) -> float:
    """The wait before retry number `attempt` (0 first): exponential from `base`, capped, and
    jittered ("equal jitter": half fixed, half random), so that clients dropped together (a
    server restart) do not all come back at the same instant."""
    ceiling = min(MAX_BACKOFF, base * 2.0**attempt)
    return ceiling / 2 + random.uniform(0, ceiling / 2)


def send(call: Call) -> Op[httpx.Response]:
    """Yield `call`; the client resumes the operation with the answer (or throws the
    transport failure into it)."""
    response = yield call
    assert response is not None
    return response


def api_base(server: str) -> str:
    return server.rstrip("/") + "/api/v1/"


def ws_base(server: str) -> str:
    base = server.rstrip("/")
    if base.startswith("https://"):
        return "wss://" + base.removeprefix("https://")
    return "ws://" + base.removeprefix("http://")


def headers_for(
    token: str | None, language: str | None, accept: str = "application/json"
) -> dict[str, str]:
    headers = {"User-Agent": USER_AGENT, "Accept": accept}
    if token:
        headers["Authorization"] = f"Token {token}"
    if language:
        headers["Accept-Language"] = language
    return headers


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


class Core:
    """The state both clients keep (token, last rate limit seen, the last `moves` seen per
    game for automatic `expect`) and the operations."""

    def __init__(self, *, token: str | None, retries: int, backoff: float) -> None:
        self.token = token
        self.retries = retries
        self.backoff = backoff
        self.rate_limit: RateLimit | None = None
        self.moves_seen: dict[str, int] = {}

    # -- plumbing -------------------------------------------------------------------------

    def seen(self, response: httpx.Response) -> None:
        """Called by the clients on every answer."""
        rate_limit = RateLimit.from_headers(response.headers)
        if rate_limit is not None:
            self.rate_limit = rate_limit

    def wait(self, attempt: int, response: httpx.Response | None = None) -> Sleep:
        retry_after = None if response is None else response.headers.get("Retry-After")
        try:
            seconds = min(float(retry_after), 30.0) if retry_after else 0.0
        except ValueError:
            seconds = 0.0
        return Sleep(max(seconds, backoff_delay(self.backoff, attempt)))

    def request(self, call: Call, *, idempotent: bool = True) -> Op[tuple[httpx.Response, bool]]:
        """Send `call`, retrying what is safe to retry: a request that never reached the
        server, a 503 (the server did nothing), and, when `idempotent`, a request whose answer
        was lost (a broken connection, a gateway's 502 or 504). Returns the answer (error
        answers are not raised) and whether an earlier attempt may have been applied."""
        attempt = 0
        maybe_applied = False
        while True:
            response: httpx.Response | None = None
            try:
                response = yield from send(call)
            except httpx.TransportError as exc:
                lost = not isinstance(exc, NOT_SENT)
                if (lost and not idempotent) or attempt >= self.retries:
                    raise
            else:
                lost = response.status_code in (502, 504)
                retry = response.status_code == 503 or (lost and idempotent)
                if not retry or attempt >= self.retries:
                    return response, maybe_applied
            maybe_applied = maybe_applied or lost
            yield self.wait(attempt, response)
            attempt += 1

    def fetch(self, call: Call, *, idempotent: bool = True) -> Op[Any]:
        """The JSON of a successful answer; an error answer raises its `CanfieldError`."""
        response, _ = yield from self.request(call, idempotent=idempotent)
        if response.status_code >= 400:
            raise errors.error_from(response.status_code, _body(response), response.headers)
        return _body(response)

    def _game(self, data: Json) -> Game:
        game = Game.from_json(data)
        self.moves_seen[game.id] = game.moves
        return game

    # -- accounts -------------------------------------------------------------------------

    def register(self, username: str, password: str) -> Op[str]:
        body = {"username": username, "password": password}
        # Not retried once sent: a lost answer would make the retry find the name taken.
        data = yield from self.fetch(Call("POST", "auth/register", body), idempotent=False)
        self.token = str(data["token"])
        return self.token

    def login(self, username: str, password: str) -> Op[str]:
        body = {"username": username, "password": password}
        data = yield from self.fetch(Call("POST", "auth/token", body))
        self.token = str(data["token"])
        return self.token

    # -- games ----------------------------------------------------------------------------

    def create(self, body: Json, *, idempotent: bool = False) -> Op[Game]:
        data = yield from self.fetch(Call("POST", "games", body), idempotent=idempotent)
        return self._game(data)

    def games(
        self,
        page: int,
        page_size: int | None,
        status: str | None,
        daily: bool | None,
        filters: GameFilters | None = None,
    ) -> Op[Page[Game]]:
        params = _list_params(page, page_size, status, filters)
        if daily is not None:
            params["daily"] = "true" if daily else "false"
        data = yield from self.fetch(Call("GET", "games", params=params))
        return _game_page(data)

    def games_by_ids(self, ids: Sequence[str]) -> Op[list[Game]]:
        data = yield from self.fetch(Call("GET", "games", params={"ids": ",".join(ids)}))
        return _game_page(data).results

    def game(self, game_id: str) -> Op[Game]:
        data = yield from self.fetch(Call("GET", f"games/{game_id}"))
        return self._game(data)

    def actions(self, game_id: str) -> Op[list[Action]]:
        data = yield from self.fetch(Call("GET", f"games/{game_id}/actions"))
        return [Action.from_json(a) for a in data]

    def legal_actions(self, game_id: str) -> Op[list[Move]]:
        data = yield from self.fetch(Call("GET", f"games/{game_id}/legal-actions"))
        return [Move.from_json(a) for a in data]

    def text(self, game_id: str, lang: str) -> Op[str]:
        data = yield from self.fetch(Call("GET", f"games/{game_id}/text", params={"lang": lang}))
        return str(data["text"])

    def hint(self, game_id: str) -> Op[Hint]:
        data = yield from self.fetch(Call("GET", f"games/{game_id}/hint"))
        action = data.get("action")
        return Hint(None if action is None else Move.from_json(action), data.get("winnable"))

    def analysis(self, game_id: str, wait: float) -> Op[Analysis]:
        """R37: the game's analysis; while the server computes it (202), asked again after
        its `Retry-After` for up to `wait` seconds of waiting in all, then returned not done."""
        waited = 0.0
        while True:
            response, _ = yield from self.request(Call("GET", f"games/{game_id}/analysis"))
            if response.status_code >= 400:
                raise errors.error_from(response.status_code, _body(response), response.headers)
            found = Analysis.from_json(_body(response))
            if found.done or waited >= wait:
                return found
            try:
                pause = float(response.headers.get("Retry-After", "2"))
            except ValueError:
                pause = 2.0
            pause = min(max(pause, 0.1), wait - waited)
            waited += pause
            yield Sleep(pause)

    def act(self, game: Game | str, move: Move) -> Op[Acted]:
        """Apply `move` with `expect` set to the `moves` last seen, so that a retry after a
        lost answer cannot apply it twice: the retry then answers 409, and the game's log
        tells whether the first attempt was applied (then that is the result) or the game
        moved on otherwise (then `Stale` is raised, carrying the game as it is now)."""
        game_id = game if isinstance(game, str) else game.id
        if isinstance(game, Game):
            expect = game.moves
        elif game_id in self.moves_seen:
            expect = self.moves_seen[game_id]
        else:
            expect = (yield from self.game(game_id)).moves
        call = Call("POST", f"games/{game_id}/actions", {**move.to_json(), "expect": expect})
        response, maybe_applied = yield from self.request(call)
        body = _body(response)
        if response.status_code < 400:
            return Acted(Action.from_json(body["action"]), self._game(body["game"]))
        error = errors.error_from(response.status_code, body, response.headers)
        if not isinstance(error, errors.Stale | errors.GameOver):
            raise error
        now = yield from self.game(game_id)
        if maybe_applied:
            log = yield from self.actions(game_id)
            last = log[-1] if log else None
            if last is not None and last.matches(move) and now.moves == expect + last.moves_counted:
                return Acted(last, now)
        if isinstance(error, errors.Stale):
            error.game = now
        raise error

    # -- daily challenges -----------------------------------------------------------------

    def daily(self, date: dt.date | None) -> Op[Daily]:
        path = "daily" if date is None else f"daily/{date.isoformat()}"
        data = yield from self.fetch(Call("GET", path))
        return Daily.from_json(data)

    def leaderboard(
        self, date: dt.date, draw: int, page: int, page_size: int | None, section: str | None
    ) -> Op[Leaderboard]:
        params = {"draw": str(draw), "page": str(page)}
        if page_size is not None:
            params["page_size"] = str(page_size)
        if section is not None:
            params["section"] = section
        path = f"daily/{date.isoformat()}/leaderboard"
        data = yield from self.fetch(Call("GET", path, params=params))
        return Leaderboard.from_json(data)

    def daily_month(self, month: str) -> Op[DailyMonth]:
        data = yield from self.fetch(Call("GET", "daily", params={"month": month}))
        return DailyMonth.from_json(data)

    def player(self, username: str) -> Op[Player]:
        data = yield from self.fetch(Call("GET", f"players/{username}"))
        return Player.from_json(data)

    def player_stats(self, username: str) -> Op[PlayerStats]:
        data = yield from self.fetch(Call("GET", f"players/{username}/stats"))
        return PlayerStats.from_json(data)

    def player_games(
        self,
        username: str,
        page: int,
        page_size: int | None,
        status: str | None,
        filters: GameFilters | None = None,
    ) -> Op[Page[Game]]:
        params = _list_params(page, page_size, status, filters)
        data = yield from self.fetch(Call("GET", f"players/{username}/games", params=params))
        return _game_page(data)

    # -- the account and its keys -----------------------------------------------------------

    def account(self) -> Op[Account]:
        data = yield from self.fetch(Call("GET", "account"))
        return Account.from_json(data)

    def account_bot(self) -> Op[Account]:
        data = yield from self.fetch(Call("POST", "account/bot"))
        return Account.from_json(data)

    def password_change(self, password: str, new_password: str) -> Op[None]:
        body = {"password": password, "new_password": new_password}
        yield from self.fetch(Call("POST", "account/password", body), idempotent=False)

    def account_delete(self, password: str) -> Op[None]:
        yield from self.fetch(Call("DELETE", "account", {"password": password}))

    def account_export(
        self, status: str | None = None, filters: GameFilters | None = None
    ) -> Op[list[Game]]:
        params = (filters or GameFilters()).params()
        if status is not None:
            params["status"] = status
        call = Call("GET", "account/export", params=params, accept="application/x-ndjson")
        response, _ = yield from self.request(call)
        if response.status_code >= 400:
            raise errors.error_from(response.status_code, _body(response), response.headers)
        return [Game.from_json(json.loads(line)) for line in response.text.splitlines() if line]

    def tokens(self) -> Op[list[ApiToken]]:
        data = yield from self.fetch(Call("GET", "account/tokens"))
        return [ApiToken.from_json(t) for t in data]

    def token_create(self, name: str, scopes: list[Scope], days: int | None) -> Op[ApiToken]:
        body: Json = {"name": name, "scopes": list(scopes)}
        if days is not None:
            body["days"] = days
        # Not retried once sent: a lost answer's key is shown nowhere again.
        data = yield from self.fetch(Call("POST", "account/tokens", body), idempotent=False)
        return ApiToken.from_json(data)

    def token_delete(self, token_id: str) -> Op[None]:
        yield from self.fetch(Call("DELETE", f"account/tokens/{token_id}"))

    # -- matches and ratings (R32, R33) -----------------------------------------------------
    def join_match(self, size: int, draw: int) -> Op[Match]:
        # Safe to retry: the server answers a second join with the match the caller is in.
        body = {"size": size, "draw": draw}
        data = yield from self.fetch(Call("POST", "matches", body), idempotent=True)
        return Match.from_json(data)

    def matches(self, status: str | None, page: int) -> Op[Page[Match]]:
        params = {"page": str(page)}
        if status is not None:
            params["status"] = status
        data = yield from self.fetch(Call("GET", "matches", params=params))
        results = [Match.from_json(m) for m in data["results"]]
        return Page(data["count"], data.get("next"), data.get("previous"), results)

    def match(self, match_id: str) -> Op[Match]:
        data = yield from self.fetch(Call("GET", f"matches/{match_id}"))
        return Match.from_json(data)

    def challenge(self, player: str, draw: int, rated: bool) -> Op[Challenge]:
        # Not retried: a second one would answer 409 challenge_pending.
        body = {"player": player, "draw": draw, "rated": rated}
        data = yield from self.fetch(Call("POST", "challenges", body), idempotent=False)
        return Challenge.from_json(data)

    def challenges(self, page: int) -> Op[Page[Challenge]]:
        data = yield from self.fetch(Call("GET", "challenges", params={"page": str(page)}))
        results = [Challenge.from_json(c) for c in data["results"]]
        return Page(data["count"], data.get("next"), data.get("previous"), results)

    def challenge_get(self, challenge_id: str) -> Op[Challenge]:
        data = yield from self.fetch(Call("GET", f"challenges/{challenge_id}"))
        return Challenge.from_json(data)

    def challenge_accept(self, challenge_id: str, rated: bool | None) -> Op[Match]:
        body = {} if rated is None else {"rated": rated}
        call = Call("POST", f"challenges/{challenge_id}/accept", body)
        data = yield from self.fetch(call, idempotent=False)
        return Match.from_json(data)

    def challenge_decide(self, challenge_id: str, decision: str) -> Op[Challenge]:
        call = Call("POST", f"challenges/{challenge_id}/{decision}")
        data = yield from self.fetch(call, idempotent=False)
        return Challenge.from_json(data)

    def ratings(self, size: int, draw: int, page: int) -> Op[Page[RatingEntry]]:
        params = {"size": str(size), "draw": str(draw), "page": str(page)}
        data = yield from self.fetch(Call("GET", "ratings", params=params))
        results = [RatingEntry.from_json(r) for r in data["results"]]
        return Page(data["count"], data.get("next"), data.get("previous"), results)

    def rating_history(self, username: str, size: int, draw: int) -> Op[list[RatingChange]]:
        params = {"size": str(size), "draw": str(draw)}
        data = yield from self.fetch(Call("GET", f"players/{username}/ratings", params=params))
        return [RatingChange.from_json(change) for change in data["results"]]

    def weekly_ratings(self, size: int, draw: int, page: int) -> Op[WeeklyBoard]:
        params = {"size": str(size), "draw": str(draw), "page": str(page)}
        data = yield from self.fetch(Call("GET", "ratings/weekly", params=params))
        return WeeklyBoard.from_json(data)


def drive_step(op: Op[T], sent: httpx.Response | BaseException | None) -> tuple[bool, Any]:
    """Resume `op` with an answer, a failure or nothing (after a Sleep): (True, result) once it
    returns, else (False, the next Call or Sleep)."""
    try:
        if isinstance(sent, BaseException):
            return False, op.throw(sent)
        return False, op.send(sent)
    except StopIteration as stop:
        return True, stop.value
