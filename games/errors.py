"""The API's one error shape, `{"error": {"code", "message", "rule"?}}`, for every failure."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from games.engine import EngineError

ENGINE_STATUS = {
    "invalid_request": 400,
    "invalid_code": 400,
    "invalid_deck": 400,
    "illegal_move": 422,
    "no_destination": 422,
    "game_over": 409,
}


class ApiError(Exception):
    """A failure the service layer reports in the API's terms."""

    status_code = 400
    code = "invalid_request"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class InvalidRequest(ApiError):
    pass


class NotFound(ApiError):
    status_code = 404
    code = "not_found"


class Forbidden(ApiError):
    status_code = 403
    code = "forbidden"


class Stale(ApiError):
    status_code = 409
    code = "stale"


class GameFinished(ApiError):
    status_code = 409
    code = "game_over"


def error_body(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if rule:
        error["rule"] = rule
    return {"error": error}


def _drf_message(detail: Any) -> str:
    """A one-line message from DRF's nested error details."""
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_drf_message(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return "; ".join(_drf_message(item) for item in detail)
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, EngineError):
        return Response(
            error_body(exc.code, exc.message, exc.rule), ENGINE_STATUS.get(exc.code, 400)
        )
    if isinstance(exc, ApiError):
        return Response(error_body(exc.code, exc.message, exc.rule), exc.status_code)
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is down or unreachable: say so plainly instead of a 500.
        return Response(
            error_body("unavailable", "the service is temporarily unavailable, retry later"),
            status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, Http404 | exceptions.NotFound):
        return Response(error_body("not_found", "not found"), status.HTTP_404_NOT_FOUND)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response = Response(error_body("not_authenticated", str(exc.detail)), 401)
        authenticator = context["request"].authenticators
        if authenticator:
            response["WWW-Authenticate"] = authenticator[0].authenticate_header(context["request"])
        return response
    if isinstance(exc, exceptions.PermissionDenied | DjangoPermissionDenied):
        detail = getattr(exc, "detail", "forbidden")
        return Response(error_body("forbidden", str(detail)), status.HTTP_403_FORBIDDEN)
    if isinstance(exc, exceptions.Throttled):
        headers = {"Retry-After": str(int(exc.wait))} if exc.wait is not None else {}
        return Response(error_body("throttled", str(exc.detail)), 429, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("invalid_request", "the request body is too large"), 400)
    if isinstance(exc, exceptions.APIException):
        # Parse errors, validation errors, unsupported media type, method not allowed...
        return Response(error_body("invalid_request", _drf_message(exc.detail)), exc.status_code)
    return None
