"""Rate limits that cost at most one cache round trip per request.

DRF's throttles keep a list of request times per client, read and rewritten on each request
(two round trips to Redis, and a list as long as the rate). A counter per client and fixed
window answers the same question with one atomic increment. A window that allows thousands of
hits (an account's actions) is counted in leases: one INCRBY takes a thousandth of the limit
for this process, spent here without asking Redis again (`_count_hit`).
"""

from __future__ import annotations

import functools
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponseBase
from rest_framework.throttling import ScopedRateThrottle

from core.clients import client_key
from core.redis_clients import redis_connection_like


@functools.lru_cache(maxsize=8)
def _writer(cache: RedisCache) -> redis.Redis:
    """The cache's Redis client for writes, made once: Django builds a new `redis.Redis`
    (hundreds of callbacks registered) on every call, a measurable share of an action."""
    return cache._cache.get_client(write=True)


class _Counters(threading.local):
    """This thread's connection for the counters, to the cache's server (`client`'s)."""

    connection: redis.connection.AbstractConnection | None = None
    client: redis.Redis | None = None


_counters = _Counters()
# A forked process (gunicorn's workers) makes its own: the parent's socket is not its to use.
os.register_at_fork(after_in_child=lambda: setattr(_counters, "connection", None))


def _redis_command(cache: RedisCache, *args: str | int) -> object:
    """One command on this thread's counter connection, and its reply. A request of a throttled
    endpoint sends at most one (an action's only Redis round trip, one in 6 with `_count_hit`'s
    leases): on a connection of its own, without the pool's and retries' work
    (core.redis_clients.redis_connection_like). A connection the server closed since (Redis
    restarted, say) is made again once; a command that timed out (redis.TimeoutError) is not
    sent again: it may have counted."""
    client = _writer(cache)
    connection = _counters.connection
    if connection is None or _counters.client is not client:
        connection = _counters.connection = redis_connection_like(client)
        _counters.client = client
    try:
        connection.send_command(*args)
        return connection.read_response()
    except redis.ConnectionError:
        connection.disconnect()
        connection.send_command(*args)  # (connects again)
        return connection.read_response()


# A window whose limit is LEASE_SHARE hits or more is counted in leases of limit // LEASE_SHARE:
# a process takes that many at once and spends them without a round trip. What a process took
# and did not spend is counted as spent, so an account is refused at most (processes x lease)
# hits early (10 processes, actions' 6,000 a minute: 60 early, 1 %), never one late.
LEASE_SHARE = 1000


@dataclass
class _Lease:
    counted: int  # the counter's value after the INCRBY that took the lease
    left: int  # hits of it not yet spent in this process


_leases: dict[str, _Lease] = {}
_leases_lock = threading.Lock()
_LEASES_KEPT = 10_000  # counters leased from at once before the oldest are forgotten (dropped)
# A forked process (gunicorn's workers) must not spend the parent's leases a second time.
os.register_at_fork(after_in_child=_leases.clear)


def _count_hit(key: str, seconds: int, *, lease: int = 1) -> int:
    """Add one to the counter `key` (created to expire in `seconds`); return the new count.
    With `lease` > 1 (a throttle's limit // LEASE_SHARE), the count is taken from this process's
    lease of the counter when one is left, and a new lease of `lease` hits taken otherwise: the
    count returned then takes the hits leased and unspent here as not yet counted (a window's
    key names its window, so a lease ends with it).

    While Redis is unreachable the count is 0: throttling is off rather than the request
    failing, as for the cache itself (core/cache.py)."""
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        full_key = cache.make_and_validate_key(key)
        if lease > 1:
            with _leases_lock:
                held = _leases.get(full_key)
                if held is not None and held.left:
                    held.left -= 1
                    return held.counted - held.left
        try:
            # INCRBY answers an integer; INCRBY 1 is INCR
            counted = cast(int, _redis_command(cache, "INCRBY", full_key, lease))
            if counted == lease:  # a new window's counter: the one request that pays a second trip
                _redis_command(cache, "EXPIRE", full_key, seconds)
        except redis.RedisError:
            return 0
        if lease > 1:
            with _leases_lock:
                if len(_leases) >= _LEASES_KEPT:
                    _leases.clear()  # (past windows' leases among them; a live one is taken anew)
                _leases[full_key] = _Lease(counted, lease - 1)
        return counted - (lease - 1)
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds)
        return 1


