"""The request log: one structured line per request, one per rejected action, with ids."""

import json
import logging

from django.db import OperationalError
from django.test import RequestFactory

from canfield_site.middleware import RequestLogMiddleware
from core.cache import ResilientRedisCache
from core.logs import JsonFormatter
from scripts.ports import free_port
from tests.games.helpers import easy_deck


def lines(caplog, event: str) -> list[dict]:
    return [
        record.fields
        for record in caplog.records
        if record.name == "canfield.request" and record.getMessage() == event
    ]


def test_each_request_logs_one_line_with_its_id_and_user(auth_client, caplog):
    caplog.set_level(logging.INFO, logger="canfield.request")

    response = auth_client.get("/api/v1/games", HTTP_X_REQUEST_ID="probe-42")

    [line] = lines(caplog, "request")
    print(line)
    assert response["X-Request-ID"] == "probe-42"
    assert line["method"] == "GET"
    assert line["path"] == "/api/v1/games"
    assert line["status"] == 200
    assert line["user"] == "alice"
    assert line["request_id"] == "probe-42"
    assert line["duration_ms"] >= 0


def test_a_request_without_a_usable_id_gets_a_fresh_one(api_client, db, caplog):
    caplog.set_level(logging.INFO, logger="canfield.request")

    response = api_client.get("/api/v1/games", HTTP_X_REQUEST_ID="bad id\nwith newline")

    [line] = lines(caplog, "request")
    assert response.status_code == 401
    assert line["user"] is None
    assert line["request_id"] == response["X-Request-ID"]
    assert len(line["request_id"]) == 32


def test_a_rejected_action_logs_its_code_and_rule(auth_client, caplog):
    game = auth_client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json")
    caplog.set_level(logging.INFO, logger="canfield.request")
    caplog.clear()

    response = auth_client.post(
        f"/api/v1/games/{game.json()['id']}/actions", {"type": "recycle"}, format="json"
    )

    [line] = lines(caplog, "action_rejected")
    print(line)
    assert response.status_code == 422
    assert line["code"] == response.json()["error"]["code"] == "illegal_move"
    assert line["rule"] == response.json()["error"]["rule"] == "R18"
    assert line["user"] == "alice"
    assert line["request_id"] == response["X-Request-ID"]


def test_an_accepted_action_logs_no_rejection(auth_client, caplog):
    game = auth_client.post("/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json")
    caplog.set_level(logging.INFO, logger="canfield.request")
    caplog.clear()

    response = auth_client.post(
        f"/api/v1/games/{game.json()['id']}/actions", {"type": "draw"}, format="json"
    )

    assert response.status_code == 200
    assert lines(caplog, "action_rejected") == []
    assert len(lines(caplog, "request")) == 1


def test_a_database_outage_outside_the_api_views_is_a_503_in_the_api_shape():
    middleware = RequestLogMiddleware(lambda request: None)
    request = RequestFactory().get("/some/page")

    response = middleware.process_exception(request, OperationalError("connection refused"))

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert json.loads(response.content)["error"]["code"] == "unavailable"
    assert b"Traceback" not in response.content


def test_log_lines_are_json_objects_with_the_record_fields():
    record = logging.LogRecord("canfield.request", logging.INFO, __file__, 1, "request", (), None)
    record.fields = {"status": 200, "path": "/x"}

    line = json.loads(JsonFormatter().format(record))

    assert line["event"] == "request"
    assert line["level"] == "info"
    assert line["status"] == 200 and line["path"] == "/x"


def test_the_cache_degrades_while_redis_is_unreachable(caplog):
    # given: a cache pointed at a port where no Redis listens
    port = free_port()
    cache = ResilientRedisCache(
        f"redis://127.0.0.1:{port}/0", {"OPTIONS": {"socket_connect_timeout": 1}}
    )
    caplog.set_level(logging.WARNING, logger="canfield.cache")

    # when / then: reads miss, writes are dropped, nothing raises
    assert cache.get("throttle", "missing") == "missing"
    cache.set("throttle", [1, 2])
    assert cache.add("throttle", 1) is False
    assert cache.get_many(["a", "b"]) == {}
    assert any(record.getMessage() == "redis_unavailable" for record in caplog.records)


class _SessionSaveFails:
    """Stands in for SessionMiddleware saving the session while the database is down: the
    error is raised by middleware, after the view, where no view-level handler sees it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        self.get_response(request)
        raise OperationalError("connection to server at 127.0.0.1 failed")


def test_database_error_raised_by_middleware_is_the_apis_503_not_a_page(client, settings):
    # given: a middleware that fails on the way out, and Django re-raising nothing to the client
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.ops.test_logs._SessionSaveFails"]
    client.raise_request_exception = False

    # when
    response = client.get("/api/v1/ping")

    # then
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert b"Traceback" not in response.content


def test_any_other_escaped_error_is_a_json_500_without_traceback(client, settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.ops.test_logs._Crashes"]
    client.raise_request_exception = False

    response = client.get("/api/v1/ping")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "server_error"
    assert b"Traceback" not in response.content


class _Crashes:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raise RuntimeError("a bug")
