import os
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

requires_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs DATABASE_URL pointing at PostgreSQL",
)
requires_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL pointing at Redis"
)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters live in the cache: each test starts with none; nor does any test see
    the challenges an earlier one's actions kept (their ids are reused)."""
    from leaderboard import services as leaderboard_services

    cache.clear()
    leaderboard_services._challenges.clear()


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
        token, _ = Token.objects.get_or_create(user=user)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def auth_client(user, client_for) -> APIClient:
    return client_for(user)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# One browser for the whole run, here at the root: Playwright's sync API allows one instance per
# thread, so a second session fixture (another folder's copy) would fail to start.
@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()