def address_slot_take(
    request: HttpRequest, *, name: str, limit: int, window: int = 3600
) -> float | None:
    """Counts one `name` (an account, an app registered...) about to be made from the client's
    address, at most `limit` in each fixed window of `window` seconds; returns None if it may
    be, else the seconds until the address may again."""
    now = time.time()
    current = int(now // window)
    if _count_hit(f"{name}:{client_key(request)}:{current}", window + 1) <= limit:
        return None
    return (current + 1) * window - now


# A throttle counts a DRF Request, and for a page that makes what an API view makes
# (`throttles_wait`) a Django HttpRequest with the view's class: its `request` and `view` are Any,
# that edge (client_key reads what both requests have).
class FixedWindowScopedThrottle(ScopedRateThrottle):
    """ScopedRateThrottle (same scopes and rates) counted per fixed window: per account where
    there is one, else per client address as our proxy saw it (never the client's own
    X-Forwarded-For, which DRF's get_ident would key on; IPv6 per /64, `client_key`)."""

    def get_ident(self, request: Any) -> str:
        return client_key(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        key = self.get_cache_key(request, view)
        duration = self.duration
        if key is None or self.num_requests is None or duration is None:
            return True
        now = self.timer()
        window = int(now // duration)
        count = _count_hit(
            f"{key}:{window}", duration + 1, lease=max(1, self.num_requests // LEASE_SHARE)
        )
        self.wait_seconds = (window + 1) * duration - now
        _note_limit(request, self.num_requests, self.num_requests - count, self.wait_seconds)
        return count <= self.num_requests

    def wait(self) -> float:
        return self.wait_seconds


class AddressScopedThrottle(FixedWindowScopedThrottle):
    """The same, counted per client address (IPv6: per /64) even for accounts, at the rate of
    the view's `address_throttle_scope`: many accounts on one address share one budget."""

    scope_attr = "address_throttle_scope"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class BurstScopedThrottle(FixedWindowScopedThrottle):
    """The same counters at the rate of the view's `burst_throttle_scope` (per second): a
    minute's allowance spent at once by many accounts together reaches the workers as one
    queue; a per-second rate beside it spreads it over the minute."""

    scope_attr = "burst_throttle_scope"


def throttles_wait(
    request: Any, view: Any, throttles: tuple[type[FixedWindowScopedThrottle], ...]
) -> float | None:
    """For a page that makes what an API view makes (the site's Play now deals a game as
    `POST games` does): count `request` in the view's `throttles` (the same counters and
    rates); None if every one allows it, else the longest wait in seconds."""
    waits = [
        throttle.wait()
        for throttle in (cls() for cls in throttles)
        if not throttle.allow_request(request, view)
    ]
    return max(waits) if waits else None


def _note_limit(request: Any, limit: int, remaining: int, reset: float) -> None:
    """Remember the request's tightest limit for RateLimitHeadersMiddleware."""
    http_request = getattr(request, "_request", request)
    noted = getattr(http_request, "rate_limit", None)
    if noted is None or remaining < noted[1]:
        http_request.rate_limit = (limit, max(0, remaining), max(1, math.ceil(reset)))


class RateLimitHeadersMiddleware:
    """`RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the window
    ends) on every answer of a throttled endpoint, as docs/api.md says (the 429's `Retry-After`
    is the exception handler's)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        noted = getattr(request, "rate_limit", None)
        if noted is not None:
            limit, remaining, reset = noted
            response["RateLimit-Limit"] = str(limit)
            response["RateLimit-Remaining"] = str(remaining)
            response["RateLimit-Reset"] = str(reset)
        return response
