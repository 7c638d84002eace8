"""Django's Redis cache, made to degrade instead of fail while Redis is unreachable.

The cache only holds throttle counters: losing Redis must not fail the requests that consult
them. While Redis is down, reads miss and writes are dropped (throttling is off) and a warning
is logged, at most once every 10 seconds per process.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache

from core import metrics
from core.logs import WarnEvery

_warn = WarnEvery(logging.getLogger("canfield.cache"), seconds=10.0)


def _degrade(default: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except redis.RedisError as error:
                fields: dict[str, object] = {
                    "operation": f"cache.{method.__name__}",
                    "error": str(error),
                }
                metrics.redis_error(f"cache.{method.__name__}")
                _warn("redis_unavailable", fields)
                return default(*args, **kwargs)

        return call

    return wrap


def _missing(key: Any, default: Any = None, version: Any = None) -> Any:
    return default


class ResilientRedisCache(RedisCache):
    get = _degrade(_missing)(RedisCache.get)
    set = _degrade(lambda *args, **kwargs: None)(RedisCache.set)
    add = _degrade(lambda *args, **kwargs: False)(RedisCache.add)
    delete = _degrade(lambda *args, **kwargs: False)(RedisCache.delete)
    get_many = _degrade(lambda *args, **kwargs: {})(RedisCache.get_many)
    set_many = _degrade(lambda *args, **kwargs: [])(RedisCache.set_many)
    has_key = _degrade(lambda *args, **kwargs: False)(RedisCache.has_key)
    touch = _degrade(lambda *args, **kwargs: False)(RedisCache.touch)
