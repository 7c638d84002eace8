"""R37 in the Python client and the terminal: `analysis()` and `canfield analyse GAME`, against
a real server process, the analysis computed by `manage.py analyse_games` as the scheduler's
process does."""

from __future__ import annotations

import pytest
from canfield_client import DealHidden, Move
from canfield_client.cli import main

from tests.games.helpers import easy_deck, winning_actions


def test_the_client_waits_for_the_analysis_and_the_terminal_shows_it(
    player, base_url, run_on_server, capsys
):
    # given a game of the straight deck given up 20 actions in, one of them undone
    game = player.new_game_from_deck(easy_deck(), draw=1)
    with pytest.raises(DealHidden) as refused:
        player.analysis(game, wait=0)
    assert (refused.value.status, refused.value.rule) == (409, "R37")
    for action in [*winning_actions()[:20], {"type": "undo"}, {"type": "resign"}]:
        game = player.act(game, Move.from_json(action)).game

    # when its analysis is asked for, and then computed
    queued = player.analysis(game, wait=0)
    run_on_server("from django.core.management import call_command; call_command('analyse_games')")
    found = player.analysis(game, wait=10)

    # then it was queued first, and says the deal stayed winnable, with a line from the end
    assert (queued.done, queued.progress) == (False, 0.0)
    assert found.done and found.kept == list(range(1, 20))
    assert found.winnable == [True] * 20 and found.lost_at is None
    assert found.line_after == 19 and found.line
    assert (found.moves, found.kept_moves, found.par) == (21, 19, None)

    # and the terminal shows the same
    assert main(["--server", base_url, "analyse", game.id]) == 0
    shown = capsys.readouterr().out
    assert "o" * 20 in shown
    assert "Winnable throughout" in shown
    assert "A winning line from after action 19" in shown
