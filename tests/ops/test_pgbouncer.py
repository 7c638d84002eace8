"""PgBouncer in transaction mode (scripts/serve-pgbouncer.sh) in front of the machine's
PostgreSQL: three app processes (the app's settings with DATABASE_POOLER=pgbouncer) hold more
connections at once than the server's `max_connections`, all of them work, and the server
never sees more than the pool. The transaction-level advisory lock the sign-up takes
(accounts/identity.py) still orders them.

The PgBouncer is the test's own, on a free port; the machine's PostgreSQL is not reconfigured.
Runs in CI's PostgreSQL pass (DATABASE_URL set).
"""

from __future__ import annotations

import csv
import io
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from tests.ops.stack import ROOT, free_port, wait_for

PGBOUNCER = shutil.which("pgbouncer", path="/usr/sbin:/usr/bin")
DATABASE_URL = os.environ.get("DATABASE_URL", "")
pytestmark = [
    pytest.mark.skipif(not DATABASE_URL.startswith("postgres"), reason="needs PostgreSQL"),
    pytest.mark.skipif(PGBOUNCER is None, reason="no pgbouncer (Debian package pgbouncer)"),
]

POOL = 8
PROCESSES = 3
TRANSACTIONS = 4  # per connection

# One app process: THREADS Django connections through the pooler, each opened, then held
# until the test says go, then TRANSACTIONS transactions each under one advisory lock (the
# sign-up's kind), reading and writing a counter only the lock's holder may touch.
APP_PROCESS = """
import os, sys, threading, time
import django
django.setup()
from django.db import connection, transaction

threads, go, name = int(sys.argv[1]), sys.argv[2], sys.argv[3]
errors, opened = [], []
# DATABASE_POOLER=pgbouncer: no server-side cursors, no prepared statements.
assert connection.settings_dict["DISABLE_SERVER_SIDE_CURSORS"] is True
connection.ensure_connection()
assert connection.connection.prepare_threshold is None
connection.close()

def work():
    try:
        connection.ensure_connection()
        opened.append(1)
        while not os.path.exists(go):
            time.sleep(0.05)
        for _ in range(int(os.environ["TRANSACTIONS"])):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtext('canfield-pooler-test'))")
                cursor.execute("SELECT n FROM pooler_counter FOR UPDATE NOWAIT")
                (n,) = cursor.fetchone()
                cursor.execute("SELECT pg_sleep(0.002)")
                cursor.execute("UPDATE pooler_counter SET n = %s", [n + 1])
    except Exception as error:
        errors.append(repr(error))
    finally:
        connection.close()

workers = [threading.Thread(target=work) for _ in range(threads)]
for worker in workers:
    worker.start()
while len(opened) + len(errors) < threads:
    time.sleep(0.05)
print(f"{name} connected {len(opened)}", flush=True)
for worker in workers:
    worker.join()
print(f"{name} errors {len(errors)} {errors[:3]}", flush=True)
"""


def server_url(database: str) -> str:
    parts = urlsplit(DATABASE_URL)
    return parts._replace(path=f"/{database}").geturl()


@pytest.fixture
def scratch_database() -> Iterator[str]:
    """A database of the test's own on the machine's server, with the counter table."""
    name = f"pooler_{os.getpid()}"
    with psycopg.connect(server_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(server_url(name), autocommit=True) as conn:
        conn.execute("CREATE TABLE pooler_counter (n integer NOT NULL)")
        conn.execute("INSERT INTO pooler_counter VALUES (0)")
    yield name
    with psycopg.connect(server_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pgbouncer(tmp_path, scratch_database) -> Iterator[int]:
    port = free_port()
    env = dict(os.environ) | {
        "PGBOUNCER_BIND": f"127.0.0.1:{port}",
        "PGBOUNCER_UPSTREAM": server_url(scratch_database),
        "PGBOUNCER_POOL_SIZE": str(POOL),
        # A client waits its turn at the pool while the others' transactions queue on the lock:
        # a loaded machine must not turn that wait into an error.
        "PGBOUNCER_WAIT_SECONDS": "120",
        "VENV_BIN": str(Path(sys.executable).parent),
    }
    log = open(tmp_path / "pgbouncer.log", "wb")  # noqa: SIM115 (open while it runs)
    process = subprocess.Popen(
        ["bash", "scripts/serve-pgbouncer.sh"], cwd=ROOT, env=env, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: b"listening on" in (tmp_path / "pgbouncer.log").read_bytes(), 20,
                 "pgbouncer")  # fmt: skip
        yield port
    finally:
        os.killpg(process.pid, 15)
        process.wait(10)
        log.close()


def show(port: int, what: str) -> list[dict[str, str]]:
    """PgBouncer's admin console (psql: it speaks only the simple query protocol)."""
    result = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", "pgbouncer",
         "--csv", "-c", f"SHOW {what}"],
        capture_output=True, text=True, timeout=10, check=True,
    )  # fmt: skip
    return list(csv.DictReader(io.StringIO(result.stdout)))


