"""Engine speed: `python bench/engine.py` prints actions/s for the request path (load stored
state, check and apply one action, dump state), legal_actions and public_view (with R20a's
`stuck`) calls/s, random playouts/s and
the time to deal a game from a CF1 and from a CF2 number (R4, R4a).
Targets: >= 20,000 actions/s on one core (under 50 us each); a deal well under 1 ms."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Action, Game  # noqa: E402
from games.engine.deal import DEAL_NUMBERS  # noqa: E402

PLAYOUT_ACTIONS = 300


def recorded_play(rng: random.Random, games: int) -> list[tuple[dict, dict]]:
    """(stored state, legal action) pairs from random legal play, as a server would see them."""
    pairs = []
    for _ in range(games):
        game = Game.deal(rng.randrange(2**35), draw=rng.choice((1, 3)))
        for _ in range(PLAYOUT_ACTIONS):
            legal = game.legal_actions()
            if not legal:
                break
            action = rng.choice(legal)
            pairs.append((game.to_dict(), action))
            game.apply(Action.from_dict(action))
    return pairs


def request_path(pairs: list[tuple[dict, dict]]) -> float:
    start = time.perf_counter()
    for stored, action in pairs:
        game = Game.from_dict(stored)
        game.apply(Action.from_dict(action))
        game.to_dict()
    return len(pairs) / (time.perf_counter() - start)


def legal_actions_rate(pairs: list[tuple[dict, dict]]) -> float:
    games = [Game.from_dict(stored) for stored, _ in pairs]
    start = time.perf_counter()
    for game in games:
        game.legal_actions()
    return len(games) / (time.perf_counter() - start)


def public_view_rate(pairs: list[tuple[dict, dict]]) -> float:
    games = [Game.from_dict(stored) for stored, _ in pairs]
    start = time.perf_counter()
    for game in games:
        game.public_view()
    return len(games) / (time.perf_counter() - start)


def playouts_rate(rng: random.Random, count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        game = Game.deal(rng.randrange(2**35), ruleset=rng.choice(("app", "cardgames", "classic")))
        for _ in range(PLAYOUT_ACTIONS):
            legal = game.legal_actions()
            if not legal:
                break
            game.apply(Action.from_dict(rng.choice(legal)))
    return count / (time.perf_counter() - start)


def deal_time(rng: random.Random, version: int, count: int) -> float:
    """Seconds per Game.deal of a random number of format CF`version` (shuffle and layout)."""
    numbers = [rng.randrange(DEAL_NUMBERS[version]) for _ in range(count)]
    start = time.perf_counter()
    for number in numbers:
        Game.deal(number, version=version)
    return (time.perf_counter() - start) / count


def main() -> None:
    # --quick (make bench): a quarter of the games and deals.
    scale = 4 if "--quick" in sys.argv[1:] else 1
    rng = random.Random(2026)
    pairs = recorded_play(rng, 40 // scale)
    rate = request_path(pairs)
    print(
        f"request path (load, check+apply, dump): {rate:,.0f} actions/s ({1e6 / rate:.1f} us each)"
    )
    rate = legal_actions_rate(pairs)
    print(f"legal_actions: {rate:,.0f} calls/s ({1e6 / rate:.1f} us each)")
    rate = public_view_rate(pairs)
    print(f"public_view: {rate:,.0f} calls/s ({1e6 / rate:.1f} us each)")
    rate = playouts_rate(rng, 40 // scale)
    print(f"random playouts ({PLAYOUT_ACTIONS} legal actions each): {rate:,.1f} playouts/s")
    for version in (1, 2):
        print(
            f"deal a CF{version} game: {deal_time(rng, version, 5000 // scale) * 1e6:.0f} us each"
        )


if __name__ == "__main__":
    main()
