"""R36: a rated match needs an account in good standing; any other joining it is 403
`standing` with the account's standing in `params` (docs/api.md)."""

import datetime as dt

import pytest
import time_machine

from matches.models import Match, MatchPlayer

MATCHES = "/api/v1/matches"
NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def standing_rules(settings):
    """R36's defaults (tests/settings.py turns them off for the rest of the suite)."""
    settings.RANKED_MIN_AGE_HOURS = 24
    settings.RANKED_MIN_GAMES = 3


def test_a_fresh_account_joining_a_rated_match_is_refused(standing_rules, pool, players):
    # given: a deal to play and an account made now
    pool(2)
    with time_machine.travel(NOW, tick=False):
        [(_fresh, client)] = players(1)

        # when: it asks to join a duel, in English and in Hungarian
        refused = client.post(MATCHES, {"size": 2, "draw": 3}, format="json")
        in_hungarian = client.post(
            MATCHES, {"size": 2, "draw": 3}, format="json", HTTP_ACCEPT_LANGUAGE="hu"
        )

    # then: 403 `standing` with the figures `GET account` shows, and no seat taken
    assert refused.status_code == in_hungarian.status_code == 403
    error = refused.json()["error"]
    assert (error["code"], error["rule"]) == ("standing", "R36")
    assert error["params"] == {
        "ranked": False,
        "until": "2026-11-30T12:00:00Z",
        "games_needed": 3,
    }
    assert in_hungarian.json()["error"]["params"] == error["params"]
    assert in_hungarian.json()["error"]["message"] != error["message"]
    assert "R36" in in_hungarian.json()["error"]["message"]
    assert not Match.objects.exists() and not MatchPlayer.objects.exists()


def test_an_account_in_good_standing_joins(standing_rules, pool, players):
    # given: an account two days old with three finished games
    pool(2)
    [(user, client)] = players(1)
    user.date_joined -= dt.timedelta(days=2)
    user.save(update_fields=["date_joined"])
    for _ in range(3):
        game = client.post("/api/v1/games", {}, format="json").json()
        ended = client.post(
            f"/api/v1/games/{game['id']}/actions", {"type": "resign"}, format="json"
        )
        assert ended.status_code == 200

    # when
    joined = client.post(MATCHES, {"size": 2, "draw": 3}, format="json")

    # then
    assert joined.status_code == 201, joined.json()
    assert client.get("/api/v1/account").json()["standing"]["ranked"] is True
