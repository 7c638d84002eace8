"""Fair play at the doors (issue 10): the client address behind our proxy, lock-outs on every
door that checks a password (django-axes, counters in the database), the sign-up limit and
the one username rule for the API and the web form."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from axes.models import AccessAttempt
from django.test import RequestFactory
from rest_framework.throttling import ScopedRateThrottle

from core.clients import client_address
from leaderboard.services import daily_game_get_or_create

REGISTER = "/api/v1/auth/register"
TOKEN = "/api/v1/auth/token"
PASSWORD = "correct-horse-battery"


@pytest.fixture
def limit(settings):
    settings.AXES_FAILURE_LIMIT = 3
    return 3


def token(api_client, username: str, password: str, address: str = "10.0.0.1", **headers):
    return api_client.post(
        TOKEN,
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **headers,
    )


# ---- client addresses ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.9", "10.0.0.1"),  # development: no header is trusted
        (1, "203.0.113.9", "203.0.113.9"),  # nginx's own value
        (1, "198.51.100.7, 203.0.113.9", "203.0.113.9"),  # a client's claim, then nginx's
        (1, "2001:db8::1", "2001:db8::1"),
        (1, "not-an-address", "10.0.0.1"),
        (1, "", "10.0.0.1"),  # straight to the app server, not through the proxy
        (2, "203.0.113.9", "10.0.0.1"),  # fewer entries than proxies: not through them
    ],
)
def test_the_client_address_is_the_one_the_trusted_proxy_saw(
    settings, proxies, forwarded, expected
):
    settings.PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)

    assert client_address(request) == expected


@pytest.mark.parametrize("peer", ["", "unix:/run/app.sock"])
def test_a_peer_without_an_ip_address_is_one_valid_address(api_client, db, peer, limit):
    # given: no usable REMOTE_ADDR (a Unix socket, a test transport)
    request = RequestFactory().get("/", REMOTE_ADDR=peer)
    assert client_address(request) == "0.0.0.0"

    # when: wrong passwords from there (the lock-out stores the address in the database)
    codes = [token(api_client, "nobody", "x", peer).status_code for _ in range(limit)]

    # then
    assert codes == [400] * (limit - 1) + [429]


@pytest.mark.usefixtures("hour_to_spare")
def test_a_forged_forwarded_for_does_not_move_the_token_limit(api_client, db, monkeypatch):
    # given: development settings (no proxy trusted) and a rate of 3 an hour
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"token": "3/hour"})

    # when: each request claims another address
    codes = [
        token(api_client, "nobody", "x", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
        for i in range(5)
    ]

    # then
    assert codes == [400, 400, 400, 429, 429]


@pytest.mark.usefixtures("hour_to_spare")
def test_behind_the_proxy_limits_count_per_proxy_seen_address(
    api_client, db, monkeypatch, settings
):
    # given: one proxy, which wrote the last X-Forwarded-For entry
    settings.PROXY_COUNT = 1
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"token": "2/hour"})

    def attempt(seen: str, claimed: str) -> int:
        forwarded = f"{claimed}, {seen}"
        return token(api_client, "nobody", "x", HTTP_X_FORWARDED_FOR=forwarded).status_code

    # when / then: the client's own claims change nothing, another real address counts apart
    assert [attempt("203.0.113.1", f"10.9.9.{i}") for i in range(3)] == [400, 400, 429]
    assert attempt("203.0.113.2", "10.9.9.9") == 400


# ---- lock-outs -----------------------------------------------------------------------------


def test_the_token_door_locks_an_account_at_an_address_out_and_stops_hashing(
    api_client, user, limit, hashes
):
    # given: `limit` wrong passwords for alice from one address
    codes = [token(api_client, "alice", "wrong", "10.0.1.1").status_code for _ in range(limit)]
    hashed = len(hashes)

    # when: the right password, from that address
    response = token(api_client, "alice", PASSWORD, "10.0.1.1")

    # then: the last failure already answered the lock-out; the right password is refused
    # without hashing anything
    assert codes == [400] * (limit - 1) + [429]
    assert hashed == limit
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    assert len(hashes) == hashed
    assert AccessAttempt.objects.get(username="alice").failures_since_start == limit


def test_failures_spread_over_addresses_lock_nobody_out(api_client, user, limit):
    codes = [token(api_client, "alice", "wrong", f"10.0.1.{i}").status_code for i in range(limit)]

    assert codes == [400] * limit
    assert token(api_client, "alice", PASSWORD, "10.0.1.99").status_code == 200


def test_the_lock_out_counts_names_without_regard_to_case(api_client, user, limit):
    names = ["alice", "ALICE", "Alice"]
    codes = [token(api_client, name, "wrong", "10.0.2.1").status_code for name in names]

    assert codes[-1] == 429
    assert token(api_client, "alice", PASSWORD, "10.0.2.1").status_code == 429


def test_the_token_door_locks_an_address_out_whatever_the_names(api_client, user, limit, hashes):
    # given: one address tries `limit` different names
    for i in range(limit):
        token(api_client, f"guess{i}", "wrong", "10.0.3.1")
    hashed = len(hashes)

    # when: a real account from that address, and from another one
    locked = token(api_client, "alice", PASSWORD, "10.0.3.1")
    elsewhere = token(api_client, "alice", PASSWORD, "10.0.3.2")

    # then
    assert locked.status_code == 429
    assert len(hashes) == hashed + 1  # only the other address's login hashed a password
    assert elsewhere.status_code == 200


def door_login(door: str, client, api_client, username: str, password: str, address: str) -> bool:
    """Logs in through one door from `address`; whether it let the account in."""
    if door == "token":
        return token(api_client, username, password, address).status_code == 200
    path = {"web": "/accounts/login/", "admin": "/admin/login/"}[door]
    client.logout()
    response = client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)
    return response.status_code == 302 and "_auth_user_id" in client.session


@pytest.mark.parametrize("door", ["token", "web", "admin"])
def test_guessing_from_one_address_never_locks_the_owner_out_elsewhere(
    client, api_client, user, settings, door
):
    # given: a staff account (the admin door too), and more wrong passwords for it from
    # address A than the lock-out allows, through every door
    user.is_staff = True
    user.save()
    doors = ["token", "web", "admin"]
    for n in range(settings.AXES_FAILURE_LIMIT + 2):
        door_login(doors[n % 3], client, api_client, "alice", "wrong", "198.51.100.1")

    # when / then: A is locked out, for alice and for anyone; alice from B gets in
    assert not door_login(door, client, api_client, "alice", PASSWORD, "198.51.100.1")
    assert not door_login(door, client, api_client, "admin", "password", "198.51.100.1")
    assert door_login(door, client, api_client, "alice", PASSWORD, "203.0.113.7")


def test_an_ipv6_lock_out_covers_its_whole_64(api_client, user, limit, settings):
    # given: wrong passwords from addresses of one /64 (behind the proxy)
    settings.PROXY_COUNT = 1

    def attempt(address: str, password: str) -> int:
        return token(api_client, "alice", password, HTTP_X_FORWARDED_FOR=address).status_code

    codes = [attempt(f"2001:db8:1:2::{i + 1:x}", "wrong") for i in range(limit)]

    # then: any address of that /64 is locked out; the next /64 is another client
    assert codes == [400] * (limit - 1) + [429]
    assert attempt("2001:db8:1:2:ffff:ffff:ffff:ffff", PASSWORD) == 429
    assert attempt("2001:db8:1:3::1", PASSWORD) == 200


def test_a_lock_out_ends_after_its_cool_off(api_client, user, limit, settings):
    start = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False) as clock:
        for _ in range(limit):
            token(api_client, "alice", "wrong")
        assert token(api_client, "alice", PASSWORD).status_code == 429

        clock.shift(dt.timedelta(minutes=14))
        still = token(api_client, "alice", PASSWORD)
        clock.shift(dt.timedelta(minutes=2))
        after = token(api_client, "alice", PASSWORD)

    assert still.status_code == 429
    assert int(still["Retry-After"]) <= 60
    assert after.status_code == 200


def test_a_success_on_another_account_clears_no_failures(api_client, user, make_user, limit):
    # given: an attacker with an account of its own, one failure short of the limit
    make_user("mallory", PASSWORD)
    for _ in range(limit - 1):
        token(api_client, "alice", "wrong", "10.0.5.1")

    # when: it logs in to its own account, then guesses again
    own = token(api_client, "mallory", PASSWORD, "10.0.5.1")
    guess = token(api_client, "alice", "wrong", "10.0.5.1")

    # then: its success did not clear alice's count
    assert own.status_code == 200
    assert guess.status_code == 429


def test_the_web_login_locks_out_with_a_page(client, user, limit, hashes):
    for _ in range(limit):
        client.post(
            "/accounts/login/", {"username": "alice", "password": "x"}, REMOTE_ADDR="10.0.5.1"
        )
    hashed = len(hashes)

    response = client.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.5.1"
    )

    assert response.status_code == 429
    assert b"Too many failed logins" in response.content
    assert "Retry-After" in response
    assert len(hashes) == hashed
    assert "_auth_user_id" not in client.session


def test_the_admin_login_locks_out(client, admin_user, limit, hashes):
    for _ in range(limit):
        client.post("/admin/login/", {"username": "admin", "password": "wrong"})
    hashed = len(hashes)

    response = client.post("/admin/login/", {"username": "admin", "password": "password"})

    assert response.status_code == 429
    assert len(hashes) == hashed
    assert client.get("/admin/").status_code == 302  # still not logged in


def test_the_web_and_api_doors_share_one_count(client, api_client, user, limit):
    client.post("/accounts/login/", {"username": "alice", "password": "x"}, REMOTE_ADDR="10.0.6.1")
    client.post("/admin/login/", {"username": "alice", "password": "x"}, REMOTE_ADDR="10.0.6.1")
    token(api_client, "alice", "wrong", "10.0.6.1")

    assert token(api_client, "alice", PASSWORD, "10.0.6.1").status_code == 429


# ---- sign-up limit -------------------------------------------------------------------------


def register(
    api_client, username: str, address: str = "10.1.0.1", password: str = "correct-horse-99"
):
    return api_client.post(
        REGISTER, {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


@pytest.mark.usefixtures("hour_to_spare")
def test_api_sign_ups_count_accounts_created_per_address(api_client, db, settings, hashes):
    settings.SIGNUP_LIMIT = 2

    refused = [register(api_client, "weak", password="123").status_code for _ in range(3)]
    created = [register(api_client, f"player{i}").status_code for i in range(2)]
    hashed = len(hashes)
    over = register(api_client, "player9")
    other_address = register(api_client, "player8", address="10.1.0.2")

    assert refused == [400, 400, 400]  # refused sign-ups create nothing and count nothing
    assert created == [201, 201]
    assert over.status_code == 429
    assert over.json()["error"]["code"] == "throttled"
    assert 0 < int(over["Retry-After"]) <= 3600
    assert len(hashes) == hashed + 1  # only the other address's account was hashed
    assert other_address.status_code == 201


@pytest.mark.usefixtures("hour_to_spare")
def test_web_sign_ups_share_the_limit(client, api_client, db, settings):
    settings.SIGNUP_LIMIT = 2
    register(api_client, "player1", address="127.0.0.1")
    form = {"username": "player2", "password1": "green-felt-42x", "password2": "green-felt-42x"}
    assert client.post("/accounts/signup/", form).status_code == 302
    client.logout()

    response = client.post("/accounts/signup/", form | {"username": "player3"})

    assert response.status_code == 429
    assert b"Too many accounts" in response.content
    assert "Retry-After" in response


# ---- usernames -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("\uff23\uff28\uff21\uff2d\uff30", "U+FF23"),  # full-width CHAMP
        ("\u0430dmin", "U+0430"),  # Cyrillic a
        ("ab", "3–30 characters"),
        ("x" * 31, "3–30 characters"),
        ("bob.smith", "3–30 characters"),
        ("da ve", "3–30 characters"),
    ],
)
def test_the_api_refuses_names_outside_the_rule_and_says_why(api_client, db, name, said):
    response = register(api_client, name)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert said in error["message"]


@pytest.mark.parametrize(("name", "said"), [("\u0430dmin", "U+0430"), ("ab", "3–30")])
def test_the_web_form_refuses_the_same_names(client, db, name, said):
    form = {"username": name, "password1": "green-felt-42x", "password2": "green-felt-42x"}

    response = client.post("/accounts/signup/", form)

    assert response.status_code == 200
    assert said in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("name", ["Ab_", "a-b", "A1_-z9", "x" * 30])
def test_names_within_the_rule_are_accepted(api_client, db, name):
    assert register(api_client, name).status_code == 201


def test_names_are_unique_without_regard_to_case_on_both_doors(client, api_client, db):
    assert register(api_client, "Champ").status_code == 201

    api = register(api_client, "cHAMP")
    form = {"username": "CHAMP", "password1": "green-felt-42x", "password2": "green-felt-42x"}
    web = client.post("/accounts/signup/", form)

    assert api.status_code == 400
    assert "taken" in api.json()["error"]["message"]
    assert "taken" in web.content.decode()


def test_names_made_before_the_rule_keep_working(api_client, client, make_user):
    # given: an account whose name the rule would refuse today
    old = make_user("Öld.Timer", PASSWORD)
    daily_game_get_or_create(player=old, draw=3)

    # when / then: it logs in on both doors and shows on the board and its page
    assert token(api_client, "Öld.Timer", PASSWORD).status_code == 200
    assert (
        client.post("/accounts/login/", {"username": "Öld.Timer", "password": PASSWORD}).status_code
        == 302
    )
    board = api_client.get("/api/v1/daily").json()
    date = board["date"]
    entries = api_client.get(f"/api/v1/daily/{date}/leaderboard?draw=3").json()["results"]
    assert [entry["player"] for entry in entries] == ["Öld.Timer"]
    assert api_client.get("/api/v1/players/Öld.Timer").status_code == 200
