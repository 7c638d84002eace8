"""Prometheus metrics (prometheus-client): what an operator watches (docs/deploy.md, "Metrics and
alerts").

Every app process counts into the metrics below. In production each process group writes them
to files of its own (prometheus-client's multi-process mode: PROMETHEUS_MULTIPROC_DIR, set by
scripts/metrics-dir.sh to METRICS_DIR/<group>: gunicorn's workers, the heavy pool, each
uvicorn ws process), and `manage.py serve_metrics` adds up every group's files on an internal
port the proxy never exposes, with what is read at scrape time beside them: the queues'
lengths (register_queue) and whether PostgreSQL and Redis answer. Without METRICS_DIR (a
developer's `runserver`, the tests) the metrics stay in the process's own registry.

Labels stay few and bounded: a request's route is its URL pattern (never the raw path, which
holds game ids), a live board is named by its draw and population (not its date: a day's board
replaces the day before's, a date label would grow without end).
"""

from __future__ import annotations

import glob
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

logger = logging.getLogger("canfield.metrics")

HTTP_REQUESTS = Counter(
    "canfield_http_requests_total",
    "HTTP requests answered, by route (URL pattern), method and status",
    ["route", "method", "status"],
)
HTTP_SECONDS = Histogram(
    "canfield_http_request_duration_seconds",
    "Time to answer an HTTP request in the app (the proxy's own time excluded), by route",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
ACTIONS_APPLIED = Counter("canfield_actions_applied_total", "Game actions applied")
ACTIONS_REJECTED = Counter(
    "canfield_actions_rejected_total", "Game actions refused, by error code", ["code"]
)
HINTS = Counter("canfield_hints_total", "Hints answered, by where the answer came from", ["source"])
SOLVER_SECONDS = Histogram(
    "canfield_solver_seconds",
    "Time of a hint's solver search (cache misses only)",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0),
)
LIVE_LISTENERS = Gauge(
    "canfield_live_listeners",
    "WebSockets following a live board, by the board's draw and population",
    ["draw", "players"],
    multiprocess_mode="livesum",
)
LIVE_BATCH_LAG = Histogram(
    "canfield_live_batch_lag_seconds",
    "From a board's tick to its batch reaching a ws process's listeners' outboxes",
    ["draw", "players"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.5, 5.0, 10.0),
)
DATABASE_ERRORS = Counter(
    "canfield_database_errors_total",
    "Database errors that reached a request (answered 503), by exception class",
    ["error"],
)
REDIS_ERRORS = Counter(
    "canfield_redis_errors_total", "Redis calls that failed, by operation", ["operation"]
)
AFTER_COMMIT_ERRORS = Counter(
    "canfield_after_commit_errors_total",
    "Work after a commit (board writes, live publishes) that raised, by step; what committed "
    "stands and the request's answer says so",
    ["step"],
)


# Each (route, method, status)'s counter and histogram, found once: `labels()` validates and
# locks on every call, a cost per request. Bounded: routes are the URL patterns.
_http_children: dict[tuple[str, str, int], tuple[Any, Any]] = {}


METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def http_observed(*, route: str, method: str, status: int, seconds: float) -> None:
    """One answered request; any method but the usual ones is "other" (a client chooses it)."""
    if method not in METHODS:
        method = "other"
    key = (route, method, status)
    children = _http_children.get(key)
    if children is None:
        children = (
            HTTP_REQUESTS.labels(route, method, str(status)),
            HTTP_SECONDS.labels(route, method),
        )
        _http_children[key] = children
    children[0].inc()
    children[1].observe(seconds)


def database_error(error: BaseException) -> None:
    DATABASE_ERRORS.labels(type(error).__name__).inc()


def redis_error(operation: str) -> None:
    REDIS_ERRORS.labels(operation).inc()


def after_commit_error(step: str) -> None:
    AFTER_COMMIT_ERRORS.labels(step).inc()


def live_listener(*, draw: int, bots: bool, change: int) -> None:
    LIVE_LISTENERS.labels(str(draw), "bots" if bots else "people").inc(change)