def test_three_app_processes_hold_more_connections_than_postgresql_allows(
    tmp_path, scratch_database, pgbouncer
):
    # given: the server's limit, and three app processes' worth of connections above it
    with psycopg.connect(server_url("postgres")) as conn:
        limit = int(conn.execute("SHOW max_connections").fetchone()[0])
    threads = math.ceil((limit + 30) / PROCESSES)
    go = tmp_path / "go"
    pooled = f"postgres://postgres@127.0.0.1:{pgbouncer}/{scratch_database}"
    env = dict(os.environ) | {
        "DATABASE_URL": pooled,
        "DATABASE_POOLER": "pgbouncer",
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "TRANSACTIONS": str(TRANSACTIONS),
    }
    apps = [
        subprocess.Popen(
            [sys.executable, "-c", APP_PROCESS, str(threads), str(go), f"app{n}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for n in range(PROCESSES)
    ]
    try:
        # when: every connection is open at once
        for app in apps:
            line = app.stdout.readline()
            assert line.endswith(f"connected {threads}\n"), line + app.stderr.read()
        clients = [c for c in show(pgbouncer, "CLIENTS") if c["database"] == scratch_database]
        servers = [s for s in show(pgbouncer, "SERVERS") if s["database"] == scratch_database]
        print(f"\nmax_connections {limit}: {len(clients)} app connections open at once "
              f"through PgBouncer, {len(servers)} server connections")  # fmt: skip

        # then: more than the server allows, on at most the pool's server connections
        assert len(clients) == PROCESSES * threads > limit
        assert len(servers) <= POOL

        # when: they all work, each transaction under the advisory lock
        started = time.monotonic()
        go.touch()
        outputs = [app.communicate(timeout=180) for app in apps]
    finally:
        for app in apps:
            if app.poll() is None:
                app.kill()
    print(f"{PROCESSES * threads * TRANSACTIONS} transactions in "
          f"{time.monotonic() - started:.1f} s")  # fmt: skip

    # then: no error at all (no "too many connections"), and the lock let one at a time at
    # the counter: every increment kept (NOWAIT would have failed on a row another held)
    for stdout, stderr in outputs:
        assert stdout.strip().endswith("errors 0 []"), stdout + stderr
        assert "too many" not in stdout + stderr
    with psycopg.connect(server_url(scratch_database)) as conn:
        (count,) = conn.execute("SELECT n FROM pooler_counter").fetchone()
    assert count == PROCESSES * threads * TRANSACTIONS


def test_with_the_server_down_clients_are_refused_within_the_wait(tmp_path):
    # given: a PgBouncer in front of a port where no PostgreSQL listens
    port = free_port()
    env = dict(os.environ) | {
        "PGBOUNCER_BIND": f"127.0.0.1:{port}",
        "PGBOUNCER_UPSTREAM": f"postgres://postgres@127.0.0.1:{free_port()}/canfield",
        "VENV_BIN": str(Path(sys.executable).parent),
    }
    log = open(tmp_path / "pgbouncer.log", "wb")  # noqa: SIM115 (open while it runs)
    process = subprocess.Popen(
        ["bash", "scripts/serve-pgbouncer.sh"], cwd=ROOT, env=env, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: b"listening on" in (tmp_path / "pgbouncer.log").read_bytes(), 20,
                 "pgbouncer")  # fmt: skip

        # when: the app connects
        started = time.monotonic()
        with pytest.raises(psycopg.OperationalError) as refused:
            psycopg.connect(f"postgres://postgres@127.0.0.1:{port}/canfield", connect_timeout=60)
        waited = time.monotonic() - started
    finally:
        os.killpg(process.pid, 15)
        process.wait(10)
        log.close()

    # then: an error after the wait (5 s), not after gunicorn's 30 s timeout (a 502)
    print(f"refused after {waited:.1f} s: {refused.value}")
    assert "query_wait_timeout" in str(refused.value)
    assert 4 < waited < 15


def test_compose_style_settings_with_a_password_let_only_that_password_in(tmp_path):
    # given: PgBouncer configured as compose does (POSTGRES_* parts, a password with the
    # characters that break URLs and quoting), in front of the machine's server
    upstream = urlsplit(DATABASE_URL)
    password = "p@ss:w/o'rd\"x%"
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"} | {
        "PGBOUNCER_BIND": f"127.0.0.1:{port}",
        "POSTGRES_HOST": upstream.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(upstream.port or 5432),
        "POSTGRES_USER": upstream.username or "postgres",
        "POSTGRES_PASSWORD": password,
        "POSTGRES_DB": "postgres",
        "VENV_BIN": str(Path(sys.executable).parent),
    }
    log = open(tmp_path / "pgbouncer.log", "wb")  # noqa: SIM115 (open while it runs)
    process = subprocess.Popen(
        ["bash", "scripts/serve-pgbouncer.sh"], cwd=ROOT, env=env, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    user = env["POSTGRES_USER"]
    try:
        wait_for(lambda: b"listening on" in (tmp_path / "pgbouncer.log").read_bytes(), 20,
                 "pgbouncer")  # fmt: skip

        # when / then: the right password reads through it, a wrong one is refused
        with psycopg.connect(host="127.0.0.1", port=port, user=user, password=password,
                             dbname="postgres") as conn:  # fmt: skip
            assert conn.execute("SHOW TimeZone").fetchone()[0] == "UTC"
        with pytest.raises(psycopg.OperationalError, match="authentication failed"):
            psycopg.connect(host="127.0.0.1", port=port, user=user, password="wrong",
                            dbname="postgres")  # fmt: skip
    finally:
        os.killpg(process.pid, 15)
        process.wait(10)
        log.close()
