import asyncio
import datetime as dt
import hashlib
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from tests.server_shell import ServerShell
from tests.shared import built_once

ROOT = Path(__file__).resolve().parents[1]

requires_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs DATABASE_URL pointing at PostgreSQL",
)
requires_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL pointing at Redis"
)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters live in the cache (their leases in the process): each test starts with
    none; nor does any test see the challenges an earlier one's actions kept (their ids are
    reused)."""
    from core import throttling
    from games import services as game_services
    from leaderboard import services as leaderboard_services

    cache.clear()
    throttling._leases.clear()
    leaderboard_services._challenges.clear()
    game_services._day_ends.clear()


@pytest.fixture
def hour_to_spare() -> Iterator[None]:
    """For a test that counts up to a limit kept per clock hour (a fixed window: the throttles'
    `N/hour`, the sign-up, guest and app-registration limits): all its requests fall in one
    hour. Within a minute of the hour's end the clock moves on into the next hour (forward:
    nothing made before is in the test's future) and runs from there."""
    now = timezone.now()
    into = dt.timedelta(minutes=now.minute, seconds=now.second, microseconds=now.microsecond)
    left = dt.timedelta(hours=1) - into
    if left > dt.timedelta(minutes=1):
        yield
        return
    with time_machine.travel(now + left + dt.timedelta(seconds=1), tick=True):
        yield


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test's event loops get channel layers of their own. channels_redis binds its receive
    lock to the event loop that first receives with it, and a test whose loop ends while a
    board or match hub of it is still waiting on the layer leaves the lock held: the next
    test's loop then failed every receive ("bound to a different event loop") and its live
    board heard nothing for a while (CI, 2026-12-05). A server runs one loop per process."""
    yield
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db):
    def make(username: str = "alice", password: str = "correct-horse-battery"):
        return get_user_model().objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def user(make_user):
    return make_user()


@pytest.fixture
def client_for():
    """An API client authenticated with the user's token, as a third-party client would be."""

    def make(user) -> APIClient:
        from accounts.services import key_create

        _row, key = key_create(user=user, name="test")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return make


@pytest.fixture
def auth_client(user, client_for) -> APIClient:
    return client_for(user)


# The suite's server: one uvicorn process (scripts/serve-ws.sh, production's ASGI server, HTTP
# and WebSockets) per pytest-xdist worker on a database of its own, for the browser tests
# (tests/web), the Python and TypeScript clients' tests (tests/clients,
# tests/games/test_*client.py) and the stream tests. It was daphne until 2026-12-07: uvicorn
# serves a request for ~25 % less CPU (2.8 -> 2.15 ms a ping, 6.1 -> 5.1 ms the home page) and
# runs the live boards' production write path (leaderboard/consumers.py). Defined here, once:
# a module that imported these fixtures defined copies of them, and each copy started a server
# of its own on a database of its own (a migrate and a server start: ~15 CPU-seconds each, seven
# a pass). Tests that need a server configured otherwise start their own (tests/web/test_archive.py,
# test_production_static.py, tests/games/test_stream_limits.py).
# Hints are throttled per account, low enough for a test to reach the limit with an account of
# its own (tests/clients/test_client.py), high enough for a game won by hints; sign-ups, logins
# and hints per address (every test's client has the same one) are not limited in practice (the
# counters outlive a test when the server's cache is Redis).
HINT_RATE = 100


def _migrate(database_url: str) -> None:
    """`manage.py migrate` of the suite's settings on `database_url` (no Redis: a migrate uses
    none)."""
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env=env | {"DJANGO_DEBUG": "1", "DATABASE_URL": database_url}, check=True,
    )  # fmt: skip


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """An SQLite database migrated once per run (tests/shared.py; once per worker without a
    TEST_SHARED_DIR): the servers the tests start on an SQLite file of their own start on a copy
    of it (the suite's server in the SQLite pass, the stream and socket limits' servers) rather
    than migrate one each (~5 CPU-seconds a migrate). Only read."""
    built = built_once(
        "sqlite-migrated",
        lambda out: _migrate(f"sqlite:///{out / 'db.sqlite3'}"),
        lambda: tmp_path_factory.mktemp("migrated"),
    )
    return built / "db.sqlite3"


