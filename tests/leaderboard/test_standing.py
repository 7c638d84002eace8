"""R36, standing: an account too new or with too few finished games plays the daily as usual,
but its entry is provisional: listed apart (`?section=provisional`), never ranked, counted or
sent live; `GET account` shows the standing, and a daily asked for with `"ranked": true`
answers 403 `standing` instead (docs/api.md)."""

import datetime as dt
import json

import pytest

from games.models import DailyChallenge
from leaderboard import boards, services
from leaderboard.models import Entry
from tests.conftest import requires_redis
from tests.leaderboard.conftest import NOON

GAMES = "/api/v1/games"
ACCOUNT = "/api/v1/account"
TODAY = "2026-11-29"
BOARD = f"/api/v1/daily/{TODAY}/leaderboard"


@pytest.fixture
def standing_rules(settings):
    """R36's defaults (tests/settings.py turns them off for the rest of the suite)."""
    settings.RANKED_MIN_AGE_HOURS = 24
    settings.RANKED_MIN_GAMES = 3


def act(client, game_id, body):
    response = client.post(f"{GAMES}/{game_id}/actions", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def finish_games(client, count):
    """`count` random games, each resigned: finished games of any kind count (R36)."""
    for _ in range(count):
        game = client.post(GAMES, {}, format="json").json()
        act(client, game["id"], {"type": "resign"})


@pytest.fixture
def veteran(make_user, client_for):
    """An account in good standing: two days old, with three finished games."""
    user = make_user("vera")
    user.date_joined = NOON - dt.timedelta(days=2)
    user.save(update_fields=["date_joined"])
    client = client_for(user)
    finish_games(client, 3)
    return client


def test_a_new_accounts_daily_is_played_but_listed_apart_and_never_ranked(
    noon, standing_rules, veteran, make_user, client_for, django_capture_on_commit_callbacks
):
    # given: a veteran and an account made today, each playing today's daily
    newbie = client_for(make_user("nico"))
    with django_capture_on_commit_callbacks(execute=True):
        ranked = veteran.post(GAMES, {"daily": True}, format="json")
        provisional = newbie.post(GAMES, {"daily": True}, format="json")
        act(veteran, ranked.json()["id"], {"type": "draw"})
        act(newbie, provisional.json()["id"], {"type": "draw"})
        act(newbie, provisional.json()["id"], {"type": "draw"})

    # when: anyone reads the board, its provisional section and the day's counts
    board = veteran.get(BOARD).json()
    apart = veteran.get(BOARD, {"section": "provisional"}).json()
    day = veteran.get(f"/api/v1/daily/{TODAY}").json()

    # then: both games were dealt and played; only the veteran's is ranked and counted
    assert ranked.status_code == provisional.status_code == 201
    assert [(e["player"], e["rank"], e["provisional"]) for e in board["results"]] == [
        ("vera", 1, False)
    ]
    assert board["count"] == 1
    assert [(e["player"], e["rank"], e["provisional"]) for e in apart["results"]] == [
        ("nico", None, True)
    ]
    assert apart["count"] == 1 and apart["results"][0]["moves"] == 2
    assert [b["players"] for b in day["boards"] if b["draw"] == 3] == [1]
    assert Entry.objects.get(player__username="nico").provisional is True
    # and the live batch carries the veteran's entry only
    challenge = DailyChallenge.objects.get(draw=3)
    tick = services.board_tick(challenge=challenge, tick=1)
    assert tick is not None
    _seq, messages, snapshot, games = tick
    assert games == [ranked.json()["id"]]
    assert [e["player"] for e in json.loads(snapshot)["results"]] == ["vera"]
    sent = [entry["player"] for m in messages for entry in json.loads(m).get("entries", [])]
    assert sent == ["vera"]


def test_a_finished_provisional_game_has_no_rank(noon, standing_rules, make_user, client_for):
    # given: a new account's daily game
    client = client_for(make_user("nico"))
    game = client.post(GAMES, {"daily": True}, format="json").json()

    # when: it ends
    ended = act(client, game["id"], {"type": "resign"})["game"]

    # then: its daily says it is provisional, without a rank on the board
    assert ended["daily"] == {"date": TODAY, "provisional": True, "review": None}


def test_an_account_with_age_and_games_is_ranked(noon, standing_rules, veteran):
    # when
    game = veteran.post(GAMES, {"daily": True, "ranked": True}, format="json")

    # then
    assert game.status_code == 201
    assert Entry.objects.get(game_id=game.json()["id"]).provisional is False
    assert veteran.get(ACCOUNT).json()["standing"] == {
        "ranked": True,
        "until": None,
        "games_needed": 0,
    }


def test_the_account_shows_what_its_standing_lacks(noon, standing_rules, make_user, client_for):
    # given: an account made at noon
    client = client_for(make_user("nico"))
    before = client.get(ACCOUNT).json()["standing"]

    # when: it finishes two games
    finish_games(client, 2)
    after = client.get(ACCOUNT).json()["standing"]

    # then: it is old enough a day after sign-up, and needs one more finished game
    assert before == {"ranked": False, "until": "2026-11-30T12:00:00Z", "games_needed": 3}
    assert after == {"ranked": False, "until": "2026-11-30T12:00:00Z", "games_needed": 1}


def test_a_ranked_daily_asked_for_by_an_account_not_in_standing_is_refused(
    noon, standing_rules, make_user, client_for
):
    # given: a new account
    client = client_for(make_user("nico"))

    # when: it asks for a ranked daily, then for its daily, then for a ranked one again
    refused = client.post(GAMES, {"daily": True, "ranked": True}, format="json")
    dealt = client.post(GAMES, {"daily": True}, format="json")
    again = client.post(GAMES, {"daily": True, "ranked": True}, format="json")

    # then: the ranked asks are 403 `standing` with its figures; the plain ask deals a
    # provisional game
    for answer in (refused, again):
        assert answer.status_code == 403
        error = answer.json()["error"]
        assert (error["code"], error["rule"]) == ("standing", "R36")
        assert error["params"] == {
            "ranked": False,
            "until": "2026-11-30T12:00:00Z",
            "games_needed": 3,
        }
    assert "Finish 3 more games of any kind." in refused.json()["error"]["message"]
    assert dealt.status_code == 201
    assert Entry.objects.get().provisional is True


@pytest.mark.parametrize(
    "body",
    [{"ranked": True}, {"daily": True, "ranked": "yes"}, {"daily": True, "ranked": None}],
)
def test_ranked_is_a_boolean_of_a_daily_only(noon, auth_client, body):
    answer = auth_client.post(GAMES, body, format="json")

    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid_request"


def test_a_section_other_than_ranked_or_provisional_is_refused(noon, auth_client):
    answer = auth_client.get(BOARD, {"section": "everyone"})

    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid_request"


@requires_redis
def test_the_redis_ranking_and_its_rebuild_leave_provisional_entries_out(
    noon, standing_rules, veteran, make_user, client_for, django_capture_on_commit_callbacks
):
    # given: a ranked and a provisional game
    newbie = client_for(make_user("nico"))
    with django_capture_on_commit_callbacks(execute=True):
        ranked = veteran.post(GAMES, {"daily": True}, format="json").json()
        provisional = newbie.post(GAMES, {"daily": True}, format="json").json()
    challenge = DailyChallenge.objects.get(draw=3)
    store = boards.store()

    # when: the board's ranking is built in Redis from the database, then both games move
    # (their changes merged into it after their commits)
    rebuilt = boards.ranking_rebuild(challenge)
    built = store.ranked_count(challenge.pk)
    with django_capture_on_commit_callbacks(execute=True):
        act(veteran, ranked["id"], {"type": "draw"})
        act(newbie, provisional["id"], {"type": "draw"})

    # then: the ranking holds the veteran's entry only, after the build and after the moves
    assert rebuilt and built == 1
    assert store.ranked_count(challenge.pk) == 1
