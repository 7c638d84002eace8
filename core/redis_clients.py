"""Every Redis client of the project is made here: of REDIS_URL (or the URL given), with the
timeouts its caller chose, so that no caller waits on a Redis that hangs for longer than it
decided to (docs/contributing.md, "Layers")."""

from __future__ import annotations

import redis
import redis.asyncio
from django.conf import settings


def redis_client(
    *, timeout: float | None, connect_timeout: float | None = None, url: str = ""
) -> redis.Redis:
    """A client of `url`, else REDIS_URL: commands wait `timeout` seconds (None: without end,
    as a subscriber does), connecting `connect_timeout` (by default `timeout`)."""
    return redis.Redis.from_url(
        url or settings.REDIS_URL,
        socket_timeout=timeout,
        socket_connect_timeout=timeout if connect_timeout is None else connect_timeout,
    )


# The most connections an event loop's client opens at once (redis.asyncio's own default).
ASYNC_CONNECTIONS = 100


def redis_async_client(
    *, timeout: float | None, connect_timeout: float | None = None
) -> redis.asyncio.Redis:
    """The same for an event loop (redis.asyncio), of REDIS_URL. Its commands share at most
    ASYNC_CONNECTIONS connections; one more waits for a free one (up to `timeout`), where
    redis.asyncio's own pool fails it at once (2,000 sockets opening together: bench/live.py)."""
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        settings.REDIS_URL,
        max_connections=ASYNC_CONNECTIONS,
        timeout=timeout,
        socket_timeout=timeout,
        socket_connect_timeout=timeout if connect_timeout is None else connect_timeout,
    )
    return redis.asyncio.Redis.from_pool(pool)  # (its pool closed with it)


def redis_connection_like(client: redis.Redis) -> redis.connection.AbstractConnection:
    """A connection of its own (no pool) to `client`'s server with `client`'s settings, for one
    thread's hot path: a command sent on it and its reply read cost about half the CPU of the
    same command through the client (its pool, retries and events: 98 and 52 us, 2026-12-07)."""
    pool = client.connection_pool
    connection: redis.connection.AbstractConnection = pool.connection_class(
        **pool.connection_kwargs
    )
    return connection
