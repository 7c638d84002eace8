"""The API's one error shape, `{"error": {"code", "message", "rule"?, "params"?}}`, for every
failure, with the message in the caller's language (Accept-Language: en, hu, pl).

The engine reports a stable `reason` and its `params` (cards and piles as the API spells them);
the message is worded here, with cards named as the table names them (core/words.py: "the 10
of hearts", "kőr 10", "10 kier").
docs/api.md lists every reason and its params for clients that word messages themselves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.csrf import csrf_exempt
from django_stubs_ext import StrOrPromise
from rest_framework import exceptions, status
from rest_framework.response import Response

from core import metrics
from core.words import card_name, choose_articles, pile_name
from games.engine import EngineError

# Every error code and its HTTP status: the contract's list (docs/api.md), and the schema's enum.
CODES = {
    "invalid_request": 400,
    "invalid_code": 400,
    "invalid_deck": 400,
    "unknown_parameter": 400,
    "not_authenticated": 401,
    "forbidden": 403,
    "standing": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "not_acceptable": 406,
    "stale": 409,
    "game_over": 409,
    "cannot_finish": 409,
    "game_too_long": 409,
    "deal_hidden": 409,
    "challenge_pending": 409,
    "challenge_closed": 409,
    "unsupported_media_type": 415,
    "illegal_move": 422,
    "no_destination": 422,
    "throttled": 429,
    "too_many_streams": 429,
    "unavailable": 503,
}


class ApiError(Exception):
    """A failure the service layer reports in the API's terms (`message` already translated)."""

    status_code = 400
    code = "invalid_request"

    def __init__(
        self, message: str, rule: str | None = None, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.params = params


class InvalidRequest(ApiError):
    pass


class UnknownParameter(ApiError):
    """A query parameter the operation does not take; `params.parameters` names them."""

    code = "unknown_parameter"


class NotFound(ApiError):
    status_code = 404
    code = "not_found"


class Forbidden(ApiError):
    status_code = 403
    code = "forbidden"


class NotInStanding(ApiError):
    """R36: ranked play asked for by an account not in good standing yet; `params` are its
    standing (`ranked`, `until`, `games_needed`), as `GET account` shows it."""

    status_code = 403
    code = "standing"


class Stale(ApiError):
    status_code = 409
    code = "stale"


class GameFinished(ApiError):
    status_code = 409
    code = "game_over"


class GameTooLong(ApiError):
    """The game's log holds GAME_MAX_ACTIONS actions: only `resign` is taken any more."""

    status_code = 409
    code = "game_too_long"


class TooManyStreams(ApiError):
    """The client address or the account already holds all the game streams it may hold open
    (core/sockets.py), as a WebSocket's 4429."""

    status_code = 429
    code = "too_many_streams"


class DealHidden(ApiError):
    """R37: an analysis asked for before the game's deal may be shown (R19): the game is in
    progress, or a daily game whose day is not over, or a match game before its match is."""

    status_code = 409
    code = "deal_hidden"


class ChallengePending(ApiError):
    """A challenge between the same two players is pending already (`params.challenge`)."""

    status_code = 409
    code = "challenge_pending"


class ChallengeClosed(ApiError):
    """The challenge is no longer pending: accepted, declined, cancelled or expired
    (`params.status`)."""

    status_code = 409
    code = "challenge_closed"


# ---- the engine's reasons in words -------------------------------------------------------------

# reason -> message; %(card)s, %(onto)s, %(next)s are cards, %(pile)s and %(foundation)s piles.
# `column_too_short` is worded with ngettext below (its count decides the plural form).
REASONS: dict[str, StrOrPromise] = {
    "same_colour": gettext_lazy(
        "The %(card)s cannot go on the %(onto)s: they are the same colour."
    ),
    "not_one_lower": gettext_lazy(
        "The %(card)s cannot go on the %(onto)s: only a card one rank lower goes there."
    ),
    "not_a_sequence": gettext_lazy(
        "The %(card)s does not follow the %(onto)s: only a run in order moves together."
    ),
    "wrong_suit": gettext_lazy(
        "The %(card)s cannot go on the %(foundation)s: each foundation holds one suit."
    ),
    "foundation_complete": gettext_lazy("The %(foundation)s is complete."),
    "foundation_start": gettext_lazy(
        "The %(card)s cannot start the %(foundation)s: it starts with the %(next)s."
    ),
    "foundation_next": gettext_lazy(
        "The %(card)s cannot go on the %(onto)s: the next card there is the %(next)s."
    ),
    "pile_empty": gettext_lazy("The %(pile)s is empty."),
    "top_card_only": gettext_lazy("Only the top card of the %(pile)s can move."),
    "stock_draws_only": gettext_lazy("Cards leave the stock only by drawing."),
    "same_pile": gettext_lazy("A card cannot move onto its own pile."),
    "takes_nothing": gettext_lazy("Nothing can be put on the %(pile)s."),
    "foundation_keeps_cards": gettext_lazy("In the classic rules cards never leave a foundation."),
    "foundation_to_column_only": gettext_lazy(
        "A foundation's top card can only go back to a column."
    ),
    "one_card_to_foundation": gettext_lazy("Only one card at a time goes to a foundation."),
    "whole_column_only": gettext_lazy("In the classic rules only a whole column moves."),
    "filled_from_reserve": gettext_lazy("An empty column is filled from the reserve."),
    "empty_column_waste_only": gettext_lazy(
        "In the classic rules an empty column takes only the top card of the waste."
    ),
    "stock_tap": gettext_lazy("Tap the waste, the reserve or a card in a column, not the stock."),
    "stock_empty": gettext_lazy("The stock is empty: turn the waste over to draw again."),
    "stock_not_empty": gettext_lazy("The waste can be turned over only when the stock is empty."),
    "nothing_to_recycle": gettext_lazy("The waste is empty: there is nothing to turn over."),
    "nothing_to_undo": gettext_lazy("There is nothing to undo."),
    "foundation_tap": gettext_lazy("A card on a foundation cannot be tapped."),
    "no_destination": gettext_lazy("The %(card)s has nowhere to go."),
    "game_over": gettext_lazy("This game is over."),
    "finish_hidden": gettext_lazy(
        "Cards are still hidden: finish once the stock is empty and every card is face up."
    ),
    "finish_blocked": gettext_lazy("Not every card left can go home one after another."),
    "invalid_value": gettext_lazy("Invalid value for %(field)s; allowed: %(allowed)s."),
    "unknown_fields": gettext_lazy("Unknown field(s): %(fields)s."),
    "not_an_object": gettext_lazy("The body must be a JSON object."),
    "invalid_code": gettext_lazy("That is not a valid deal code (like CF1-D3-AAAAACL)."),
    "code_characters": gettext_lazy(
        "A deal code uses only the letters A-Z and the digits 2-7, not %(characters)s."
    ),
    "code_length": gettext_lazy(
        "A %(format)s code has %(length)s characters after its draw mode, not %(got)s."
    ),
    "code_range": gettext_lazy(
        "A CF2 code starts with a letter A-H after its draw mode (its number is below 2^128)."
    ),
    "invalid_deck": gettext_lazy("The deck must list the 52 cards, each once."),
    "deck_size": gettext_lazy("The deck must list the 52 cards, each once."),
    "deck_card": gettext_lazy("Entry %(index)s of the deck is not a card."),
    "deck_repeats": gettext_lazy("The deck repeats: %(cards)s."),
}
CARD_PARAMS = ("card", "onto", "next")
PILE_PARAMS = ("pile", "foundation")


def reason_message(reason: str, params: Mapping[str, str | int]) -> str | None:
    """The message for an engine `reason` in the active language; None for a reason without
    one (the engine's own message is used)."""
    words: dict[str, str | int] = dict(params)
    try:
        for key in CARD_PARAMS:
            if key in words:
                words[key] = card_name(str(words[key]))
        for key in PILE_PARAMS:
            if key in words:
                words[key] = pile_name(str(words[key]))
        if reason == "column_too_short":
            holds = int(params["holds"])
            template = ngettext(
                "%(pile)s holds only %(holds)s card.", "%(pile)s holds only %(holds)s cards.", holds
            )
        elif reason in REASONS:
            template = str(REASONS[reason])
        else:
            return None
        return capfirst(choose_articles(template % words))
    except (KeyError, ValueError, IndexError):  # params the reason does not expect
        return None


# ---- the error shape ---------------------------------------------------------------------------


class ErrorObject(TypedDict):
    """The `error` of the error shape."""

    code: str
    message: str
    rule: NotRequired[str]
    params: NotRequired[dict[str, object]]


class ErrorBody(TypedDict):
    """The one error shape: `{"error": {...}}`."""

    error: ErrorObject


def error_body(
    code: str,
    message: str,
    rule: str | None = None,
    params: Mapping[str, object] | None = None,
) -> ErrorBody:
    error: ErrorObject = {"code": code, "message": choose_articles(str(message))}
    if rule:
        error["rule"] = rule
    if params is not None:
        error["params"] = dict(params)
    return {"error": error}


def _drf_message(detail: object) -> str:
    """A one-line message from DRF's nested error details."""
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_drf_message(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return "; ".join(_drf_message(item) for item in detail)
    return str(detail)


def engine_error_body(exc: EngineError) -> ErrorBody:
    message = reason_message(exc.reason, exc.params) or exc.message
    params = exc.params if exc.code in ("illegal_move", "no_destination") else None
    if params is not None:
        params = {"reason": exc.reason, **params}
    return error_body(exc.code, message, exc.rule, params)


# DRF's handler context (`get_exception_handler_context`) is untyped: Any is that edge.
def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, EngineError):
        return Response(engine_error_body(exc), CODES.get(exc.code, 400))
    if isinstance(exc, ApiError):
        return Response(error_body(exc.code, exc.message, exc.rule, exc.params), exc.status_code)
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is down or unreachable: say so plainly instead of a 500.
        metrics.database_error(exc)
        return Response(
            error_body("unavailable", _("The service is temporarily unavailable: retry later.")),
            status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, DataError):
        # A value the database cannot hold (PostgreSQL refuses NUL characters in text), in a
        # path or a field no validator reads: the request is at fault, not the server.
        return Response(
            error_body("invalid_request", _("The request holds a value that cannot be stored.")),
            status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404 | exceptions.NotFound):
        return Response(error_body("not_found", _("Not found.")), status.HTTP_404_NOT_FOUND)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response = Response(error_body("not_authenticated", str(exc.detail)), 401)
        authenticator = context["request"].authenticators
        if authenticator:
            response["WWW-Authenticate"] = authenticator[0].authenticate_header(context["request"])
        return response
    if isinstance(exc, exceptions.PermissionDenied | DjangoPermissionDenied):
        detail = getattr(exc, "detail", _("You may not do this."))
        return Response(error_body("forbidden", str(detail)), status.HTTP_403_FORBIDDEN)
    if isinstance(exc, exceptions.Throttled):
        return _throttled(exc)
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("invalid_request", _("The request body is too large.")), 400)
    if isinstance(exc, exceptions.MethodNotAllowed):
        return Response(error_body("method_not_allowed", str(exc.detail)), 405)
    if isinstance(exc, exceptions.NotAcceptable):
        return Response(error_body("not_acceptable", str(exc.detail)), 406)
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return Response(error_body("unsupported_media_type", str(exc.detail)), 415)
    if isinstance(exc, exceptions.APIException):
        # Parse errors, validation errors...
        return Response(error_body("invalid_request", _drf_message(exc.detail)), exc.status_code)
    return None


