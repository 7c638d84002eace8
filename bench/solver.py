"""Solver benchmark (issue 12): `python bench/solver.py` prints, per rule set and draw mode, the
share of deals decided (won or unwinnable) and the winnable share, solve times (median, p95),
hint times on mid-game positions, and the attempts daily creation needs (R29).

The full run: CF1 deals 0-999 draw 3 `app`, 300 draw 1, 300 `classic`; 10 s and 1 GiB per
deal, two deals at a time; 500 hint positions; 365 dates. `--quick` runs a reduced version
(200 / 60 / 60 deals, 100 hints, 30 dates) for a shared machine: report it as such.
Targets (`app` draw 3): decided >= 99%, median <= 50 ms, p95 <= 2 s; hints p95 <= 500 ms.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Action, Game  # noqa: E402
from games.solver import GIB, hint, solve  # noqa: E402


def _solve(task: tuple[int, str, int, float, int]) -> tuple[str, float, int]:
    number, ruleset, draw, seconds, max_bytes = task
    solution = solve(
        Game.deal(number, ruleset=ruleset, draw=draw), seconds=seconds, max_bytes=max_bytes
    )
    return solution.verdict, solution.seconds, len(solution.line)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def deals(
    pool: Pool, label: str, count: int, ruleset: str, draw: int, args: argparse.Namespace
) -> None:
    tasks = [(n, ruleset, draw, args.seconds, args.max_bytes) for n in range(count)]
    results = pool.map(_solve, tasks, chunksize=1)
    verdicts = [verdict for verdict, _, _ in results]
    times = [seconds for _, seconds, _ in results]
    won, dead = verdicts.count("won"), verdicts.count("unwinnable")
    lines = [moves for verdict, _, moves in results if verdict == "won"]
    print(
        f"{label:<14} deals 0-{count - 1}: decided {100 * (won + dead) / count:5.1f}%  "
        f"won {100 * won / count:5.1f}%  unwinnable {100 * dead / count:5.1f}%  "
        f"unknown {count - won - dead}  median {1000 * statistics.median(times):7.1f} ms  "
        f"p95 {1000 * _p(times, 0.95):7.1f} ms  max {max(times):5.2f} s  "
        f"line median {statistics.median(lines) if lines else 0:.0f} actions",
        flush=True,
    )
    unknown = [n for n, verdict in enumerate(verdicts) if verdict == "unknown"]
    if unknown:
        print(f"{'':<14} undecided: {', '.join(map(str, unknown))}", flush=True)


def mid_game(rng: random.Random, number: int) -> Game | None:
    """A position after 20-80 random legal actions (no undo) of CF1 deal `number`."""
    game = Game.deal(number, draw=rng.choice((3, 1)))
    for _ in range(rng.randint(20, 80)):
        legal = [a for a in game.legal_actions() if a["type"] != "undo"]
        if not legal or game.is_over:
            return None
        game.apply(Action.from_dict(rng.choice(legal)))
    return None if game.is_over else game


def hints(count: int) -> None:
    rng = random.Random(12)
    times, answers = [], {True: 0, False: 0, None: 0}
    number = 100_000
    while len(times) < count:
        number += 1
        game = mid_game(rng, number)
        if game is None:
            continue
        start = time.perf_counter()
        _, winnable = hint(game)
        times.append(time.perf_counter() - start)
        answers[winnable] += 1
    print(
        f"hints on {count} mid-game positions: median {1000 * statistics.median(times):.1f} ms  "
        f"p95 {1000 * _p(times, 0.95):.1f} ms  max {1000 * max(times):.0f} ms  "
        f"winnable {answers[True]}, no line {answers[False]}, undecided {answers[None]}",
        flush=True,
    )


def dailies(days: int, seconds: float) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canfield_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # the development settings
    import django

    django.setup()
    from leaderboard.services import challenge_deal_solve

    start = dt.date(2027, 1, 1)
    for draw in (3, 1):
        attempts, times = [], []
        for offset in range(days):
            began = time.perf_counter()
            attempt, _, _ = challenge_deal_solve(
                date=start + dt.timedelta(days=offset), draw=draw, seconds=seconds
            )
            attempts.append(attempt + 1)
            times.append(time.perf_counter() - began)
        spread = {n: attempts.count(n) for n in sorted(set(attempts))}
        print(
            f"daily creation, draw {draw}, {days} dates from {start}: attempts per day "
            f"mean {statistics.mean(attempts):.2f} max {max(attempts)} {spread}; "
            f"seconds per day median {statistics.median(times):.2f} max {max(times):.1f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="reduced run for a shared machine")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per deal")
    parser.add_argument("--max-bytes", type=int, default=GIB, help="memory cap per deal")
    parser.add_argument("--jobs", type=int, default=2, help="deals solved at a time")
    args = parser.parse_args()
    scale = (200, 60, 60, 100, 30) if args.quick else (1000, 300, 300, 500, 365)
    print(
        f"solver benchmark ({'REDUCED --quick' if args.quick else 'full'}): {args.seconds:g} s "
        f"and {args.max_bytes >> 20} MiB per deal, {args.jobs} at a time",
        flush=True,
    )
    with Pool(args.jobs) as pool:
        deals(pool, "app draw 3", scale[0], "app", 3, args)
        deals(pool, "app draw 1", scale[1], "app", 1, args)
        deals(pool, "classic draw 3", scale[2], "classic", 3, args)
    hints(scale[3])
    dailies(scale[4], args.seconds)


if __name__ == "__main__":
    main()
