"""An ASGI process borrows its database connections from a pool (canfield_site/settings.py,
DATABASE_POOL_SIZE; scripts/serve-ws.sh sets it): Django runs each HTTP request in a thread of its
own there, and without the pool every request opened a PostgreSQL connection of its own. What the
setting makes of the settings: tests/ops/test_settings.py."""

from __future__ import annotations

from urllib.parse import urlsplit

import psycopg

from tests import net
from tests.conftest import requires_postgres


@requires_postgres
def test_forty_requests_of_the_suite_server_are_served_on_a_few_pooled_connections(
    base_url, server_database
):
    # given the suite's server (scripts/serve-ws.sh, uvicorn) on a PostgreSQL database of its own
    assert net.get(f"{base_url}/api/v1/daily").status_code == 200
    name = urlsplit(server_database).path.strip("/")
    admin = urlsplit(server_database)._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:

        def backends() -> set[int]:
            """The PostgreSQL backends connected to the server's database now."""
            rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [name])
            return {pid for (pid,) in rows}

        before = backends()

        # when forty requests that read the database come one after another
        seen: set[int] = set()
        for _ in range(40):
            assert net.get(f"{base_url}/api/v1/daily").status_code == 200
            seen |= backends()

    # then they were served by the connections the pool held, give or take the few it added:
    # not a new connection each (without the pool a request's connection lives on until its
    # thread is collected: 10 or more new backends here)
    assert len(seen - before) <= 3, (before, seen)
