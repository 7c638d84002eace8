"""Each account's budget of failures across addresses (ACCOUNT_FAILURE_BUDGET, 100 an hour:
accounts.identity.BudgetedAxesHandler): guessing spread over many addresses is refused once the
budget is spent, without hashing, while the owner keeps its known browsers and addresses and
its sessions and keys."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import RequestFactory
from rest_framework.test import APIClient

from accounts.services import key_create
from core.clients import DEVICE_COOKIE, client_address_hash, client_device_hash
from games.services import game_create

TOKEN = "/api/v1/auth/token"
PASSWORD = "correct-horse-battery"
DEVICE = "d" * 43  # a device cookie as DeviceCookieMiddleware makes them (43 URL-safe chars)
HOME = "192.0.2.7"


def token(api, username: str, password: str, address: str):
    return api.post(
        TOKEN, {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


def guessed(api, name: str, failures: int) -> list[int]:
    """`failures` wrong passwords for `name`, 4 from each address (under axes' 10 an address)."""
    return [
        token(api, name, f"guess-{n}", f"10.{n // 4 // 250}.{n // 4 % 250}.9").status_code
        for n in range(failures)
    ]


@pytest.fixture
def owner(user):
    """alice, who dealt a game in her browser at home."""
    seen = RequestFactory().get("/", REMOTE_ADDR=HOME)
    seen.COOKIES[DEVICE_COOKIE] = DEVICE
    game_create(
        owner=user, address_hash=client_address_hash(seen), device_hash=client_device_hash(seen)
    )
    return user


@pytest.fixture
def budget(settings):
    assert settings.ACCOUNT_FAILURE_BUDGET == 100  # the documented default
    return 100


def test_the_101st_failure_in_an_hour_across_addresses_is_refused(owner, budget, hashes):
    # given: 100 wrong passwords for alice from 25 addresses (no address near axes' limit),
    # and a session and a key of hers from before
    api = APIClient()
    session = APIClient()
    session.force_login(owner)
    _row, key = key_create(user=owner, name="bot")
    keyed = APIClient()
    keyed.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    codes = guessed(api, "alice", budget)
    hashed = len(hashes)

    # when: the next try, from a new address, even with the right password
    refused = token(api, "Alice", PASSWORD, "203.0.113.50")

    # then: every failure was a real check; the 101st is refused without one
    assert codes == [400] * budget
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    assert len(hashes) == hashed

    # and: her session and key still work, for reads and for her password doors
    assert session.get("/api/v1/account").status_code == 200
    assert keyed.get("/api/v1/account").status_code == 200
    changed = keyed.post(
        "/api/v1/account/password",
        {"password": PASSWORD, "new_password": "another-horse-battery"},
        format="json",
        REMOTE_ADDR="203.0.113.51",
    )
    assert changed.status_code == 204, changed.content


def test_the_owner_keeps_her_known_browser_and_address(owner, budget, client):
    # given: the budget spent by guessing from elsewhere
    guessed(APIClient(), "alice", budget)

    # when: alice logs in from her browser on another network, and from home without it
    client.cookies[DEVICE_COOKIE] = DEVICE
    browser = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="198.51.100.77",
    )
    home = token(APIClient(), "alice", PASSWORD, HOME)
    stranger = token(APIClient(), "alice", PASSWORD, "198.51.100.78")

    # then: both known clients are let in; an unknown one is not
    assert browser.status_code == 302 and "_auth_user_id" in client.session
    assert home.status_code == 200
    assert stranger.status_code == 429


def test_the_budget_is_per_account(owner, make_user, budget):
    # given: alice's budget spent
    make_user("bob")
    api = APIClient()
    guessed(api, "alice", budget)

    # when / then: bob, from an address alice's guesser used, is not concerned
    assert token(api, "bob", PASSWORD, "10.0.1.9").status_code == 200


def test_the_budget_slides_back_within_the_next_hour(owner, budget):
    # given: the budget spent now
    api = APIClient()
    with time_machine.travel(dt.datetime(2026, 12, 5, 10, 30, tzinfo=dt.UTC), tick=False):
        guessed(api, "alice", budget)
        assert token(api, "alice", PASSWORD, "203.0.113.60").status_code == 429

    # when / then: half an hour on, the first hour's failures still count in part
    with time_machine.travel(dt.datetime(2026, 12, 5, 11, 0, tzinfo=dt.UTC), tick=False):
        assert token(api, "alice", PASSWORD, "203.0.113.61").status_code == 429

    # and: an hour on, alice gets in from anywhere
    with time_machine.travel(dt.datetime(2026, 12, 5, 11, 31, tzinfo=dt.UTC), tick=False):
        assert token(api, "alice", PASSWORD, "203.0.113.62").status_code == 200