@pytest.fixture(scope="session")
def postgres_template() -> str | None:
    """On PostgreSQL (DATABASE_URL), the name of a database of its server migrated as the
    project's migrations and locked dependencies (their apps' migrations) say, built once under
    an advisory lock and kept for later runs (its name is their hash): the suite's databases on
    PostgreSQL are copies of it (CREATE DATABASE ... TEMPLATE), not each a full migrate (~3
    CPU-seconds in the test process and as much for PostgreSQL, three workers and their servers
    a pass). None elsewhere."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return None
    import psycopg

    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")) + [ROOT / "requirements-dev.lock"]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    name = f"canfield_template_{digest.hexdigest()[:16]}"
    parts = urlsplit(url)
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        # (another worker or run may be building it)
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", [name])
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            building = f"{name}_building"
            conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{building}"')
            _migrate(urlunsplit(parts._replace(path=f"/{building}")))
            conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
        conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", [name])
    return name


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, postgres_template):
    """pytest-django's test database on PostgreSQL is a copy of the migrated template (its
    migrate then finds nothing to do)."""
    from django.conf import settings

    if postgres_template:
        settings.DATABASES["default"].setdefault("TEST", {})["TEMPLATE"] = postgres_template


@pytest.fixture(scope="session")
def server_database(request, tmp_path_factory, postgres_template) -> Iterator[str]:
    """A migrated database of the server's own: on PostgreSQL (DATABASE_URL's server) a copy of
    the migrated template, dropped afterwards; else an SQLite file, a copy of one migrated."""
    if not postgres_template:
        database = tmp_path_factory.mktemp("web") / "browser.sqlite3"
        shutil.copy(request.getfixturevalue("migrated_sqlite"), database)
        yield f"sqlite:///{database}"
        return
    import psycopg

    name = f"canfield_browser_{secrets.token_hex(4)}"
    parts = urlsplit(os.environ["DATABASE_URL"])
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{postgres_template}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def server_env(server_database) -> dict[str, str]:
    # One trusted proxy: a browser context or client whose requests carry X-Forwarded-For comes
    # from that address (matchmaking never seats two accounts of one address together, R32); a
    # request without the header is the peer's, as before.
    return dict(
        os.environ,
        DATABASE_URL=server_database,
        DJANGO_DEBUG="1",
        PYTHONUNBUFFERED="1",
        PROXY_COUNT="1",
        THROTTLE_REGISTER="1000/minute",
        THROTTLE_TOKEN="1000/minute",
        THROTTLE_HINTS=f"{HINT_RATE}/minute",
        THROTTLE_HINTS_ADDRESS="100000/minute",
    )


@pytest.fixture(scope="session")
def run_on_server(server_env, base_url) -> Iterator[ServerShell]:
    """Runs Python as `manage.py shell -c` does against the server's database, in one process
    kept for the run (tests/server_shell.py): setting up what a test needs in bulk (many
    players) goes through the services, not a browser."""
    shell = ServerShell(ROOT, server_env)
    yield shell
    shell.close()


@pytest.fixture(scope="session")
def played_day(run_on_server) -> None:
    """The dailies of the request examples' day exist (canfield_site/examples.py: only today's
    are made on demand)."""
    from canfield_site.examples import DATE

    run_on_server(
        "import datetime as dt; from leaderboard.services import challenge_get_or_create as made; "
        f"[made(date=dt.date.fromisoformat({DATE!r}), draw=d) for d in (3, 1)]"
    )


# The suite server's log once started (this worker's), and where it stood when each test began.
_server_logs: list[Path] = []
_log_start = pytest.StashKey[int]()
# The most of it a failing test's report shows.
LOG_SHOWN = 8000


@pytest.fixture(scope="session")
def server_log(tmp_path_factory) -> Path:
    """The suite server's output (the app's request lines and warnings): the report of a
    failing test that used the server shows what it logged meanwhile (below)."""
    path = tmp_path_factory.mktemp("web-log") / "server.log"
    _server_logs.append(path)
    return path


def _log_size() -> int:
    try:
        return _server_logs[0].stat().st_size if _server_logs else 0
    except OSError:
        return 0


def pytest_runtest_setup(item):
    item.stash[_log_start] = _log_size()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test that used the suite server: its report carries what the server logged
    while it ran (a warning there, e.g. Redis answering late, is often the cause)."""
    report = yield
    if report.failed and _server_logs and "base_url" in item.fixturenames:
        start = item.stash.get(_log_start, 0)
        try:
            with open(_server_logs[0], "rb") as log:
                text = log.read().decode(errors="replace")
        except OSError as error:
            text = repr(error)
        # (and its warnings from before: one logged once per interval may name the cause)
        warned = [line for line in text[:start].splitlines() if '"level": "warning"' in line]
        logged = text[max(start, len(text) - LOG_SHOWN) :]
        report.sections.append(("the suite server's warnings before", "\n".join(warned[-20:])))
        report.sections.append(("the suite server's log while the test ran", logged))
    return report


