"""The API's errors as exceptions: one class per stable `code` of the error shape
`{"error": {"code", "message", "rule"?, "params"?}}`, all under `CanfieldError`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from canfield_client.models import RateLimit

if TYPE_CHECKING:
    from canfield_client.models import Game


class CanfieldError(Exception):
    """An error answer of the API. `message` is in the client's language (`Accept-Language`);
    `code` and `rule` never change with it, and `params` (illegal moves) lets a client word the
    message itself."""

    code = "error"

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        rule: str | None = None,
        params: dict[str, Any] | None = None,
        rate_limit: RateLimit | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.rule = rule
        self.params = params or {}
        self.rate_limit = rate_limit
        self.retry_after = retry_after

    def __str__(self) -> str:
        rule = f" ({self.rule})" if self.rule and f"({self.rule})" not in self.message else ""
        return f"{self.code}: {self.message}{rule}"


class InvalidRequest(CanfieldError):
    code = "invalid_request"


class UnknownParameter(CanfieldError):
    """A query parameter the operation does not take: `params["parameters"]` names them."""

    code = "unknown_parameter"


class InvalidCode(CanfieldError):
    code = "invalid_code"


class InvalidDeck(CanfieldError):
    code = "invalid_deck"


class IllegalMove(CanfieldError):
    code = "illegal_move"


class NoDestination(CanfieldError):
    code = "no_destination"


class NotAcceptable(CanfieldError):
    code = "not_acceptable"


class Stale(CanfieldError):
    """The game moved on since the `moves` the action expected; nothing changed. `game` is the
    game as it is now (the client re-read it)."""

    code = "stale"
    game: Game | None = None


class GameOver(CanfieldError):
    code = "game_over"


class CannotFinish(CanfieldError):
    """A `finish` while a card is still hidden or the cards left cannot all go home one after
    another (R20b); nothing changed."""

    code = "cannot_finish"


class GameTooLong(CanfieldError):
    """The game's log holds the most actions a game keeps (3,000): only a resign is taken."""

    code = "game_too_long"


class DealHidden(CanfieldError):
    """An analysis (R37) of a game whose deal may not be shown yet (R19): in progress, a daily
    game before its day is over, a match game before its match is finished."""

    code = "deal_hidden"


class ChallengePending(CanfieldError):
    """A challenge between the same two players is pending already: `params["challenge"]`
    is its id."""

    code = "challenge_pending"


class ChallengeClosed(CanfieldError):
    """The challenge is no longer pending: `params["status"]` says what became of it
    (accepted, declined, cancelled, expired)."""

    code = "challenge_closed"


class NotAuthenticated(CanfieldError):
    code = "not_authenticated"


class Forbidden(CanfieldError):
    code = "forbidden"


class NotInStanding(Forbidden):
    """Ranked play asked for by an account not yet in good standing (R36): `params` holds
    `ranked`, `until` (when the account is old enough, or None) and `games_needed`."""

    code = "standing"


class NotFound(CanfieldError):
    code = "not_found"


class MethodNotAllowed(CanfieldError):
    code = "method_not_allowed"


class UnsupportedMediaType(CanfieldError):
    code = "unsupported_media_type"


class Throttled(CanfieldError):
    """Too many requests: `retry_after` says how many seconds to wait."""

    code = "throttled"


class TooManyStreams(CanfieldError):
    """The client address or the account already holds all the game streams it may hold open
    (429): close one first."""

    code = "too_many_streams"


class Unavailable(CanfieldError):
    """The service is down for a moment (503): retry after `retry_after` seconds."""

    code = "unavailable"


class BoardClosed(CanfieldError):
    """The live board refused the connection: 4400 (bad date or draw) or 4404 (no challenge
    that day); `status` is the close code."""

    code = "board_closed"


ERRORS: dict[str, type[CanfieldError]] = {
    cls.code: cls
    for cls in (
        InvalidRequest,
        UnknownParameter,
        InvalidCode,
        InvalidDeck,
        IllegalMove,
        NoDestination,
        Stale,
        GameOver,
        CannotFinish,
        GameTooLong,
        DealHidden,
        ChallengePending,
        ChallengeClosed,
        NotAuthenticated,
        Forbidden,
        NotInStanding,
        NotFound,
        MethodNotAllowed,
        NotAcceptable,
        UnsupportedMediaType,
        Throttled,
        TooManyStreams,
        Unavailable,
    )
}


def error_from(status: int, body: Any, headers: Any) -> CanfieldError:
    """The exception for an error answer; a body outside the error shape (a proxy's page)
    still gives an error, chosen by the status."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        error = {"code": _code_by_status(status), "message": f"HTTP {status}"}
    code = str(error.get("code", _code_by_status(status)))
    retry_after: float | None
    try:
        retry_after = float(headers["Retry-After"])
    except (KeyError, ValueError):
        retry_after = None
    return ERRORS.get(code, CanfieldError)(
        str(error.get("message", code)),
        status=status,
        rule=error.get("rule"),
        params=error.get("params"),
        rate_limit=RateLimit.from_headers(headers),
        retry_after=retry_after,
    )


def _code_by_status(status: int) -> str:
    by_status = {
        401: "not_authenticated",
        403: "forbidden",
        404: "not_found",
        405: "method_not_allowed",
        406: "not_acceptable",
        409: "stale",
        415: "unsupported_media_type",
        429: "throttled",
        502: "unavailable",
        503: "unavailable",
        504: "unavailable",
    }
    return by_status.get(status, "invalid_request" if status < 500 else "unavailable")
