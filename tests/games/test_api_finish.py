"""R20b and R20c through the API: `finish` sends the cards left home as one logged action (409
`cannot_finish` while it may not), and GAME's `no_progress`."""

from django.core.management import call_command

from games.models import Game
from tests.games.helpers import easy_deck, winning_actions
from tests.games.test_api_stuck import stuck_deck
from web.selectors import replay_frames

GAMES = "/api/v1/games"


def finishable_game(client) -> str:
    """`easy_deck()` played straight up until the last five clubs: 9C, 10C, JC and QC drawn
    onto the four empty columns (R15), the KC drawn last onto the waste. The stock is empty and
    every card left is face up."""
    game_id = client.post(GAMES, {"deck": easy_deck(), "draw": 1}, format="json").json()["id"]
    onto_columns = [{"type": "move", "from": "waste", "to": f"tableau:{n}"} for n in range(1, 5)]
    last_clubs = [action for move in onto_columns for action in ({"type": "draw"}, move)]
    for action in [*winning_actions()[: 17 + 2 * 29], *last_clubs, {"type": "draw"}]:
        response = client.post(f"{GAMES}/{game_id}/actions", action, format="json")
        assert response.status_code == 200, response.content
    return game_id


def test_finish_sends_every_card_home_as_one_logged_action(auth_client, api_client, capsys):
    # given
    game_id = finishable_game(auth_client)
    before = auth_client.get(f"{GAMES}/{game_id}").json()
    legal = auth_client.get(f"{GAMES}/{game_id}/legal-actions").json()
    assert {"type": "finish"} in legal and before["moves"] == 84
    # when
    response = auth_client.post(
        f"{GAMES}/{game_id}/actions", {"type": "finish", "expect": 84}, format="json"
    )
    # then
    assert response.status_code == 200, response.content
    action, game = response.json()["action"], response.json()["game"]
    assert action["type"] == "finish" and action["from"] is None and action["to"] is None
    assert action["cards"] == ["9C", "10C", "JC", "QC", "KC"] and action["count"] == 5
    assert action["score_delta"] == 25 and action["auto_finish"] == []
    assert game["status"] == "won" and game["score"] == 255 and game["moves"] == 89
    log = api_client.get(f"{GAMES}/{game_id}/actions").json()
    assert len(log) == before["moves"] + 1 and log[-1]["type"] == "finish"
    call_command("verify_games")  # the log replays to the stored game
    assert "all consistent" in capsys.readouterr().out
    last = replay_frames(game=Game.objects.get(pk=game_id))[-1]  # the replay steps through it
    assert last["caption"] == "finish: 9♣ 10♣ J♣ Q♣ K♣" and last["view"]["status"] == "won"


def test_finish_while_cards_are_hidden_is_409_cannot_finish_in_the_callers_language(auth_client):
    # given: a fresh deal, its stock full
    game = auth_client.post(GAMES, {"deck": easy_deck(), "draw": 1}, format="json").json()
    url = f"{GAMES}/{game['id']}/actions"
    # when
    english = auth_client.post(url, {"type": "finish"}, format="json")
    hungarian = auth_client.post(url, {"type": "finish"}, format="json", HTTP_ACCEPT_LANGUAGE="hu")
    # then
    assert english.status_code == hungarian.status_code == 409
    error = english.json()["error"]
    assert error["code"] == "cannot_finish" and error["rule"] == "R20b" and "params" not in error
    assert error["message"] == (
        "Cards are still hidden: finish once the stock is empty and every card is face up."
    )
    assert hungarian.json()["error"]["code"] == "cannot_finish"
    assert hungarian.json()["error"]["message"] != error["message"]
    assert auth_client.get(f"{GAMES}/{game['id']}").json()["moves"] == 0
    assert {"type": "finish"} not in auth_client.get(f"{GAMES}/{game['id']}/legal-actions").json()


def test_no_progress_after_two_whole_passes_through_the_talon(auth_client):
    # given
    created = auth_client.post(GAMES, {"deck": stuck_deck(), "draw": 1}, format="json").json()
    assert created["no_progress"] is False
    url = f"{GAMES}/{created['id']}/actions"
    for action in [{"type": "draw"}] * 34 + [{"type": "recycle"}] + [{"type": "draw"}] * 33:
        answer = auth_client.post(url, action, format="json").json()
    assert answer["game"]["no_progress"] is False
    # when
    answer = auth_client.post(url, {"type": "draw"}, format="json").json()
    # then
    assert answer["game"]["no_progress"] is True and answer["game"]["status"] == "playing"
    assert auth_client.get(f"{GAMES}/{created['id']}").json()["no_progress"] is True
    undone = auth_client.post(url, {"type": "undo"}, format="json").json()["game"]
    assert undone["no_progress"] is False
