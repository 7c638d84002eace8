"""Floods (issue 21): the host-wide slots of solver runs and password checks, hints cached per
position and limited per address, and IPv6 clients counted per /64."""

from __future__ import annotations

import subprocess
import sys

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.hashers import MD5PasswordHasher, PBKDF2PasswordHasher
from django.core.cache import cache
from django.test import RequestFactory
from rest_framework.throttling import ScopedRateThrottle

from accounts.identity import SlotPasswordHasherMixin, SlotPBKDF2PasswordHasher
from canfield_site.settings import PASSWORD_HASHERS as PRODUCTION_HASHERS
from core.clients import client_address_hash, client_key
from core.slots import Busy, slot
from games import solver
from games.models import Game
from tests.games.helpers import easy_deck
from tests.games.test_api_games import act, create

PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def slots(settings, tmp_path):
    """Slot files of this test's own, and a short wait for a slot."""
    settings.SLOT_DIR = str(tmp_path / "slots")
    settings.SLOT_WAIT_SECONDS = 0.1
    cache.clear()  # hint answers
    return settings


@pytest.fixture
def searches(monkeypatch) -> list[object]:
    """Every position the solver is asked for a hint."""
    asked: list[object] = []
    real = solver.hint

    def counting(game):
        asked.append(solver.position(game))
        return real(game)

    monkeypatch.setattr(solver, "hint", counting)
    return asked


class SlotMD5PasswordHasher(SlotPasswordHasherMixin, MD5PasswordHasher):
    """The suite's fast hasher, capped as production's PBKDF2 is."""


@pytest.fixture
def slotted_hasher(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.SlotMD5PasswordHasher"]


def hint(client, game_id: str, address: str = "127.0.0.1"):
    return client.get(f"/api/v1/games/{game_id}/hint", REMOTE_ADDR=address)


# ---- slots ---------------------------------------------------------------------------------


def test_a_slot_is_shared_with_other_processes_and_freed_when_its_holder_dies(slots):
    # given: another process holding the one solver slot
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR); "
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
         f"{slots.SLOT_DIR}/solver-0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    with slot("solver", 1):  # creates the slot file, then lets the holder take it
        pass
    try:
        assert holder.stdout.readline() == b"held\n"
        # when / then: this process finds it busy, and a second slot would be free
        with pytest.raises(Busy) as busy, slot("solver", 1):
            pass
        assert busy.value.retry_after >= 1
        with slot("solver", 2):
            pass
    finally:
        holder.kill()
        holder.wait()
    # then: the holder's death freed its slot
    with slot("solver", 1):
        pass


def test_slots_of_one_kind_cap_concurrent_runs(slots):
    with slot("auth", 2), slot("auth", 2):
        with pytest.raises(Busy), slot("auth", 2):
            pass
        with slot("solver", 1):  # another kind has slots of its own
            pass
    with slot("auth", 2):
        pass


# ---- hints ---------------------------------------------------------------------------------


def test_a_hint_waits_for_the_solver_slot_then_answers_503_with_retry_after(auth_client, searches):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    with slot("solver", 1):  # every solver slot of the host busy
        response = hint(auth_client, game["id"])

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert int(response["Retry-After"]) >= 1
    assert searches == []
    assert Game.objects.get(pk=game["id"]).hints == 0  # not counted
    assert hint(auth_client, game["id"]).status_code == 200  # once the slot is free


def test_the_503_is_worded_in_the_callers_language(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})

    with slot("solver", 1):
        response = auth_client.get(f"/api/v1/games/{game['id']}/hint", HTTP_ACCEPT_LANGUAGE="hu")

    assert response.status_code == 503
    assert "busy" not in response.json()["error"]["message"]


def test_a_position_is_never_searched_twice(auth_client, make_user, client_for, searches):
    # given: two players on the same deal
    other = client_for(make_user("bob"))
    mine = create(auth_client, {"deck": easy_deck(), "draw": 1})
    theirs = create(other, {"deck": easy_deck(), "draw": 1})

    # when: both ask for hints at the start, one asks again, then at a new position
    first = hint(auth_client, mine["id"]).json()
    again = hint(auth_client, mine["id"]).json()
    same = hint(other, theirs["id"]).json()
    assert act(auth_client, mine["id"], first["action"]).status_code == 200
    moved = hint(auth_client, mine["id"]).json()

    # then: one search per position, the same answer from the cache, every hint counted
    assert first == again == same
    assert len(searches) == 2 and searches[0] != searches[1]
    assert moved["winnable"] is True
    assert Game.objects.get(pk=mine["id"]).hints == 3


