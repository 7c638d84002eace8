"""Operations middleware: health probes, request ids, the per-request log line, and the chain
run in one thread under ASGI."""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.functional import SimpleLazyObject, empty
from django.utils.translation import gettext as _

from core import health, metrics
from core.clients import client_address
from core.slots import Busy

request_logger = logging.getLogger("canfield.request")
# A request id from the proxy (nginx's $request_id) or a client is kept if it looks like one.
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
ACTIONS_PATH = re.compile(r"^/api/v1/games/[^/]+/actions$")
STATIC_PREFIX = "/" + settings.STATIC_URL.lstrip("/")

Handler = Callable[[HttpRequest], HttpResponse]


class HealthCheckMiddleware:
    """Answers /healthz and /readyz before anything else runs.

    Probes come from load balancers and container engines with whatever Host header they like
    and over plain HTTP: answering here skips host validation, the HTTPS redirect, sessions and
    the request log (a probe every few seconds would drown it).
    """

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == "/healthz":
            return JsonResponse({"status": "ok"})
        if request.path == "/readyz":
            checks = health.readiness()
            ready = all(result == "ok" for result in checks.values())
            return JsonResponse(
                {"status": "ready" if ready else "unavailable", "checks": checks},
                status=200 if ready else 503,
            )
        return self.get_response(request)


class RequestLogMiddleware:
    """Gives every request an id and logs one structured line for it, and one more for a
    rejected game action (its error code and rule).

    Also turns a database outage met outside DRF's views into the API's 503 shape.
    """

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        incoming = request.headers.get("X-Request-ID", "")
        request_id = incoming if REQUEST_ID.match(incoming) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        fields = {
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            "user": username(request),
            "client": client_address(request),
            "request_id": request_id,
        }
        request_logger.info("request", extra={"fields": fields})
        metrics.http_observed(
            route=route(request),
            method=str(request.method),
            status=response.status_code,
            seconds=time.perf_counter() - started,
        )
        error = rejected_action_error(request, response)
        if is_action(request) and response.status_code == 200:
            metrics.ACTIONS_APPLIED.inc()
        if error is not None:
            metrics.ACTIONS_REJECTED.labels(str(error.get("code"))).inc()
            request_logger.info(
                "action_rejected",
                extra={
                    "fields": {
                        "path": request.path,
                        "status": response.status_code,
                        "code": error.get("code"),
                        "rule": error.get("rule"),
                        "user": fields["user"],
                        "request_id": request_id,
                    }
                },
            )
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError | InterfaceError):
            return unavailable(request, exception)
        if isinstance(exception, Busy):
            return busy(exception)
        return None


def busy(exception: Busy) -> JsonResponse:
    """The API's 503 for a request that waited too long for a slot (core/slots.py)."""
    message = _("The server is busy: retry in %(seconds)s s.") % {"seconds": exception.retry_after}
    response = JsonResponse({"error": {"code": "unavailable", "message": message}}, status=503)
    response["Retry-After"] = str(exception.retry_after)
    return response


def unavailable(request: HttpRequest, exception: BaseException) -> JsonResponse:
    """The API's 503 for a database outage."""
    metrics.database_error(exception)
    request_logger.warning(
        "database_unavailable",
        extra={"fields": {"path": request.path, "error": str(exception).strip()}},
    )
    response = JsonResponse(
        {
            "error": {
                "code": "unavailable",
                "message": "the service is temporarily unavailable, retry later",
            }
        },
        status=503,
    )
    response["Retry-After"] = "5"
    return response


def server_error(request: HttpRequest) -> JsonResponse:
    """handler500: whatever escaped views and middleware (a session saved while the database is
    down, say) still answers in the API's error shape, never Django's page or a traceback."""
    exception = sys.exc_info()[1]
    if isinstance(exception, OperationalError | InterfaceError):
        return unavailable(request, exception)
    return JsonResponse(
        {"error": {"code": "server_error", "message": "internal error; it has been logged"}},
        status=500,
    )


def username(request: HttpRequest) -> str | None:
    """The caller's name if authentication already ran; never queries the database here (the
    database may be the very thing that is down)."""
    user: Any = getattr(request, "user", None)
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return None
    if not user.is_authenticated:
        return None
    return str(user.get_username())


def route(request: HttpRequest) -> str:
    """The request's URL pattern (`api/v1/games/<str:game_id>/actions`), the metrics' label:
    bounded, where the raw path holds ids; "(static)" for a static file (WhiteNoise answers
    before any pattern), "(unrouted)" when no pattern matched."""
    match = getattr(request, "resolver_match", None)
    if match is not None and match.route:
        return str(match.route)
    if request.path.startswith(STATIC_PREFIX):
        return "(static)"
    return "(unrouted)"


def is_action(request: HttpRequest) -> bool:
    return request.method == "POST" and ACTIONS_PATH.match(request.path) is not None


def rejected_action_error(request: HttpRequest, response: HttpResponse) -> dict[str, Any] | None:
    if response.status_code < 400 or not is_action(request):
        return None
    data = getattr(response, "data", None)
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        error: dict[str, Any] = data["error"]  # the error body core/errors.py wrote
        return error
    return None


class SyncChainMiddleware:
    """Last in MIDDLEWARE, and sync only: under ASGI (the ws processes' streams, the test
    suite's servers) the middleware above it then run in the request's one thread, as under
    WSGI. Django adapts the chain from the inside out, and each middleware that can run both
    ways follows the one inside it; with the view's async dispatch innermost, each of them ran
    async, and a MiddlewareMixin running async calls its process_request and process_response
    each through sync_to_async: ~32 thread hops a request, 7.1 ms of CPU for a ping against
    4.4 ms with this (in-process, 500 pings; 0.8-1.0 ms under WSGI). Under WSGI it is one
    call more."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)
