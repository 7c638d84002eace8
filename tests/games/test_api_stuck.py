"""R20a through the API: GAME's `stuck` turns true once a hand-made deck's talon has been drawn
through with nothing left to play, stays true when the game is read again, and undo clears it."""

from django.core.management import call_command

from games.engine.cards import NAMES
from games.models import Game

GAMES = "/api/v1/games"
# Columns 5H 5D 10H 10D take only black 4s and 9s; the foundations want 8H (base 7H), 7S, 7D
# and 7C. Those eight cards lie in the reserve below its top, KH, so nothing in the talon fits.
HIDDEN = ["4S", "4C", "9S", "9C", "8H", "7S", "7D", "7C"]
LAYOUT = ["KH", "7H", "5H", "5D", "10H", "10D"]


def stuck_deck() -> list[str]:
    rest = [name for name in NAMES if name not in HIDDEN and name not in LAYOUT]
    return [*HIDDEN, *rest[:4], *LAYOUT, *rest[4:]]


def test_stuck_once_the_talon_is_drawn_through_with_nothing_to_play(auth_client):
    created = auth_client.post(GAMES, {"deck": stuck_deck(), "draw": 1}, format="json").json()
    assert created["stuck"] is False and created["stock"]["count"] == 34
    url = f"{GAMES}/{created['id']}/actions"
    answers = [
        auth_client.post(url, {"type": "draw"}, format="json").json()["game"]["stuck"]
        for _ in range(34)
    ]
    assert answers == [False] * 33 + [True]
    read = auth_client.get(f"{GAMES}/{created['id']}").json()
    assert read["stuck"] is True and read["status"] == "playing"
    undone = auth_client.post(url, {"type": "undo"}, format="json").json()["game"]
    assert undone["stuck"] is False


def test_verify_games_accepts_states_stored_before_stuck_and_continued(auth_client, capsys):
    created = auth_client.post(GAMES, {"deck": stuck_deck(), "draw": 1}, format="json").json()
    url = f"{GAMES}/{created['id']}/actions"
    for _ in range(3):
        auth_client.post(url, {"type": "draw"}, format="json")
    game = Game.objects.get(pk=created["id"])
    game.state = {  # as stored before R20a: no seen field (nor R20c's passes) in the snapshots
        **game.state,
        "state": ";".join(game.state["state"].split(";")[:6]),
        "history": [";".join(snapshot.split(";")[:6]) for snapshot in game.state["history"]],
    }
    game.save(update_fields=["state"])
    for _ in range(31):
        answer = auth_client.post(url, {"type": "draw"}, format="json").json()
    assert answer["game"]["stuck"] is False  # the first three draws were not counted

    call_command("verify_games")

    assert "1 game(s) verified: all consistent" in capsys.readouterr().out
