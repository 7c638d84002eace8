"""The app's Prometheus metrics (core/metrics.py), in this process: HTTP requests by
route pattern and status with their latency, actions applied and refused by code, hints by
source with the solver's time, Redis errors, and what `manage.py serve_metrics` reads at
scrape time (queues, database and Redis up). The production topology's multi-process metrics
and the internal port: tests/ops/test_metrics_topology.py."""

from __future__ import annotations

from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import CollectorRegistry

from core import cache as cache_module
from core import metrics
from core.cache import ResilientRedisCache
from tests.games.helpers import easy_deck
from tests.games.test_api_games import act, create

ACTIONS_ROUTE = "api/v1/games/<str:game_id>/actions"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_requests_actions_and_hints_are_counted_by_route_code_and_source(auth_client):
    # given: the counts before (the registry is the process's, other tests counted too)
    before = {
        "created": value("canfield_http_requests_total", route="api/v1/games",
                         method="POST", status="201"),
        "applied": value("canfield_actions_applied_total"),
        "illegal": value("canfield_actions_rejected_total", code="illegal_move"),
        "stale": value("canfield_actions_rejected_total", code="stale"),
        "acts": value("canfield_http_request_duration_seconds_count", route=ACTIONS_ROUTE,
                      method="POST"),
        "refused": value("canfield_http_requests_total", route=ACTIONS_ROUTE, method="POST",
                         status="422"),
        "solver": value("canfield_hints_total", source="solver"),
        "cache": value("canfield_hints_total", source="cache"),
        "searches": value("canfield_solver_seconds_count"),
        "unrouted": value("canfield_http_requests_total", route="(unrouted)", method="GET",
                          status="404"),
    }  # fmt: skip

    # when: a game, two actions applied, one illegal, one stale, two hints at one position,
    # and a path that routes nowhere
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    assert act(auth_client, game["id"], {"type": "draw"}).status_code == 200
    assert act(auth_client, game["id"], {"type": "draw"}).status_code == 200
    illegal = {"type": "move", "from": "tableau:1", "to": "tableau:2"}
    assert act(auth_client, game["id"], illegal).status_code == 422
    stale = auth_client.post(
        f"/api/v1/games/{game['id']}/actions", {"type": "draw", "expect": 0}, format="json"
    )
    assert stale.status_code == 409
    for _ in range(2):
        assert auth_client.get(f"/api/v1/games/{game['id']}/hint").status_code == 200
    assert auth_client.get("/no/such/page").status_code == 404
    assert auth_client.generic("BREW", "/api/v1/ping").status_code == 405
    static = value("canfield_http_requests_total", route="(static)", method="GET", status="404")
    assert auth_client.get("/static/no-such-file.js").status_code == 404
    static_after = value("canfield_http_requests_total", route="(static)", method="GET",
                         status="404")  # fmt: skip
    assert static_after - static == 1

    # then: each counted once, under the route's pattern (never the game's id)
    created = value("canfield_http_requests_total", route="api/v1/games", method="POST",
                    status="201")  # fmt: skip
    assert created - before["created"] == 1
    assert value("canfield_actions_applied_total") - before["applied"] == 2
    assert value("canfield_actions_rejected_total", code="illegal_move") - before["illegal"] == 1
    assert value("canfield_actions_rejected_total", code="stale") - before["stale"] == 1
    acts = value("canfield_http_request_duration_seconds_count", route=ACTIONS_ROUTE,
                 method="POST")  # fmt: skip
    assert acts - before["acts"] == 4
    refused = value("canfield_http_requests_total", route=ACTIONS_ROUTE, method="POST",
                    status="422")  # fmt: skip
    assert refused - before["refused"] == 1
    assert value("canfield_hints_total", source="solver") - before["solver"] == 1
    assert value("canfield_hints_total", source="cache") - before["cache"] == 1
    assert value("canfield_solver_seconds_count") - before["searches"] == 1
    unrouted = value("canfield_http_requests_total", route="(unrouted)", method="GET",
                     status="404")  # fmt: skip
    assert unrouted - before["unrouted"] == 1
    # a method a client makes up is "other" (labels stay bounded)
    assert value("canfield_http_requests_total", route="api/v1/ping", method="other",
                 status="405") >= 1  # fmt: skip
    assert value("canfield_http_requests_total", route="api/v1/ping", method="BREW",
                 status="405") == 0  # fmt: skip
    families = {family.name for family in REGISTRY.collect()}
    assert not any(game["id"] in sample.labels.get("route", "")
                   for family in REGISTRY.collect() for sample in family.samples)  # fmt: skip
    assert {"canfield_http_requests", "canfield_http_request_duration_seconds"} <= families


def test_a_redis_that_does_not_answer_is_counted_by_operation():
    # given: the cache on a port where nothing listens
    cache = ResilientRedisCache(
        "redis://127.0.0.1:9/0", {"OPTIONS": {"socket_connect_timeout": 0.5}}
    )
    before = value("canfield_redis_errors_total", operation="cache.get")
    warned_last = cache_module._warn.last

    # when: a read (it misses: throttling is off while Redis is down)
    try:
        assert cache.get("throttle:x") is None
    finally:
        # The process's warning once per interval stays for the tests that look for it.
        cache_module._warn.last = warned_last

    # then
    assert value("canfield_redis_errors_total", operation="cache.get") - before == 1


def test_the_scrape_reads_the_queues_and_whether_the_database_and_redis_answer(db):
    # given: a queue registered as the matches' matchmaking would register its own
    metrics.register_queue("matchmaking", lambda: 7)
    try:
        # when: a scrape of what `manage.py serve_metrics` serves (this process's metrics)
        registry: CollectorRegistry = metrics.scrape_registry(None)
        from prometheus_client import generate_latest

        text = generate_latest(registry).decode()
    finally:
        del metrics.QUEUES["matchmaking"]

    # then: the queues (the fair-play review's registered by its app), and both up
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    assert samples[("canfield_queue_length", (("queue", "matchmaking"),))] == 7
    assert samples[("canfield_queue_length", (("queue", "review"),))] == 0
    assert ("canfield_queue_length", (("queue", "review_held"),)) in samples
    assert samples[("canfield_database_up", ())] == 1
    assert samples[("canfield_redis_up", ())] == 1
    assert ("canfield_http_requests_total", ()) not in samples  # labelled, never bare


def test_a_database_error_a_request_meets_is_counted_and_answered_503(auth_client, monkeypatch):
    # given: the database fails under a view (as when PostgreSQL or PgBouncer is down)
    from django.db import OperationalError

    from games.api import GameLegalActionsApi

    def down(self, request, game_id):
        raise OperationalError("connection to server at 127.0.0.1 failed")

    monkeypatch.setattr(GameLegalActionsApi, "get", down)
    before = value("canfield_database_errors_total", error="OperationalError")

    # when
    response = auth_client.get("/api/v1/games/x/legal-actions")

    # then: the API's 503, counted once by its exception class
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert value("canfield_database_errors_total", error="OperationalError") - before == 1
