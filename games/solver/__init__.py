"""Canfield solver: a C core (games/solver/_core.c) behind a small typed API.

    >>> from games.engine import Game
    >>> solution = solve(Game.deal(0), seconds=5)
    >>> solution.verdict, len(solution.line) > 0
    ('won', True)

`solve` reads the position of a games.engine Game (any rule set, draw 1 or 3, in progress) and
searches it exhaustively within a time budget, a node cap and a memory cap, without holding the
GIL. Its verdict is `won` (with `line`, the engine actions that win from the position, already
replayed through the engine), `unwinnable` (the whole search space was exhausted: no line wins)
or `unknown` (a limit stopped the search first; `limit` says which). The undo history is not
part of the position: a verdict is about the cards as they lie.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Literal

from games.engine import Action, EngineError, Game
from games.engine.actions import PILE_NAMES
from games.solver import _core

log = logging.getLogger(__name__)

Verdict = Literal["won", "unwinnable", "unknown"]
Position = tuple[object, ...]

GIB = 1 << 30
# R30: a hint's search budget and memory, so that a web worker answers well within 1 s.
HINT_SECONDS = 0.4
HINT_BYTES = 256 << 20
# Searches for wins only, before the whole search (docs/solver.md), each with at most a share
# of the time budget: partial tails move only to free a card that a foundation takes next
# (TAILS), first also without take-backs (TAKEBACKS), then with them. Their lines are legal
# lines; they prove nothing unwinnable. The flags are _core.c's.
TAILS, TAKEBACKS = 1, 2
NARROW = ((TAILS | TAKEBACKS, 0.125), (TAILS, 0.25))
_STATUSES: dict[int, tuple[Verdict, str | None]] = {
    0: ("won", None),
    1: ("unwinnable", None),
    2: ("unknown", "time"),
    3: ("unknown", "nodes"),
    4: ("unknown", "memory"),
}


@dataclass(frozen=True, slots=True)
class Solution:
    verdict: Verdict
    line: tuple[Action, ...] = ()  # when won: the actions that win, first to last
    nodes: int = 0  # positions the search generated
    seconds: float = 0.0
    limit: str | None = None  # why an `unknown`: time, nodes, memory, or replay (a bug)


def position(game: Game) -> Position:
    """The solver's view of `game` (see _core.c): rules, foundations, piles, columns."""
    rules = game.rules
    return (
        rules.any_tail,
        rules.foundation_to_tableau,
        rules.empty_takes_any,
        rules.auto_finish,
        game.draw,
        game.start_rank,
        tuple(game.found),
        tuple(game.reserve),
        (*game.waste, *reversed(game.stock)),
        len(game.waste),
        tuple(tuple(column) for column in game.tableau),
    )


def action(kind: int, src: int, dst: int, count: int) -> Action:
    """The engine action for one action tuple of the core."""
    if kind == 1:
        return Action("draw")
    if kind == 2:
        return Action("recycle")
    return Action("move", PILE_NAMES[src], PILE_NAMES[dst], count)


def solve(
    game: Game,
    *,
    seconds: float = 10.0,
    max_nodes: int = 0,
    max_bytes: int = GIB,
    reduce: bool = True,
) -> Solution:
    """Search `game`'s position. `max_nodes` 0 means no node cap; `reduce=False` turns off
    the search reductions (docs/solver.md), for tests."""
    if game.status == "won":
        return Solution("won")
    if game.is_over:
        raise ValueError(f"the game is over ({game.status})")
    started = time.monotonic()
    here = position(game)
    # First searches for wins only (see NARROW): most winnable deals fall to them fast. Then
    # the whole search, with the time they leave.
    status, nodes, tried = -1, 0, set()
    for narrow, share in NARROW:
        narrow &= (TAILS if game.rules.any_tail else 0) | (
            TAKEBACKS if game.rules.foundation_to_tableau else 0
        )
        if not narrow or narrow in tried:  # it would restrict nothing, or search it again
            continue
        tried.add(narrow)
        left = max(0.0, seconds - (time.monotonic() - started))
        status, actions, more = _core.solve(
            here, reduce, narrow, min(left, seconds * share), _left(max_nodes, nodes), max_bytes
        )
        nodes += more
        if status == 0:
            break
    if status != 0:
        left = max(0.0, seconds - (time.monotonic() - started))
        status, actions, more = _core.solve(
            here, reduce, 0, left, _left(max_nodes, nodes), max_bytes
        )
        nodes += more
    verdict, limit = _STATUSES[status]
    line: tuple[Action, ...] = ()
    if verdict == "won":
        line = _replayed(game, [action(*a) for a in actions])
        if not line:
            verdict, limit = "unknown", "replay"
    return Solution(verdict, line, nodes, time.monotonic() - started, limit)


def _left(max_nodes: int, nodes: int) -> int:
    """The node cap of the next search: 0 (none), or what is left of `max_nodes` (at least 1)."""
    return max(max_nodes - nodes, 1) if max_nodes else 0


def _replayed(game: Game, line: list[Action]) -> tuple[Action, ...]:
    """`line` up to the action that wins, replayed on a copy of `game`; () if it does not win
    (a solver bug: logged)."""
    copy = Game.from_dict(game.to_dict())
    for n, step in enumerate(line):
        try:
            copy.apply(step)
        except EngineError as error:
            log.error("solver line fails at action %d %s: %s", n, step.as_dict(), error)
            return ()
        if copy.status == "won":
            return tuple(line[: n + 1])
    log.error("solver line of %d actions does not win", len(line))
    return ()


def hint(game: Game) -> tuple[dict[str, Any] | None, bool | None]:
    """R30: (the next action of a winning line, True), (None, False) when no line wins, or
    (None, None) when the search could not decide within HINT_SECONDS."""
    solution = solve(game, seconds=HINT_SECONDS, max_bytes=HINT_BYTES)
    if solution.verdict == "won":
        return solution.line[0].as_dict(), True
    return None, False if solution.verdict == "unwinnable" else None
