"""Where the win was lost (RULES R37), pure: the engine and the solver, no Django.

A finished game's log, with what undo took back taken out, is the line the player kept:
positions 0 (the deal) to N (after the kept line's last action). For each position the
analysis says whether the deal could still be won from it: True, False, or None when the
solver could not decide it within its budget. The first kept action that took a winnable
position to one that is not is where the win was lost; the solver's winning line from the
position before it shows what would have won.

The solver runs on the true deal (the game is over and its deal may be shown: the caller's
check, R19), each search with a fixed node budget (NODES), never a clock, so an analysis is
the same on any machine, under any load.

Along the kept line winnability only ever goes one way: a position after a winnable one may
be lost, but a position after a lost one is lost (its winning line, with the action before
it, would win the one before), and one before a winnable one is winnable. So the positions
are winnable up to some point and lost after it, and a search of one position decides every
position on one side of it: the analysis searches as a binary search does, the middle of the
longest stretch of positions still undecided first, until every position is decided or has
been searched without a verdict (or UNDECIDED_SEARCHES searches found none). A game of 300
actions costs about nine searches.

    >>> from games.engine import Action, Game
    >>> result = analyse(Game.deal(0), [Action("draw"), Action("undo"), Action("resign")])
    >>> result.kept, result.winnable, result.lost_at
    ((), (True,), None)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine import Action, EngineError, Game
from games.solver import solve

# The node budget of one position's search, and how many searches without a verdict a game
# may have before the analysis stops (the positions still open stay undecided), tuned in
# bench/analysis.py (docs/benchmarks.md): 1,000 games of 150-300 actions, p99 under 5 s a game
# on one core, under 1 % of positions left undecided. A game costs at most about
# (log2(positions) + UNDECIDED_SEARCHES) * NODES nodes.
NODES = 1_000_000
UNDECIDED_SEARCHES = 12
# Each search's clock and memory limits: safety nets only, far above what NODES takes (about
# 0.2 s and 20 MiB), so that the node budget ends every search.
SAFETY_SECONDS = 60.0
SAFETY_BYTES = 256 << 20


@dataclass(frozen=True)
class Analysis:
    """`kept`: the log numbers (n, from 1) of the kept line's actions, in order; `winnable`:
    one verdict per position, len(kept) + 1 of them (position i follows kept action i, position
    0 is the deal); `lost_at`: the n of the action after which the deal was no longer winnable
    (None: it never was, it stayed winnable, or the solver left the turn undecided); `line`:
    the solver's winning line from position `line_from` (the one before `lost_at`, or the last
    position of a game given up while it could still be won), else empty; `kept_moves`: the
    kept line's moves (R25, undo not counted); `searches` and `nodes`: what the solver did."""

    kept: tuple[int, ...]
    winnable: tuple[bool | None, ...]
    lost_at: int | None
    line_from: int | None
    line: tuple[Action, ...]
    kept_moves: int
    searches: int
    nodes: int

    @property
    def undecided(self) -> int:
        """Positions the solver left undecided."""
        return sum(verdict is None for verdict in self.winnable)


def kept_line(start: Game, log: Sequence[Action]) -> list[tuple[int, Action]]:
    """The actions of `log` (from the deal `start`, n = index + 1) that no undo took back, as
    (n, action): each undo takes back the latest action still kept (R24). A resignation, or
    an action the engine refuses (a server's log has none), ends the line."""
    play = Game.from_dict(start.to_dict())
    kept: list[tuple[int, Action]] = []
    for n, action in enumerate(log, start=1):
        if action.type == "resign":
            break
        try:
            play.apply(action)
        except EngineError:
            break
        if action.type == "undo":
            kept.pop()
        else:
            kept.append((n, action))
    return kept


def analyse(
    start: Game,
    log: Sequence[Action],
    *,
    nodes: int = NODES,
    progress: Callable[[float], None] | None = None,
) -> Analysis:
    """The analysis of the game dealt as `start` and played as `log` (the whole log, undos
    and the resignation included, as engine actions: a tap as the move it became). `progress`
    is told the share of positions decided so far after each search."""
    kept = kept_line(start, log)
    positions = [Game.from_dict(start.to_dict())]
    for _, action in kept:
        after = Game.from_dict(positions[-1].to_dict())
        after.apply(action)
        positions.append(after)
    last = len(positions) - 1
    # Positions up to `won` are winnable, from `lost` on lost; `tried` were searched in vain.
    won, lost, tried = -1, last + 1, set[int]()
    lines: dict[int, tuple[Action, ...]] = {}
    searches = spent = 0
    if positions[last].status == "won":
        won = last
    while len(tried) < UNDECIDED_SEARCHES and (pick := _middle(won, lost, tried)) is not None:
        solution = solve(
            positions[pick], seconds=SAFETY_SECONDS, max_nodes=nodes, max_bytes=SAFETY_BYTES
        )
        searches, spent = searches + 1, spent + solution.nodes
        if solution.verdict == "won":
            won, lines[pick] = pick, solution.line
        elif solution.verdict == "unwinnable":
            lost = pick
        else:
            tried.add(pick)
        if progress is not None:
            open_ = sum(1 for i in range(won + 1, lost) if i not in tried)
            progress(1 - open_ / len(positions))
    winnable = tuple(
        True if i <= won else False if i >= lost else None for i in range(len(positions))
    )
    lost_at = kept[won][0] if won >= 0 and lost == won + 1 <= last else None
    # The line from before the turn, or from where a winnable game was given up.
    line_from = won if won in lines and (lost_at is not None or won == last) else None
    return Analysis(
        kept=tuple(n for n, _ in kept),
        winnable=winnable,
        lost_at=lost_at,
        line_from=line_from,
        line=() if line_from is None else lines[line_from],
        kept_moves=positions[last].moves,
        searches=searches,
        nodes=spent,
    )


def _middle(won: int, lost: int, tried: set[int]) -> int | None:
    """The middle of the longest run of positions between `won` and `lost` not yet searched
    (the first such run on a tie), or None when there is none."""
    best: tuple[int, int] | None = None  # (length, first)
    first = won + 1
    for i in range(won + 1, lost + 1):
        if i == lost or i in tried:
            if i > first and (best is None or i - first > best[0]):
                best = (i - first, first)
            first = i + 1
    return None if best is None else best[1] + (best[0] - 1) // 2
