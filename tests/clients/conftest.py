"""The Python client and the terminal command against a real server: the browser tests' daphne
subprocess on its own database (tests/web/conftest.py), with the throttles these tests need."""

from __future__ import annotations

import os

import pytest
from canfield_client import Client

from tests.web.conftest import (  # noqa: F401 (fixtures)
    base_url,
    browser,
    run_on_server,
    server_database,
)
from tests.web.helpers import PASSWORD, unique_name

# Logins are throttled low so that a test can reach the limit; sign-ups and hints high enough
# for every test (the counters outlive a run when the server's cache is Redis).
TOKEN_RATE = 5


@pytest.fixture(scope="session")
def server_env(server_database) -> dict[str, str]:  # noqa: F811
    return dict(
        os.environ,
        DATABASE_URL=server_database,
        DJANGO_DEBUG="1",
        PYTHONUNBUFFERED="1",
        THROTTLE_REGISTER="1000/minute",
        THROTTLE_TOKEN=f"{TOKEN_RATE}/minute",
        THROTTLE_HINTS="1000/minute",
    )


@pytest.fixture
def player(base_url):  # noqa: F811
    """A new account's client, closed after the test."""
    with Client(base_url) as client:
        client.register(unique_name("cli"), PASSWORD)
        yield client