@pytest.fixture(scope="session")
def base_url(server_env, server_log) -> Iterator[str]:
    from tests.web.conftest import asgi_server

    with asgi_server(server_env, server_log) as url:  # (its database is migrated)
        yield url


# Debian's build of Chromium's headless shell (package chromium-headless-shell, from the
# chromium sources): what Playwright itself runs for a headless browser. The full browser
# (/usr/bin/chromium, headless) drew the same pages for ~45 % more CPU: tests/web without
# Lighthouse 190 -> 131 CPU-seconds, 205 -> 140 s on two workers (2026-12-06). Lighthouse runs
# the full browser (bench/lighthouse.py), as a phone's Chrome would be measured.
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# One browser for the whole run (of each pytest-xdist worker), here at the root: Playwright's
# sync API allows one instance per thread, so a second session fixture (another folder's copy)
# would fail to start.
@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        playwright_loop = asyncio._get_running_loop()
        yield browser
        # The run may end in a test without the browser, run with the mark lifted (below).
        asyncio._set_running_loop(playwright_loop)
        browser.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Playwright's sync API marks this thread's event loop as running between its calls, for as
    long as the browser is open; Django then refuses ORM calls (SynchronousOnlyOperation) and
    asgiref refuses async_to_sync. A test that does not use the browser runs with the mark
    lifted: on a pytest-xdist worker it may come after browser tests."""
    loop = asyncio._get_running_loop()
    if loop is None or "browser" in getattr(item, "fixturenames", ()):
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        if not loop.is_closed():
            asyncio._set_running_loop(loop)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "topology: the file starts production topologies (the longest files)"
    )


def _waits_on_processes(item) -> int:
    """0 for a test on production topologies (marked), 1 for one on a browser or a server
    started for the tests, 2 for the rest."""
    if item.get_closest_marker("topology"):
        return 0
    fixturenames = set(getattr(item, "fixturenames", ()))
    return 1 if {"browser", "base_url", "servers"} & fixturenames else 2


def pytest_collection_modifyitems(items):
    """Files whose tests wait on real processes first, whole files in their own order: with
    pytest-xdist (`--dist loadfile`) the long ones start at once and the quick ones fill the
    workers in beside them and at the end. (Lighthouse's and the two nodes' files, which start
    their topologies without the `topology` fixture, ran last and made the run's tail.)"""
    rank: dict[str, int] = {}
    for item in items:
        key = item.nodeid.split("::")[0]
        rank[key] = min(rank.get(key, 2), _waits_on_processes(item))
    items.sort(key=lambda item: rank[item.nodeid.split("::")[0]])


# Files that share a session fixture costly enough to be made once per run rather than once
# per worker: each is sent to the worker of the first (whole, in its own order, as every file).
# The TypeScript SDK's build (tests/clients/conftest.py: `compiled`, three compiler runs,
# ~22 CPU-seconds) serves the SDK's tests and docs/first-game.md's.
SAME_WORKER = {"tests/clients/test_first_game_doc.py": "tests/clients/test_typescript_sdk.py"}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadFileScheduling

    if config.getvalue("dist") != "loadfile":
        return None

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return SAME_WORKER.get(path, path)

    return Scheduling(config, log)
