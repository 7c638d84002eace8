"""An ASGI process borrows its database connections from a pool (canfield_site/settings.py,
DATABASE_POOL_SIZE; scripts/serve-ws.sh sets it): Django runs each HTTP request in a thread of its
own there, and without the pool every request opened a PostgreSQL connection of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import urlsplit

import psycopg
import pytest

from tests import net
from tests.conftest import ROOT, requires_postgres


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


@pytest.mark.parametrize(
    ("database_url", "pooled"),
    [
        ("postgres://canfield@db.example:5432/canfield", True),
        ("sqlite:///pool.sqlite3", False),
    ],
)
def test_the_pool_size_gives_postgresql_a_pool_and_no_persistent_connections(database_url, pooled):
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "POSTGRES_HOST")}
    shown = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings as s; d = s.DATABASES['default'];"
         "print(d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'])"],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env=env | {"DJANGO_SETTINGS_MODULE": "canfield_site.settings", "DJANGO_DEBUG": "1",
                   "DATABASE_URL": database_url, "DATABASE_POOL_SIZE": "16"},
    ).stdout.split()  # fmt: skip
    if pooled:
        assert shown == ["{'min_size':", "1,", "'max_size':", "16,", "'timeout':", "5}", "0"]
    else:
        assert shown == ["None", "0"]
