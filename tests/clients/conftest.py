"""The Python client and the terminal command against a real server: the browser tests' daphne
subprocess on its own database (tests/web/conftest.py), with the throttles these tests need."""

from __future__ import annotations

import os

import pytest
from canfield_client import Client

from tests.web.conftest import (  # noqa: F401 (fixtures)
    base_url,
    run_on_server,
    server_database,
)
from tests.web.helpers import PASSWORD, unique_name

# Hints are throttled per account, low enough for a test to reach the limit with an account of
# its own, high enough for a game won by hints; sign-ups, logins and hints per address (every
# test's client has the same one) are not limited (the counters outlive a run when the server's
# cache is Redis).
HINT_RATE = 100


@pytest.fixture(scope="session")
def server_env(server_database) -> dict[str, str]:  # noqa: F811
    return dict(
        os.environ,
        DATABASE_URL=server_database,
        DJANGO_DEBUG="1",
        PYTHONUNBUFFERED="1",
        THROTTLE_REGISTER="1000/minute",
        THROTTLE_TOKEN="1000/minute",
        THROTTLE_HINTS=f"{HINT_RATE}/minute",
        THROTTLE_HINTS_ADDRESS="100000/minute",
        # One trusted proxy: a test's players come from the addresses their X-Forwarded-For
        # says (matchmaking never seats two accounts of one address together, R32); a request
        # without the header is the peer's, as before.
        PROXY_COUNT="1",
    )


@pytest.fixture
def player(base_url):  # noqa: F811
    """A new account's client, closed after the test."""
    with Client(base_url) as client:
        client.register(unique_name("cli"), PASSWORD)
        yield client
