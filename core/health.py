"""Readiness: can this process reach what it needs to serve requests?"""

from __future__ import annotations

import os

import redis
from django.conf import settings
from django.db import DatabaseError, connection

from core.redis_clients import redis_client

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
    client = redis_client(timeout=PROBE_TIMEOUT_SECONDS)
    try:
        client.ping()
    except redis.RedisError as error:
        return f"unavailable: {type(error).__name__}"
    finally:
        client.close()
    return "ok"


def drain_status() -> str:
    """ "draining" once the node is being taken out of its load balancer: DRAIN_FILE exists
    (scripts/serve-topology.sh creates it when stopped, before it stops any app process), so the
    balancer's health check fails first and it sends this node nothing new while in-flight
    requests finish (docs/deploy.md, "Scale out")."""
    path = os.environ.get("DRAIN_FILE", "")
    return "draining" if path and os.path.exists(path) else "ok"


def readiness() -> dict[str, str]:
    draining = drain_status()
    if draining != "ok":
        # Not ready whatever the rest says: no need to ask the database and Redis.
        return {"drain": draining}
    return {"database": database_status(), "redis": redis_status()}
