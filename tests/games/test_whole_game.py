import pytest
from django.core.management import CommandError, call_command

from games.models import Action, Game
from tests.games.helpers import easy_deck, winning_actions


@pytest.fixture
def won_game(auth_client):
    game_id = auth_client.post(
        "/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json"
    ).json()["id"]
    for moves, action in enumerate(winning_actions()):
        response = auth_client.post(
            f"/api/v1/games/{game_id}/actions", {**action, "expect": moves}, format="json"
        )
        assert response.status_code == 200, response.content
    return response.json()["game"]


def test_a_whole_game_is_won_over_http(won_game, api_client):
    # then: the server scored it, timed it and published it with its log
    assert won_game["status"] == "won"
    assert won_game["score"] == 255 and won_game["moves"] == 85
    assert won_game["finished_at"] is not None and won_game["seconds"] > 0
    assert all(f["count"] == 13 for f in won_game["foundations"])
    public = api_client.get(f"/api/v1/games/{won_game['id']}").json()
    assert len(public["actions"]) == 85
    assert [a["n"] for a in public["actions"]] == list(range(1, 86))


def test_verify_games_passes_on_played_games(won_game, auth_client, capsys):
    auth_client.post("/api/v1/games", {}, format="json")  # an untouched game too

    call_command("verify_games")

    assert "2 game(s) verified" in capsys.readouterr().out


@pytest.mark.parametrize(
    "tamper",
    [
        lambda game: Game.objects.filter(pk=game).update(score=250),
        lambda game: Game.objects.filter(pk=game).update(moves=84),
        lambda game: Action.objects.filter(game=game, n=85).delete(),
        lambda game: Action.objects.filter(game=game, n=1).update(to_pile="tableau:1"),
        lambda game: Action.objects.filter(game=game, n=20).update(type="undo"),
    ],
    ids=["score", "moves", "missing action", "changed action", "changed type"],
)
def test_verify_games_fails_on_a_row_altered_by_hand(won_game, capsys, tamper):
    # given
    tamper(won_game["id"])

    # when / then
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert won_game["id"] in capsys.readouterr().out
