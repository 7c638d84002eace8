"""The fair-play signals (RULES R35), pure: the engine and the solver, no Django.

Each signal looks at one ranked game (`GameLog`: its deal and its action log with the moment of
each action) and answers a `Signal`: a score (0 = nothing seen; 1 = enough alone to hold the
game) and the evidence staff will read (JSON-able). `verdict` combines them.

The Django side (`fairplay.services`) builds the inputs from the database; `bench/fairplay.py`
builds them from simulated players. Both call exactly these functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# A game whose combined score reaches this is held for staff (tuned in bench/fairplay.py:
# honest play held <= 1 %).
HOLD_THRESHOLD = 1.0


@dataclass(frozen=True)
class LoggedAction:
    """One action of the log as the player sent it (concrete piles, as `Action` rows are):
    `kind` is move, draw, recycle, undo or resign; `at`: seconds since the game was dealt."""

    kind: str
    from_pile: str | None = None
    to_pile: str | None = None
    count: int | None = None
    at: float = 0.0


@dataclass(frozen=True)
class GameLog:
    """One game as the review sees it: the deal (d[0..51] dealt by R5), the rules and the log."""

    deck: tuple[str, ...]
    draw: int
    ruleset: str
    actions: tuple[LoggedAction, ...]
    label: str = ""  # who/what it is, for evidence: a game id or a simulated player's name


@dataclass(frozen=True)
class Scout:
    """Another account's game of the same deal, as `scouting` weighs it: the hidden cards its
    log uncovered (`uncovered(log)`), how many seconds before the reviewed game's end it ended
    (negative: after), and what links its owner to the reviewed game's owner (e.g. "address",
    "signed up 3 min apart", "played just before"); empty when nothing does."""

    label: str
    uncovered: int
    ended_before: float
    links: tuple[str, ...] = ()


@dataclass(frozen=True)
class Signal:
    name: str  # timing, identical, clairvoyance, scouting
    score: float
    evidence: dict[str, Any] = field(default_factory=dict)


def timing(game: GameLog) -> Signal:
    """Actions at a pace no person keeps (e.g. 60 actions in under 3 s)."""
    # Temporary body (the seer's replaces it): 60 actions within 3 s anywhere in the log.
    times = [action.at for action in game.actions]
    fastest = min((times[i + 59] - times[i] for i in range(len(times) - 59)), default=float("inf"))
    shown = None if fastest == float("inf") else round(fastest, 3)
    return Signal("timing", 1.0 if fastest < 3.0 else 0.0, {"fastest_60_seconds": shown})


def identical(game: GameLog, others: Sequence[GameLog]) -> Signal:
    """The log identical or nearly identical to another account's game of the same deal;
    evidence names the closest one (`label`) and how much of the two logs match."""

    # Temporary body (the seer's replaces it): the same action sequence, times aside.
    def moves(log: GameLog) -> list[tuple[Any, ...]]:
        return [(a.kind, a.from_pile, a.to_pile, a.count) for a in log.actions]

    mine = moves(game)
    for other in others:
        if mine and moves(other) == mine:
            return Signal("identical", 1.0, {"label": other.label, "match": 1.0})
    return Signal("identical", 0.0, {})


def clairvoyance(game: GameLog, *, seconds: float = 10.0) -> Signal:
    """How often, where what the player had seen did not decide between moves, the player chose
    the move only the hidden cards justify (the solver on the true deal vs. on deals consistent
    with what was seen). Evidence: `choices`, each `{"n", "view": the public view of the
    position (the engine's `public_view()`), "chosen", "seen", "true"}`. `seconds`: CPU budget."""
    return Signal("clairvoyance", 0.0, {"choices": []})  # temporary body (the seer's)


def uncovered(game: GameLog) -> int:
    """How many hidden cards (stock, reserve below its top) the log uncovered beyond what plain
    forward play shows: a scout's draw-undo loops and explorations."""
    return 0  # temporary body (the seer's)


def scouting(game: GameLog, scouts: Sequence[Scout]) -> Signal:
    """Accounts linked to this one whose game of the deal uncovered hidden cards shortly before
    this (strong) game."""
    return Signal("scouting", 0.0, {})  # temporary body (the seer's)


def verdict(signals: Sequence[Signal]) -> tuple[float, bool]:
    """The combined score and whether it reaches `HOLD_THRESHOLD`."""
    score = sum(signal.score for signal in signals)  # temporary body (the seer's)
    return score, score >= HOLD_THRESHOLD
