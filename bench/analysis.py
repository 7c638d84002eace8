"""Analysis benchmark (issue 33, RULES R37): `python bench/analysis.py` analyses finished games
of 150-300 actions with exactly games/analysis.py, one after another on one core, and prints
the CPU seconds per game (p50, p99), the share of positions left undecided at the node budget
and the searches per game.

The games are played with the engine on random CF2 deals (`app`, draw 3) by three kinds of
player, in turn: bench/fairplay.py's honest rule of thumb and backtracker (which explores with
undo), and a random player (any legal action, an undo now and then, gives up after a number of
actions of its own). A game counts when its log holds 150 to 300 actions; others are dealt
again. Everything is seeded: two runs analyse the same games and print the same verdicts.

Targets: p99 <= 5 s a game, <= 1 % of positions undecided. `--games` (1,000), `--nodes` (the
budget per search, default games.analysis.NODES), `--quick` (40 games).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.analysis import NODES, analyse  # noqa: E402
from games.engine import Action, Game  # noqa: E402
from games.engine.deal import shuffled_deck  # noqa: E402

SHORTEST, LONGEST = 150, 300
RANDOM_UNDO = 0.08  # the random player's share of undos


def _fairplay_bench() -> ModuleType:
    """bench/fairplay.py under another name (its own would shadow the fairplay package)."""
    path = Path(__file__).resolve().parent / "fairplay.py"
    spec = importlib.util.spec_from_file_location("bench_fairplay", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fairplay"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


players = _fairplay_bench()


def random_player(deck: tuple[str, ...], rng: random.Random) -> list[Action]:
    """Any legal action (undo now and then), until the game is won or the player has had
    enough (a length of its own)."""
    game, log = Game.new(deck), list[Action]()
    enough = rng.randint(SHORTEST, LONGEST) - 1
    while not game.is_over and len(log) < enough:
        legal = [a for a in game.legal_actions() if a["type"] != "undo"]
        undo = game.undo_available and rng.random() < RANDOM_UNDO
        action = Action("undo") if undo or not legal else Action.from_dict(rng.choice(legal))
        game.apply(action)
        log.append(action)
    if not game.is_over:
        log.append(Action("resign"))
    return log


def honest(kind: str, deck: tuple[str, ...], rng: random.Random) -> list[Action]:
    play = players.rule_of_thumb if kind == "rule of thumb" else players.backtracker
    logged = play(deck, rng, kind).actions
    return [
        Action(a.kind, a.from_pile, a.to_pile, a.count or 1) if a.kind == "move" else Action(a.kind)
        for a in logged
    ]


def games(count: int, seed: int) -> list[tuple[str, tuple[str, ...], list[Action]]]:
    """`count` games of SHORTEST..LONGEST actions: (kind, deck, log)."""
    rng, found = random.Random(seed), []
    kinds = ("rule of thumb", "backtracker", "random")
    while len(found) < count:
        kind = kinds[len(found) % len(kinds)]
        deck = tuple(shuffled_deck(rng.getrandbits(127), version=2))
        log = random_player(deck, rng) if kind == "random" else honest(kind, deck, rng)
        if SHORTEST <= len(log) <= LONGEST:
            found.append((kind, deck, log))
    return found


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=NODES)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--quick", action="store_true", help="40 games")
    args = parser.parse_args()
    count = 40 if args.quick else args.games
    played = games(count, args.seed)
    seconds, positions, undecided, searches = [], 0, 0, []
    kinds: Counter[str] = Counter()
    by_kind: dict[str, list[float]] = {}
    not_won: list[float] = []
    outcomes: Counter[str] = Counter()
    for kind, deck, log in played:
        began = time.process_time()
        result = analyse(Game.new(deck), log, nodes=args.nodes)
        seconds.append(time.process_time() - began)
        by_kind.setdefault(kind, []).append(seconds[-1])
        if log[-1].type == "resign":
            not_won.append(seconds[-1])
        positions += len(result.winnable)
        undecided += result.undecided
        searches.append(result.searches)
        kinds[kind] += 1
        if result.lost_at is not None:
            outcomes["lost at a known action"] += 1
        elif all(result.winnable):
            outcomes["winnable throughout"] += 1
        elif result.winnable[0] is False:
            outcomes["never winnable"] += 1
        else:
            outcomes["turn undecided"] += 1
    lengths = [len(log) for _, _, log in played]
    print(
        f"games: {len(played)} ({', '.join(f'{n} {kind}' for kind, n in kinds.items())}), "
        f"{min(lengths)}-{max(lengths)} actions, mean {statistics.mean(lengths):.0f}"
    )
    print(f"node budget per search: {args.nodes:,}")
    print(f"seconds per game (CPU, one core): p50 {_percentile(seconds, 0.5):.3f} s, "
          f"p99 {_percentile(seconds, 0.99):.3f} s, max {max(seconds):.3f} s")  # fmt: skip
    for kind, spent in [*by_kind.items(), ("games not won", not_won)]:
        print(f"  {kind} ({len(spent)} games): p50 {_percentile(spent, 0.5):.3f} s, "
              f"p99 {_percentile(spent, 0.99):.3f} s")  # fmt: skip
    print(f"positions undecided: {undecided} of {positions} ({100 * undecided / positions:.2f} %)")
    print(f"searches per game: mean {statistics.mean(searches):.1f}, max {max(searches)}")
    print("outcomes: " + ", ".join(f"{n} {what}" for what, n in outcomes.most_common()))


if __name__ == "__main__":
    main()
