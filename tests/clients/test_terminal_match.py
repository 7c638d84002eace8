"""`canfield match` in a real terminal (tmux) against a real server: a duel with a player of
the API, the opponent's figures under the table, then live while waiting, then the places and
that ratings change after the fair-play review (R35), which then rates the match: the
terminal, still following it, shows the new ratings."""

from __future__ import annotations

from canfield_client import Client

from tests.clients.test_matches import LIVE_ACROSS_PROCESSES, fill_match_deals, player_from
from tests.clients.test_terminal import CANFIELD, terminal  # noqa: F401 (fixture)
from tests.web.helpers import PASSWORD, unique_name


def test_canfield_match_plays_a_duel_and_shows_the_places(terminal, base_url, run_on_server):  # noqa: F811
    fill_match_deals(run_on_server, draw=1, size=2)
    name, rival = unique_name("term"), unique_name("rival")
    with Client(base_url) as me:
        terminal.env["CANFIELD_TOKEN"] = me.register(name, PASSWORD)
    with player_from(base_url, "10.23.1.2") as opponent:
        opponent.register(rival, PASSWORD)
        # given the opponent's open duel, draw 1
        match = opponent.join_match(size=2, draw=1)
        assert match.game is not None
        opponent.draw(match.game)

        # when the terminal's player joins it: their table and, under it, the opponent
        terminal.open("match", f"{CANFIELD} match --draw 1")
        screen = terminal.wait_for("match", lambda s: "1 v 1 · draw 1 · 2/2 seats" in s)
        assert f"{rival}: 1 card home, 1 move," in screen and "moves 0 " in screen
        assert opponent.match(match.id).code is None
        terminal.type("match", "d")  # each command shows the opponent's figures as they are
        opponent.draw(match.game)
        terminal.type("match", "d")
        terminal.wait_for(
            "match", lambda s: "moves 2 " in s and f"{rival}: 1 card home, 2 moves" in s
        )

        # and draws to 9 moves (with the resignation, the 10 actions of a seat played, R33a)
        for _ in range(7):
            terminal.type("match", "d")
        terminal.wait_for("match", lambda s: "moves 9 " in s)

        # and resigns: the opponent's figures follow live while the match waits for them
        terminal.type("match", "resign")
        terminal.wait_for("match", lambda s: "Waiting for the others" in s)
        opponent.draw(match.game)
        terminal.wait_for("match", lambda s: f"{rival}: 1 card home, 3 moves" in s)
        for _ in range(6):  # 10 actions with the resignation: a seat played (R33a)
            opponent.draw(match.game)
        opponent.resign(match.game)

        # then the end: places, figures and the deal's code; ratings wait for the review (R35)
        screen = terminal.wait_for("match", lambda s: "Match over" in s and "The deal: CF2-" in s)
    assert "Ratings change once the fair-play review of the match's games is done." in screen
    with Client(base_url) as reader:
        finished = reader.match(match.id)
    assert finished.status == "finished" and not finished.rated
    for seat in finished.players:
        line = next(line for line in screen.splitlines() if f" {seat.player} " in line)
        assert str(seat.place) in line.split(seat.player)[0]
        assert seat.rating_after is None

    # when the fair-play review runs (`review_games`): both games clean, the match is rated
    run_on_server("from fairplay.services import reviews_run; reviews_run(budget=30)")
    with Client(base_url) as reader:
        final = reader.match(match.id)
    assert final.rated
    assert [seat.place for seat in final.players] == [seat.place for seat in finished.players]
    assert all(seat.rating_after is not None for seat in final.players)
    # and the terminal, still following the match, shows each player's new rating

    def rated(screen: str) -> bool:
        rows = {
            seat.player: [line for line in screen.splitlines() if f" {seat.player} " in line]
            for seat in final.players
        }
        return all(
            rows[seat.player] and f"{seat.rating_after:.0f}" in rows[seat.player][-1]
            for seat in final.players
        )

    if LIVE_ACROSS_PROCESSES:  # (the review's process reaches the server's live matches)
        terminal.wait_for("match", rated)
