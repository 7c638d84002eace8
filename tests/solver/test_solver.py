"""The solver against the engine: same moves, same results, and verdicts another solver made."""

import contextlib
import json
import logging
import os
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Action, EngineError, Game
from games.solver import _core, action, position, solve
from tests.engine.helpers import arrange
from tests.engine.test_properties import GAMES, new_game, pick

ORACLE = Path(__file__).with_name("solver_oracle_d3.json")
SHARED = Path(__file__).parents[3] / "shared" / "solver_oracle_d3.json"
FULL = os.environ.get("SOLVER_FULL") == "1"  # the whole oracle with its 5 s budget


def _key(act: dict) -> tuple:
    return tuple(sorted(act.items()))


def engine_successors(game: Game) -> dict[tuple, tuple]:
    out = {}
    for legal in game.legal_actions():
        if legal["type"] in ("undo", "finish"):  # the solver plays a finish's moves one by one
            continue
        copy = Game.from_dict(game.to_dict())
        copy.apply(Action.from_dict(legal))
        out[_key(legal)] = position(copy)
    return out


def solver_successors(game: Game) -> dict[tuple, tuple]:
    return {_key(action(*act).as_dict()): after for act, after in _core.successors(position(game))}


@settings(max_examples=40, deadline=None)
@given(GAMES, st.lists(st.integers(0, 2**16), min_size=20, max_size=120))
def test_successors_equal_engine_legal_actions_and_apply(spec, choices):
    """On random reachable positions of every rule set and draw, the core's moves and the
    positions they lead to are exactly the engine's (undo aside: the solver never undoes)."""
    game = new_game(spec)
    for n, choice in enumerate(choices):
        if game.is_over:
            break
        if n % 3 == 0 or len(choices) - n < 5:
            assert solver_successors(game) == engine_successors(game)
        with contextlib.suppress(EngineError):
            game.apply(Action.from_dict(pick(game, choice)))


def test_cardgames_auto_finish_is_a_successor():
    game = arrange(
        ruleset="cardgames",
        base="AH",
        found={"H": 13, "S": 12, "D": 11, "C": 11},
        tableau=[["QC"], ["KD"], ["KS"], ["QD"]],
        reserve=["KC"],
    )
    succ = solver_successors(game)
    assert succ == engine_successors(game)
    # QC up, the KC refills its column, then the rest plays up by itself: won.
    won = succ[_key({"type": "move", "from": "tableau:1", "to": "foundation:C", "count": 1})]
    assert won[6] == (13, 13, 13, 13) and won[10] == ((), (), (), ())


def oracle() -> list[dict]:
    return [d for d in json.loads(ORACLE.read_text())["deals"] if d["verdict"] != "unknown"]


@pytest.mark.skipif(not SHARED.exists(), reason="../shared is not beside this checkout")
def test_oracle_copy_matches_shared_file():
    assert ORACLE.read_text() == SHARED.read_text()


def test_oracle_verdicts_agree():
    """Every `won` and `unwinnable` of the independent solver (CF1 0-199, draw 3, app): ours
    never contradicts one, and decides most of them within a node cap (the same on a busy
    machine; the benchmark decides them with the full 10 s)."""
    decided = 0
    deals = oracle()
    for deal in deals:
        game = Game.deal(deal["deal_number"], ruleset="app", draw=3)
        limits = {"seconds": 5} if FULL else {"seconds": 300, "max_nodes": 100_000}
        solution = solve(game, **limits)
        if solution.verdict != "unknown":
            assert solution.verdict == deal["verdict"], deal["code"]
            decided += 1
    assert decided >= len(deals) * (0.97 if FULL else 0.83)


def test_won_lines_win_when_replayed():
    for number, ruleset, draw in [
        (0, "app", 3),
        (2, "app", 1),
        (8, "cardgames", 3),
        (9, "classic", 3),
    ]:
        game = Game.deal(number, ruleset=ruleset, draw=draw)
        solution = solve(game, seconds=5)
        if solution.verdict != "won":
            continue
        for step in solution.line:
            game.apply(step)
        assert game.status == "won"


