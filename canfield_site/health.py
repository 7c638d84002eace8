"""Readiness: can this process reach what it needs to serve requests?"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import DatabaseError, connection

# A probe must answer quickly even when a dependency hangs instead of refusing.
PROBE_TIMEOUT_SECONDS = 1.0


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        return f"unavailable: {type(error).__name__}"
    return "ok"


def redis_status() -> str:
    if not settings.REDIS_URL:
        return "ok"  # in-memory channel layer and cache: nothing to reach
    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
        socket_timeout=PROBE_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    except redis.RedisError as error:
        return f"unavailable: {type(error).__name__}"
    finally:
        client.close()
    return "ok"


def readiness() -> dict[str, str]:
    return {"database": database_status(), "redis": redis_status()}
