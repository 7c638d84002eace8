"""R4a and R19 together, as a player sees them: while the day lasts a daily's hidden cards
can only be played, not computed; once it is over its code reveals exactly the deal played."""

import datetime as dt

from games.engine import DealCode, shuffled_deck
from tests.leaderboard.conftest import NOON

GAMES = "/api/v1/games"


def test_a_dailys_revealed_code_is_a_cf2_code_of_exactly_the_deck_played(
    noon, auth_client, api_client
):
    # given today's 3-card daily, and every stock card seen by drawing through the stock
    game = auth_client.post(GAMES, {"daily": True}, format="json").json()
    seen = []
    while len(seen) < 34:
        acted = auth_client.post(f"{GAMES}/{game['id']}/actions", {"type": "draw"}, format="json")
        assert acted.status_code == 200, acted.json()
        seen += acted.json()["action"]["cards"]
        assert acted.json()["game"]["code"] is None  # nothing gives the deal away meanwhile
    assert len(seen) == len(set(seen)) == 34  # 12 draws: 11 of three cards, then one
    assert acted.json()["game"]["stock"] == {"count": 0}
    assert api_client.get("/api/v1/daily").json()["boards"][0]["code"] is None
    resigned = auth_client.post(f"{GAMES}/{game['id']}/actions", {"type": "resign"}, format="json")
    assert resigned.json()["game"]["code"] is None  # over, but the day is not

    # when the day is over
    noon.move_to(NOON + dt.timedelta(days=1))
    board = api_client.get("/api/v1/daily/2026-11-29").json()["boards"][0]
    shown = api_client.get(f"{GAMES}/{game['id']}").json()

    # then the revealed code is a CF2 code (R4a) whose shuffle is exactly that deal
    code = DealCode.parse(board["code"])
    assert (board["draw"], code.version, code.draw) == (3, 2, 3)
    assert str(code) == board["code"] and len(board["code"]) == 33
    assert shown["code"] == board["code"]
    deck = shuffled_deck(code.number, code.version)
    assert deck[18:] == seen  # the 34 stock cards, in the order drawn
    assert game["reserve"] == {"count": 13, "top": deck[12]}
    assert game["foundations"][0]["top"] == deck[13]
    assert game["tableau"] == [[card] for card in deck[14:18]]
    # and the rest of the reserve is the rest of the deck
    assert sorted(deck[:12]) == sorted(
        set(shuffled_deck(0)) - set(seen) - {deck[12], deck[13], *deck[14:18]}
    )
