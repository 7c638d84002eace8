"""The simulated players of bench/fairplay.py: honest ones decide from the table alone, Finish
replaces the end game with one action, a padded replay is still the original's line, and the
forward scout learns the deal without undo. Figures are the benchmark's, not the tests'."""

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from fairplay.signals import (
    GameLog,
    identical,
    line,
    sampled,
    timing,
    uncovered,
    verdict,
    visible,
)
from games.engine import Game
from games.engine.deal import shuffled_deck

DECK = tuple(shuffled_deck(19, version=2))  # a CF2 deal the solver wins


def _bench() -> ModuleType:
    """bench/fairplay.py under another name (its own would shadow the fairplay package)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "fairplay.py"
    spec = importlib.util.spec_from_file_location("bench_fairplay", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fairplay"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = _bench()


def _solver_log(label: str) -> GameLog:
    truth = bench.solver_line(Game.new(DECK))
    return bench.clairvoyant(DECK, truth, random.Random(1), label, pace="person")


def test_the_rule_of_thumb_reads_only_the_table():
    # given: a rule-of-thumb game, replayed position by position
    log = bench.rule_of_thumb(DECK, random.Random(2), "thumb")
    style = bench.Style.of(random.Random(3))
    game, rng = Game.new(DECK), random.Random(4)
    seen = frozenset(visible(game))
    compared = 0
    for logged in log.actions[:-1]:
        # when: the cards it has not seen are dealt otherwise
        other = sampled(game, seen, rng)

        # then: it would make the same choices
        assert bench.choices(other, style) == bench.choices(game, style)
        compared += 1
        game.apply(bench._action(logged))
        seen |= visible(game)
    assert compared >= 30


def test_finish_replaces_the_end_game_with_one_action_that_wins():
    # given: a won game played by hand
    hand = _solver_log("hand")

    # when
    finish = bench.with_finish(hand)

    # then: the log up to where Finish was offered, then one finish; the game is won
    assert finish.actions[-1].kind == "finish"
    assert finish.actions[:-1] == hand.actions[: len(finish.actions) - 1]
    game = Game.new(DECK)
    for logged in finish.actions:
        game.apply(bench._action(logged))
    assert game.status == "won"
    assert timing(finish).evidence["finish"] >= 1  # it, and cards sent home by hand before it


def test_a_lost_game_is_the_same_with_finish():
    hand = bench.rule_of_thumb(DECK, random.Random(5), "thumb")
    assert hand.actions[-1].kind == "resign"
    assert bench.with_finish(hand) == hand


def test_a_padded_replay_keeps_the_original_line_and_is_held():
    # given: a won game and its copy with table-neutral round trips
    original = _solver_log("original")

    # when
    copy = bench.padded(original, random.Random(6), "padded")

    # then: about a third longer, the same line, held as a copy
    assert len(copy.actions) >= 1.2 * len(original.actions)
    assert line(copy) == line(original)
    signal = identical(copy, [original])
    assert signal.score == 1.0 and verdict([signal])[1]


def test_a_padded_replay_of_a_game_with_undos_still_wins():
    # given: a backtracker's won game of CF2 deal 6 (it undid its way back to a choice)
    original = bench.backtracker(tuple(shuffled_deck(6, version=2)), random.Random(0), "back")
    assert original.actions[-1].kind != "resign"
    assert any(action.kind == "undo" for action in original.actions)

    # when
    copy = bench.padded(original, random.Random(8), "padded")

    # then: the trips were never undone in the original's place
    assert copy.actions[-1].kind != "resign" and line(copy) == line(original)


def test_the_forward_scout_never_undoes_and_learns_the_deal():
    log = bench.forward_scout(DECK, random.Random(7), "forward")
    assert all(action.kind != "undo" for action in log.actions)
    assert len(uncovered(log)) >= 20  # the stock, drawn through, at the least


def test_the_backtracker_takes_back_what_stalled_and_plays_legally():
    logs = [bench.backtracker(DECK, random.Random(seed), "back") for seed in range(4)]
    assert any(action.kind == "undo" for log in logs for action in log.actions)
    for log in logs:
        game = Game.new(DECK)
        for logged in log.actions:
            game.apply(bench._action(logged))  # raises on an illegal action
