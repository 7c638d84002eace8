"""The caller's account (GET account) and its declaration as a bot (POST account/bot, R34)."""

import datetime as dt

import pytest
from rest_framework.throttling import ScopedRateThrottle

from accounts.models import Player

ACCOUNT = "/api/v1/account"
BOT = "/api/v1/account/bot"
SCOPES = ["account:read", "account:write", "game:play", "board:read"]


def test_the_account_says_who_the_caller_is(auth_client, user):
    response = auth_client.get(ACCOUNT)

    assert response.status_code == 200
    body = response.json()
    assert body == {
        "username": "alice",
        "bot": False,
        "created": body["created"],
        "scopes": SCOPES,
        # R36 (tests/settings.py: no minimum age nor games, so every account is in standing)
        "standing": {"ranked": True, "until": None, "games_needed": 0},
    }
    assert dt.datetime.fromisoformat(body["created"]) == user.date_joined
    assert not Player.objects.filter(user=user).exists()  # made on first need only


def test_an_account_without_a_ranked_game_becomes_a_bot_for_good(auth_client, user):
    # given: a random game (not ranked) played already
    assert auth_client.post("/api/v1/games", {}, format="json").status_code == 201

    # when: it declares itself a bot, twice
    first = auth_client.post(BOT)
    again = auth_client.post(BOT)

    # then: both answer the account, a bot; the flag is stored with its moment
    assert first.status_code == 200 and again.status_code == 200
    assert first.json()["bot"] is True and again.json() == first.json()
    assert first.json()["username"] == "alice" and first.json()["scopes"] == SCOPES
    assert auth_client.get(ACCOUNT).json()["bot"] is True
    player = Player.objects.get(user=user)
    assert player.bot and player.bot_since is not None


def test_an_account_with_a_ranked_game_cannot_become_a_bot(auth_client, user):
    # given: today's ranked daily game
    assert auth_client.post("/api/v1/games", {"daily": True}, format="json").status_code == 201

    # when
    response = auth_client.post(BOT, HTTP_ACCEPT_LANGUAGE="hu")

    # then
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "forbidden" and error["rule"] == "R34"
    assert error["message"] == (
        "Egy fiók csak az első rangsorolt játszmája előtt nyilváníthatja magát botnak."
    )
    assert auth_client.get(ACCOUNT).json()["bot"] is False


@pytest.mark.parametrize(("method", "path"), [("get", ACCOUNT), ("post", BOT)])
def test_anonymous_callers_are_not_authenticated(api_client, db, method, path):
    response = getattr(api_client, method)(path)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.usefixtures("hour_to_spare")
def test_the_declaration_is_throttled(auth_client, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"account": "2/hour"})

    codes = [auth_client.post(BOT).status_code for _ in range(3)]

    assert codes == [200, 200, 429]
    response = auth_client.post(BOT)
    assert response.json()["error"]["code"] == "throttled" and "Retry-After" in response.headers
    assert response["RateLimit-Limit"] == "2"