def live_batch(*, draw: int, bots: bool, tick_at: float) -> None:
    lag = max(0.0, time.time() - tick_at)
    LIVE_BATCH_LAG.labels(str(draw), "bots" if bots else "people").observe(lag)


# Queues measured when Prometheus asks (`manage.py serve_metrics`), by name: a function that
# counts what waits. The fair-play review registers its own (fairplay/apps.py); the matches'
# matchmaking calls register_queue("matchmaking", count) in its AppConfig.ready the same way.
QUEUES: dict[str, Callable[[], int]] = {}
# And, for a queue served in order, how long its oldest item has waited (0 when empty).
QUEUE_AGES: dict[str, Callable[[], float]] = {}


def register_queue(
    name: str, count: Callable[[], int], *, oldest: Callable[[], float] | None = None
) -> None:
    """Report `count()` as canfield_queue_length{queue=name} at every scrape, and `oldest()`
    (seconds) as canfield_queue_oldest_seconds{queue=name} when given."""
    QUEUES[name] = count
    if oldest is not None:
        QUEUE_AGES[name] = oldest


def process_exit(pid: int | None = None) -> None:
    """Process `pid`'s (default: this one's) live gauges leave the sums; its files stay, for
    the counters. gunicorn's master calls it for each worker that ended
    (canfield_site/gunicorn_conf.py), a ws process for itself as it exits (asgi.py)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        mark_process_dead(os.getpid() if pid is None else pid, directory)


class FilesCollector:
    """Every process group's files under `root` (METRICS_DIR/<group>/*.db), added up as
    prometheus-client's MultiProcessCollector adds up one directory's."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def collect(self) -> Iterable[Metric]:
        files = glob.glob(str(self.root / "*" / "*.db")) + glob.glob(str(self.root / "*.db"))
        merged: Iterable[Metric] = MultiProcessCollector.merge(files, accumulate=True)
        return merged


class StatusCollector:
    """Read at scrape time: each registered queue's length (and its oldest item's age), and
    whether the database and Redis answer (canfield_database_up, canfield_redis_up: 1 or 0).
    A queue that cannot be counted (the database is down) is left out of that scrape and
    logged."""

    def collect(self) -> Iterator[Metric]:
        from django.db import connection

        from core.health import database_status, redis_status

        try:
            queues = GaugeMetricFamily(
                "canfield_queue_length", "Items waiting in a queue, by queue", labels=["queue"]
            )
            for name, count in sorted(QUEUES.items()):
                try:
                    queues.add_metric([name], count())
                except Exception as error:
                    logger.warning("queue_unmeasured", extra={"fields": _failed(name, error)})
            yield queues
            ages = GaugeMetricFamily(
                "canfield_queue_oldest_seconds",
                "Seconds the oldest item of a queue has waited (0 when empty), by queue",
                labels=["queue"],
            )
            for name, oldest in sorted(QUEUE_AGES.items()):
                try:
                    ages.add_metric([name], oldest())
                except Exception as error:
                    logger.warning("queue_unmeasured", extra={"fields": _failed(name, error)})
            yield ages
            for name, status in (("database", database_status()), ("redis", redis_status())):
                up = GaugeMetricFamily(f"canfield_{name}_up", f"1 when {name} answers, else 0")
                up.add_metric([], 1 if status == "ok" else 0)
                yield up
        finally:
            if not connection.in_atomic_block:
                connection.close()  # each scrape runs on a thread of its own


def _failed(name: str, error: BaseException) -> dict[str, Any]:
    return {"queue": name, "error": repr(error)}


class OwnCollector:
    """This process's own metrics (no multi-process files: a developer's machine)."""

    def collect(self) -> Iterable[Metric]:
        from prometheus_client import REGISTRY

        return REGISTRY.collect()


def scrape_registry(root: Path | None) -> CollectorRegistry:
    """What `manage.py serve_metrics` serves: the process groups' files under `root` (without
    one, this process's own metrics), then the status read at scrape time."""
    registry = CollectorRegistry()
    collected: Any = FilesCollector(root) if root is not None else OwnCollector()
    registry.register(collected)
    registry.register(StatusCollector())
    return registry