@pytest.mark.usefixtures("hour_to_spare")
def test_hints_are_limited_per_address_across_accounts(
    auth_client, make_user, client_for, monkeypatch
):
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "hints": "100/hour", "hints_address": "3/hour"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    other = client_for(make_user("bob"))
    mine = create(auth_client, {"deck": easy_deck(), "draw": 1})
    theirs = create(other, {"deck": easy_deck(), "draw": 1})

    codes = [hint(auth_client, mine["id"], "10.1.0.1").status_code for _ in range(2)]
    codes += [hint(other, theirs["id"], "10.1.0.1").status_code for _ in range(2)]
    elsewhere = hint(other, theirs["id"], "10.1.0.2")

    assert codes == [200, 200, 200, 429]
    assert elsewhere.status_code == 200


# ---- password checks -----------------------------------------------------------------------


def test_production_hashes_with_djangos_pbkdf2_in_a_slot(slots):
    hasher = SlotPBKDF2PasswordHasher()
    encoded = hasher.encode("secret", "salt", iterations=2)

    assert PRODUCTION_HASHERS[0] == "accounts.identity.SlotPBKDF2PasswordHasher"
    assert encoded == PBKDF2PasswordHasher().encode("secret", "salt", iterations=2)
    assert hasher.verify("secret", encoded)
    with slot("auth", 1), pytest.raises(Busy):
        hasher.verify("secret", encoded)


def test_a_password_check_waits_for_the_auth_slot_then_answers_503(
    slotted_hasher, api_client, client, user, hashes
):
    with slot("auth", 1):  # every password slot of the host busy
        api = api_client.post(
            "/api/v1/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
        )
        web = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
        register = api_client.post(
            "/api/v1/auth/register", {"username": "bob", "password": PASSWORD}, format="json"
        )

    for response in (api, web, register):
        assert response.status_code == 503
        assert response.json()["error"]["code"] == "unavailable"
        assert int(response["Retry-After"]) >= 1
    assert hashes == []  # nothing hashed: no worker's CPU spent
    assert not AccessAttempt.objects.exists()  # a busy server is no failed login
    assert "_auth_user_id" not in client.session
    ok = api_client.post(
        "/api/v1/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert ok.status_code == 200


def test_reads_and_actions_take_no_auth_slot(auth_client):
    with slot("auth", 1):
        game = create(auth_client, {"deck": easy_deck(), "draw": 1})
        assert act(auth_client, game["id"], {"type": "draw"}).status_code == 200
        assert auth_client.get("/api/v1/daily").status_code == 200


# ---- IPv6 per /64 --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::"),
        ("2001:db8:1:2::1", "2001:db8:1:2::"),
        ("2001:db8:1:3::1", "2001:db8:1:3::"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
    ],
)
def test_counters_key_ipv6_clients_per_64(settings, address, key):
    settings.PROXY_COUNT = 1
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address)

    assert client_key(request) == key


def test_the_fair_play_address_hash_is_one_per_64(settings):
    settings.PROXY_COUNT = 1

    def hashed(address: str) -> str:
        request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=address)
        return client_address_hash(request)

    assert hashed("2001:db8:1:2::1") == hashed("2001:db8:1:2:aaaa:bbbb:cccc:dddd")
    assert hashed("2001:db8:1:2::1") != hashed("2001:db8:1:3::1")
    assert hashed("203.0.113.9") != hashed("203.0.113.10")


@pytest.mark.usefixtures("hour_to_spare")
def test_throttles_and_sign_ups_count_a_64_as_one_client(api_client, db, settings, monkeypatch):
    settings.PROXY_COUNT = 1
    settings.SIGNUP_LIMIT = 2
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"register": "100/hour"})

    def register(n: int, address: str) -> int:
        return api_client.post(
            "/api/v1/auth/register",
            {"username": f"player{n}", "password": PASSWORD},
            format="json",
            HTTP_X_FORWARDED_FOR=address,
        ).status_code

    codes = [register(n, f"2001:db8:5:6::{n + 1:x}") for n in range(3)]

    assert codes == [201, 201, 429]
    assert register(9, "2001:db8:5:7::1") == 201
