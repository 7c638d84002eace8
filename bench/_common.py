"""Helpers the benchmarks share (not a benchmark: bench/run.py skips modules named `_*`)."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# (re-exported: the ports of the benchmarks' servers)
from scripts.ports import free_port as free_port  # noqa: E402

PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


class Client:
    """A keep-alive HTTP client to a loopback port that reconnects when the server closes
    (gunicorn sync), with a token and cookies (the web doors' CSRF cookie)."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {} if token is None else {"Authorization": f"Token {token}"}
        self.cookies: dict[str, str] = {}

    def send(
        self,
        method: str,
        path: str,
        body: str | None = None,
        content_type: str = "application/json",
    ) -> tuple[int, bytes]:
        """(status, body) of one request; one reconnection if the kept connection was closed."""
        headers = {**self.headers, "Content-Type": content_type}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            try:
                self.conn.request(method, path, body, headers)
                response = self.conn.getresponse()
                payload = response.read()
                for header, value in response.getheaders():
                    if header.lower() == "set-cookie":
                        name, _, rest = value.partition("=")
                        self.cookies[name] = rest.split(";", 1)[0]
                if response.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                return response.status, payload
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def call(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        """(status, decoded JSON or None) of a request with a JSON body (or none)."""
        status, payload = self.send(method, path, None if body is None else json.dumps(body))
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, None


def fresh_database(name: str, template: str | None = None) -> str:
    """A new PostgreSQL database `name` on 127.0.0.1 (dropped first if it exists), empty or a
    copy of the database `template` (a migrated one: the tests'): its URL."""
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return f"postgres://postgres@127.0.0.1:5432/{name}"


class AutoAnalyze:
    """While in use, what autovacuum's auto-analyze does, if the server runs without autovacuum
    (this machine's PostgreSQL: CI's conf.d/90-ci.conf sets autovacuum off): every `every`
    seconds, ANALYZE of each table of the database at `url` changed by more than 50 rows and 10 %
    since its last (autovacuum_analyze_threshold and _scale_factor's defaults). Without it, a
    database made empty at a benchmark's start is planned as empty for good: the join's reads
    scanned every open match by the end of a run (bench/matches.py, docs/benchmarks.md).
    `runs`: how many tables were analyzed."""

    STALE = """
    SELECT relid::regclass::text FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0)
    """

    def __init__(self, url: str, every: float = 10.0) -> None:
        import psycopg

        self.url, self.every, self.runs = url, every, 0
        self._stop = threading.Event()
        with psycopg.connect(url, autocommit=True) as conn:
            self.needed = conn.execute("SHOW autovacuum").fetchone()[0] == "off"
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self._stop.wait(self.every):
                for (table,) in conn.execute(self.STALE).fetchall():
                    conn.execute(f"ANALYZE {table}")
                    self.runs += 1

    def __enter__(self) -> AutoAnalyze:
        if self.needed:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self.needed:
            self._thread.join()


def play_for(clients: list[Any], seconds: float) -> list[float]:
    """Each client plays (its `act()`) in a thread of its own for `seconds`: every action's
    time from request to answer, sorted (bench/scale.py, bench/nodes.py)."""
    latencies: list[list[float]] = [[] for _ in clients]
    deadline = time.monotonic() + seconds

    def play(index: int) -> None:
        while time.monotonic() < deadline:
            began = time.perf_counter()
            clients[index].act()
            latencies[index].append(time.perf_counter() - began)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(t for per_client in latencies for t in per_client)


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop a server started with `start_new_session=True`, with all its processes."""
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=30)


def start_topology(
    *, root: Path, port: int, log: str, workers: int, env: dict[str, str]
) -> subprocess.Popen[bytes]:
    """scripts/serve-topology.sh on `port` with `workers` gunicorn workers, its output in `log`;
    returns once it says it is ready (SystemExit if it does not within 2 minutes)."""
    env = {**env, "PUBLIC_PORT": str(port), "WEB_WORKERS": str(workers)}
    with open(log, "wb") as out:
        server = subprocess.Popen(
            ["bash", "scripts/serve-topology.sh"], cwd=root, env=env, start_new_session=True,
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if b"topology ready" in Path(log).read_bytes():
            return server
        if server.poll() is not None:
            break
        time.sleep(0.5)
    stop(server)
    raise SystemExit(f"the topology did not start; see {log}")


def production_env(database: str, *, template: str | None = None, **extra: str) -> dict[str, str]:
    """The environment of a production topology on a fresh PostgreSQL database `database`
    (a copy of `template`, if given): the production settings (the real PBKDF2 hasher) with new
    secrets, quiet logs, the machine's Redis, plain HTTP on the loopback, no match deal pool;
    `extra` on top."""
    return {
        **os.environ,
        "DATABASE_URL": fresh_database(database, template),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SECRET": secrets.token_urlsafe(50),
        "MATCH_SECRET": secrets.token_urlsafe(50),
        "DJANGO_SETTINGS_MODULE": "canfield_site.settings",
        "LOG_LEVEL": "ERROR",
        "REQUEST_LOG_LEVEL": "WARNING",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        # No match deal pool: the scheduler would solve MATCH_POOL_SIZE deals per draw mode at
        # its start, taking a core from what the benchmark measures (bench/matches.py fills
        # its pool itself before its clock starts).
        "MATCH_POOL_SIZE": "0",
        # R36: the benchmarks' fresh accounts play ranked dailies and rated matches at once.
        "RANKED_MIN_AGE_HOURS": "0",
        "RANKED_MIN_GAMES": "0",
        **extra,
    }
