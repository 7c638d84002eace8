"""Limits on dealing games (docs/api.md "Conventions": rate limits): `POST games` per account and
per client address, guests per address and from all addresses together; the site's Play now counts
in the same limits. The clock stands still mid-window: a window's end never falls inside a test."""

import datetime as dt
import json

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from games.models import Game
from tests.games.test_guests import play_now

GAMES = "/api/v1/games"
MID_WINDOW = dt.datetime(2026, 12, 5, 12, 30, 30, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def still_clock():
    with time_machine.travel(MID_WINDOW, tick=False):
        yield


def deal(client, address="10.3.0.1"):
    return client.post(
        GAMES, json.dumps({"draw": 3}), content_type="application/json", REMOTE_ADDR=address
    )


def test_the_n_plus_first_game_of_an_account_in_a_window_is_refused(
    user, auth_client, make_user, client_for, monkeypatch
):
    # given: 3 games a minute per account
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "games", "3/minute")
    made = [deal(auth_client).status_code for _ in range(3)]
    game = Game.objects.filter(owner=user).first()

    # when
    over = deal(auth_client)

    # then: 429 throttled, with when to retry; nothing dealt
    assert made == [201, 201, 201]
    assert over.status_code == 429
    assert over.json()["error"]["code"] == "throttled"
    assert 0 < int(over["Retry-After"]) <= 60
    assert over["RateLimit-Limit"] == "3" and over["RateLimit-Remaining"] == "0"
    assert Game.objects.filter(owner=user).count() == 3
    # and the rest is unaffected: its reads and actions, another account on the same address
    assert auth_client.get(GAMES).status_code == 200
    action = auth_client.post(f"{GAMES}/{game.pk}/actions", {"type": "draw"}, format="json")
    assert action.status_code == 200
    assert deal(client_for(make_user("bob"))).status_code == 201


def test_an_accounts_minute_is_spread_over_its_seconds(user, auth_client, monkeypatch):
    # given: 30 games a minute, at most 2 of them a second
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "games", "30/minute")
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "games_burst", "2/second")

    # when: three games in one second, then one in the next second
    made = [deal(auth_client).status_code for _ in range(2)]
    over = deal(auth_client)
    with time_machine.travel(MID_WINDOW + dt.timedelta(seconds=1), tick=False):
        later = deal(auth_client)

    # then: the third waits for the next second, which deals again
    assert made == [201, 201]
    assert over.status_code == 429 and over.json()["error"]["code"] == "throttled"
    assert over["Retry-After"] == "1"
    assert later.status_code == 201
    assert Game.objects.filter(owner=user).count() == 3


def test_games_are_limited_per_address_across_accounts(make_user, client_for, monkeypatch):
    # given: 3 games a minute per address, whatever the account
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "games_address", "3/minute")
    anna, bob = client_for(make_user("anna")), client_for(make_user("bob"))

    # when: two accounts on one address deal 4 games, then one from elsewhere
    codes = [deal(anna).status_code, deal(anna).status_code, deal(bob).status_code]
    over = deal(bob)
    elsewhere = deal(bob, address="10.3.0.2")

    # then
    assert codes == [201, 201, 201]
    assert over.status_code == 429 and over.json()["error"]["code"] == "throttled"
    assert elsewhere.status_code == 201


def test_play_now_counts_in_the_accounts_games(user, monkeypatch):
    # given: 2 games a minute per account, one dealt through the API
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "games", "2/minute")
    site = Client()
    site.force_login(user)
    assert deal(site).status_code == 201

    # when: Play now twice
    first, second = play_now(site), play_now(site)

    # then: the second is refused with the site's 429 page
    assert first.status_code == 302
    assert second.status_code == 429 and b"Too many games" in second.content
    assert 0 < int(second["Retry-After"]) <= 60
    assert Game.objects.filter(owner=user).count() == 2


def test_guests_from_many_addresses_are_limited_together(db, settings):
    # given: 3 guests a minute from all addresses, 20 an hour per address
    settings.GUEST_GLOBAL_LIMIT = 3
    made = [play_now(Client(), address=f"10.4.0.{i}").status_code for i in range(1, 4)]

    # when: a fourth address
    over = play_now(Client(), address="10.4.0.4")

    # then: refused for the rest of the minute; nothing made
    assert made == [302, 302, 302]
    assert over.status_code == 429 and b"Too many guests are arriving" in over.content
    assert 0 < int(over["Retry-After"]) <= 60
    assert get_user_model().objects.count() == 3
    assert Game.objects.count() == 3


def test_guests_from_all_addresses_are_spread_over_the_seconds(db, settings):
    # given: at most 2 guests a second from all addresses (30 a minute)
    settings.GUEST_GLOBAL_LIMIT, settings.GUEST_GLOBAL_BURST = 30, 2
    made = [play_now(Client(), address=f"10.5.0.{i}").status_code for i in range(1, 3)]

    # when: a third address in the same second, and one in the next second
    over = play_now(Client(), address="10.5.0.3")
    with time_machine.travel(MID_WINDOW + dt.timedelta(seconds=1), tick=False):
        later = play_now(Client(), address="10.5.0.4")

    # then: the third waits a second; the next second makes a guest again
    assert made == [302, 302]
    assert over.status_code == 429 and b"Try again in a moment" in over.content
    assert over["Retry-After"] == "1"
    assert later.status_code == 302
    assert get_user_model().objects.count() == 3