class Throttled(exceptions.Throttled):
    """DRF's Throttled with our own reason, worded whole in the caller's language (DRF's
    appends its English "Expected available in N seconds." to any reason)."""

    def __init__(self, wait: float | None, reason: str) -> None:
        super().__init__(wait)
        self.reason = reason


def _throttled(exc: exceptions.Throttled) -> Response:
    reason = getattr(exc, "reason", None) or _("Too many requests.")
    # Throttled.__init__ sets `wait` (rounded up), which djangorestframework-stubs omit.
    wait: float | None = getattr(exc, "wait", None)
    if wait is None:
        return Response(error_body("throttled", reason), 429)
    seconds = max(1, math.ceil(wait))
    return Response(
        error_body("throttled", f"{reason} {retry_in_words(seconds)}"),
        429,
        headers={"Retry-After": str(seconds)},
    )


def retry_in_words(seconds: int) -> str:
    """When to try again, as a person says it: seconds under two minutes, then minutes under
    two hours, then hours (each rounded up; `Retry-After` has the exact seconds)."""
    if seconds < 120:
        return ngettext(
            "Try again in %(count)s second.", "Try again in %(count)s seconds.", seconds
        ) % {"count": seconds}
    if seconds < 7200:
        minutes = math.ceil(seconds / 60)
        return ngettext(
            "Try again in %(count)s minute.", "Try again in %(count)s minutes.", minutes
        ) % {"count": minutes}
    hours = math.ceil(seconds / 3600)
    return ngettext("Try again in %(count)s hour.", "Try again in %(count)s hours.", hours) % {
        "count": hours
    }


# DRF's messages the API can answer whose Hungarian (DRF's catalogue) speaks formally
# ("Nincs jogosultsága", "Használja"): named here so that the project's catalogue (locale/,
# searched before DRF's) words them as the rest of the API does, with the informal "te".
DRF_REWORDED = (
    gettext_lazy("You do not have permission to perform this action."),
    gettext_lazy("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_lazy("Ensure this value is greater than or equal to {min_value}."),
    gettext_lazy("Ensure this value is less than or equal to {max_value}."),
    gettext_lazy("Ensure this field has no more than {max_length} characters."),
    gettext_lazy("Ensure this field has at least {min_length} characters."),
)


@csrf_exempt
def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Any /api/ path that names nothing (a trailing slash too): the JSON 404."""
    return JsonResponse(error_body("not_found", _("There is no such API path.")), status=404)
