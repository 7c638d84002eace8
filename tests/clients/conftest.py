"""The Python client and the terminal command against a real server: the suite's daphne
subprocess on its own database (tests/conftest.py: `base_url`), whose throttles these tests
need (`HINT_RATE`)."""

from __future__ import annotations

import pytest
from canfield_client import Client

from tests.conftest import HINT_RATE  # noqa: F401 (the server's, for tests/clients/test_client.py)
from tests.web.helpers import PASSWORD, unique_name


@pytest.fixture
def player(base_url):
    """A new account's client, closed after the test."""
    with Client(base_url) as client:
        client.register(unique_name("cli"), PASSWORD)
        yield client
