"""R30: GET /api/v1/games/{id}/hint."""

import datetime as dt

import pytest
import time_machine
from rest_framework.throttling import ScopedRateThrottle

from games.engine import Action as EngineAction
from games.engine import Game as EngineGame
from games.models import Game
from leaderboard import services as leaderboard_services
from tests.engine.helpers import arrange
from tests.games.helpers import easy_deck, winning_actions
from tests.games.test_api_games import act, create

GAMES = "/api/v1/games"


def hint(client, game_id):
    return client.get(f"{GAMES}/{game_id}/hint")


def test_hint_is_the_next_action_of_a_winning_line_and_is_counted(auth_client):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    assert game["hints"] == 0
    for n in range(3):
        response = hint(auth_client, game["id"])
        assert response.status_code == 200
        body = response.json()
        assert body["winnable"] is True
        # The hint is legal and counts no move; playing it keeps the game winnable.
        engine = EngineGame.from_dict(Game.objects.get(pk=game["id"]).state)
        assert body["action"] in engine.legal_actions()
        played = act(auth_client, game["id"], body["action"])
        assert played.status_code == 200
        assert played.json()["game"]["moves"] == n + 1
        assert played.json()["game"]["hints"] == n + 1
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["hints"] == 3


def test_hint_says_when_no_winning_line_exists(auth_client, user):
    dead = arrange(
        base="AH",
        found={"S": 1, "D": 1, "C": 1},
        tableau=[["5S"], ["5C"], ["9S"], ["9C"]],
        reserve=["2S", "2H"],
        stock=["3H"],
        rest="reserve",
    )
    game = Game.objects.create(owner=user, ruleset="app", draw=3, state=dead.to_dict())
    response = hint(auth_client, game.pk)
    assert response.status_code == 200
    assert response.json() == {"action": None, "winnable": False}
    assert Game.objects.get(pk=game.pk).hints == 1


def test_undecided_hint_is_null_null(auth_client, monkeypatch):
    monkeypatch.setattr("games.solver.HINT_SECONDS", 0.0)
    game = create(auth_client, {"code": "CF1-D3-AAAAAAB"})  # deal 1: hard, no quick answer
    response = hint(auth_client, game["id"])
    assert response.status_code == 200
    assert response.json() == {"action": None, "winnable": None}


def test_hint_only_for_the_owner_of_a_game_in_progress(auth_client, make_user, client_for):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    other = client_for(make_user("bob"))
    assert hint(other, game["id"]).status_code == 404  # an in-progress game is not visible
    for action in winning_actions():
        act(auth_client, game["id"], action)
    response = hint(auth_client, game["id"])
    assert response.status_code == 409 and response.json()["error"]["code"] == "game_over"
    response = hint(other, game["id"])  # a finished game is public, its hint is not
    assert response.status_code == 403 and response.json()["error"]["code"] == "forbidden"


def test_hint_refused_in_a_ranked_daily_game_while_its_day_lasts(auth_client, user):
    noon = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
    with time_machine.travel(noon, tick=False) as traveller:
        game, _ = leaderboard_services.daily_game_get_or_create(player=user, draw=3)
        response = hint(auth_client, game.pk)
        assert response.status_code == 403
        assert response.json()["error"] == {
            "code": "forbidden",
            "message": "No hints in a ranked daily game while its day lasts.",
            "rule": "R30",
        }
        assert Game.objects.get(pk=game.pk).hints == 0
        traveller.move_to(game.challenge.ends_at + dt.timedelta(minutes=1))
        response = hint(auth_client, game.pk)
        # the day is over, and the game with it (R26a)
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "game_over"
        assert Game.objects.get(pk=game.pk).hints == 0


@pytest.mark.usefixtures("hour_to_spare")
def test_hint_needs_authentication_and_is_throttled(api_client, auth_client, monkeypatch):
    game = create(auth_client, {"deck": easy_deck(), "draw": 1})
    assert hint(api_client, game["id"]).status_code == 401
    rates = {"hints": "2/hour", "hints_address": "100/hour"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    codes = [hint(auth_client, game["id"]).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_hint_after_moves_starts_from_the_current_position(auth_client):
    game = create(auth_client, {"code": "CF1-D3-AAAAAAA"})  # deal 0: won quickly
    first = hint(auth_client, game["id"]).json()
    assert first["winnable"] is True
    act(auth_client, game["id"], first["action"])
    engine = EngineGame.from_dict(Game.objects.get(pk=game["id"]).state)
    second = hint(auth_client, game["id"]).json()
    assert second["action"] in engine.legal_actions()
    engine.apply(EngineAction.from_dict(second["action"]))