def test_a_line_that_does_not_replay_is_unknown_and_logged(monkeypatch, caplog):
    game = Game.deal(0)
    bad_line = [(0, 2, 3, 1)] * 3  # reserve -> tableau:1 three times: illegal at once
    monkeypatch.setattr(_core, "solve", lambda *args: (0, bad_line, 10))
    with caplog.at_level(logging.ERROR, logger="games.solver"):
        solution = solve(game, seconds=1)
    assert (solution.verdict, solution.limit, solution.line) == ("unknown", "replay", ())
    assert "solver line fails" in caplog.text


def _near_end(number: int, ruleset: str, draw: int, moves: int) -> Game:
    game = Game.deal(number, ruleset=ruleset, draw=draw)
    for choice in range(moves):
        if game.is_over:
            break
        with contextlib.suppress(EngineError):
            game.apply(Action.from_dict(pick(game, choice * 7919 % 65537)))
    return game


@pytest.mark.parametrize(("ruleset", "draw"), [("app", 3), ("app", 1), ("classic", 3)])
def test_reductions_on_and_off_give_the_same_verdicts(ruleset, draw):
    """On a sample of positions, the search with its reductions and the plain search (every
    engine action, draws and recycles one by one, exact keys) agree wherever both decide."""
    both = 0
    for number in range(12):
        game = _near_end(number, ruleset, draw, 80)
        if game.is_over:
            continue
        on = solve(game, seconds=300, max_nodes=300_000)
        off = solve(game, seconds=300, max_nodes=300_000, reduce=False)
        if "unknown" not in (on.verdict, off.verdict):
            assert on.verdict == off.verdict, number
            both += 1
    assert both >= 4


@pytest.mark.parametrize("number", [170, 986])
def test_a_table_too_small_drops_entries_and_gives_the_same_verdict(number):
    """Unwinnable deals whose search stores about 150,000 positions: with 4 MiB the table may
    not grow that far, so it drops entries (searched again when met: more positions) and still
    proves the deal unwinnable (docs/solver.md: why dropping entries is sound)."""
    game = Game.deal(number, ruleset="app", draw=3)
    roomy = solve(game, seconds=300, max_nodes=5_000_000)
    small = solve(game, seconds=300, max_nodes=5_000_000, max_bytes=4 << 20)
    assert roomy.verdict == small.verdict == "unwinnable"
    assert small.nodes > roomy.nodes


@pytest.mark.parametrize("ruleset", ["app", "cardgames", "classic"])
@pytest.mark.parametrize("reduce", [True, False])
def test_hand_built_dead_positions_are_unwinnable(ruleset, reduce):
    # The 2S is buried in the reserve under the 2H, and the 2H needs nothing that can come:
    # every other card is below them in the reserve.
    game = arrange(
        ruleset=ruleset,
        base="AH",
        found={"S": 1, "D": 1, "C": 1},
        tableau=[["5S"], ["5C"], ["9S"], ["9C"]],
        reserve=["2S", "2H"],
        stock=["3H"],
        rest="reserve",
    )
    solution = solve(game, seconds=5, reduce=reduce)
    assert solution.verdict == "unwinnable"


def test_a_won_game_and_an_almost_won_one():
    game = arrange(
        base="AH", found={"H": 13, "S": 13, "D": 13, "C": 12}, tableau=[["KC"], [], [], []]
    )
    solution = solve(game, seconds=1)
    assert solution.verdict == "won"
    assert [a.as_dict() for a in solution.line] == [
        {"type": "move", "from": "tableau:1", "to": "foundation:C", "count": 1}
    ]
    resigned = Game.deal(0)
    resigned.apply(Action("resign"))
    with pytest.raises(ValueError, match="the game is over"):
        solve(resigned)


def test_the_search_releases_the_gil():
    """Python threads run while a search does (a web worker's other threads are not held up)."""
    ticks = 0
    done = threading.Event()
    solutions = []

    def search() -> None:
        solutions.append(solve(Game.deal(1), seconds=1.0))  # deal 1: undecided within a second
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    while not done.wait(0.02):  # ~50 wake-ups in the search's second on an idle machine
        ticks += 1
    thread.join()
    # the search ran its whole second (it ended on its time limit) ...
    assert (solutions[0].verdict, solutions[0].limit) == ("unknown", "time")
    # ... and this thread woke beside it: with the GIL held it would wake at most twice (before
    # the search entered the core and once it left), whatever the machine's load
    assert ticks >= 5
