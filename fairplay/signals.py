"""The fair-play signals (RULES R35), pure: the engine and the solver, no Django.

Each signal looks at one ranked game (`GameLog`: its deal and its action log with the moment of
each action) and answers a `Signal`: a score (0 = nothing seen; 1 = enough alone to hold the
game) and the evidence staff will read (JSON-able). `verdict` combines them.

The Django side (`fairplay.services`) builds the inputs from the database; `bench/fairplay.py`
builds them from simulated players. Both call exactly these functions.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Action, EngineError, Game
from games.solver import solve

# A game whose combined score reaches this is held for staff (tuned in bench/fairplay.py:
# honest play held <= 1 %).
HOLD_THRESHOLD = 1.0

# Thresholds as (score 1 at, score 0 at), linear between; tuned in bench/fairplay.py.
# timing: the fastest MOVE_WINDOW moves' and ACTION_WINDOW actions' seconds.
MOVE_WINDOW, MOVE_SECONDS = 20, (4.0, 8.0)
ACTION_WINDOW, ACTION_SECONDS = 60, (3.0, 6.0)  # R35's example
# identical: runs of SHINGLE actions; the share of them in common; games with fewer runs
# than IDENTICAL_MIN score less (a short game's opening is often everyone's).
SHINGLE, IDENTICAL_SHARE, IDENTICAL_MIN = 8, (0.95, 0.75), 30
# clairvoyance: up to SAMPLES seen-consistent deals per position, each search capped at
# SOLVE_NODES; the CPU budget counted as SEARCH_SECONDS a search (replaying its line) plus its
# nodes at NODES_PER_SECOND (the C core on one slow core); how often one who knows the hidden
# cards chooses the true deal's move; the log-likelihood ratio.
SAMPLES, SOLVE_NODES, SEARCH_SECONDS, NODES_PER_SECOND = 8, 100_000, 0.005, 2_000_000
# Each search's clock limit: a safety net only, a hundred times what SOLVE_NODES takes, so that
# the node limit ends every search and the answer does not depend on the machine's load (a
# search cut by the clock on a busy machine looked at other positions).
SOLVE_SECONDS = 5.0
CLAIRVOYANT_HIT, CLAIRVOYANT_LLR = 0.9, (8.0, 2.0)
# scouting: a linked scout's uncovered cards and hours before the game's end; the game's score.
SCOUT_CARDS, SCOUT_HOURS, STRONG_SCORE = (24, 10), (6, 48), (200, 100)


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
    """Actions at a pace no person keeps (e.g. 60 actions in under 3 s). A person's bursts are
    short, so the pace is the fastest run of MOVE_WINDOW moves (drawing through the stock is
    fast and human: draws do not count there) and of ACTION_WINDOW actions of any kind."""
    moves = [n for n, action in enumerate(game.actions) if action.kind == "move"]
    every = [n for n, action in enumerate(game.actions) if action.kind != "resign"]
    score, evidence = 0.0, {}
    for name, indexes, window, (full, none) in (
        ("moves", moves, MOVE_WINDOW, MOVE_SECONDS),
        ("actions", every, ACTION_WINDOW, ACTION_SECONDS),
    ):
        fastest = _fastest(game, indexes, window)
        if fastest is None:
            continue
        seconds, first, last = fastest
        evidence[name] = {"window": window, "seconds": round(seconds, 2), "from": first, "to": last}
        score = max(score, _ramp(seconds, full, none))
    return Signal("timing", score, evidence)


def identical(game: GameLog, others: Sequence[GameLog]) -> Signal:
    """The log identical or nearly identical to another account's game of the same deal;
    evidence names the closest one (`label`) and how much of the two logs match.

    Logs are compared by the line each kept (an undo takes back the action before it), as its
    runs of SHINGLE consecutive (kind, from, to, count) actions that hold a move: `share` is
    the part of the runs the two have in common, of the longer one's. A replay dressed up with
    draws or moves taken back keeps all of them, one with a few actions inserted most; two
    people's games of a deal share some runs (obvious openings, forced endings), not most.
    `others`: the deal's games by other accounts that ended before this one (compared the
    other way, the replayed game would match its replays)."""
    mine = _shingles(game)
    best: tuple[float, GameLog] | None = None
    for other in others:
        theirs = _shingles(other)
        if mine and theirs:
            share = len(mine & theirs) / max(len(mine), len(theirs))
            if best is None or share > best[0]:
                best = (share, other)
    if best is None:
        return Signal("identical", 0.0)
    share, other = best
    score = _ramp(share, *IDENTICAL_SHARE) * min(1.0, len(mine) / IDENTICAL_MIN)
    evidence = {"label": other.label, "share": round(share, 3), "runs": len(mine)}
    return Signal("identical", score, evidence)


def clairvoyance(game: GameLog, *, seconds: float = 10.0) -> Signal:
    """How often, where what the player had seen did not decide between moves, the player chose
    the move only the hidden cards justify (the solver on the true deal vs. on deals consistent
    with what was seen). Evidence: `choices`, each `{"n", "view": the public view of the
    position (the engine's `public_view()`), "chosen", "seen", "true"}` (and `share`: of the
    seen-consistent deals, the part whose search also chose `true`). `seconds`: CPU budget.

    At a position where some hidden card was never face up in this game and more than one
    action is legal, the solver searches the true position and up to SAMPLES positions whose
    unseen cards are permuted among the hidden places (stopping once half of them agree with
    the true one: what was seen decides). Where fewer than half do and the samples' most
    common first action (`seen`) is another than the true search's (`true`), a player who sees
    only the table chooses `true` there about as often as the samples do (`share`), one who
    knows the hidden cards nearly always (CLAIRVOYANT_HIT). The score ramps with the
    log-likelihood ratio of the two over these positions (CLAIRVOYANT_LLR). Positions are taken
    in an order seeded by the deal until the budget is spent, counted from the searches and
    their nodes rather than the clock, so that the answer is the same on any machine."""
    seed = int.from_bytes(hashlib.sha256(",".join(game.deck).encode()).digest()[:8], "big")
    positions = _positions(game)
    random.Random(seed).shuffle(positions)
    spent, looked, llr = 0.0, 0, 0.0
    choices: list[dict[str, Any]] = []
    for n, position, seen, chosen in positions:
        if spent >= seconds:
            break
        looked += 1
        solution = solve(position, seconds=SOLVE_SECONDS, max_nodes=SOLVE_NODES)
        spent += SEARCH_SECONDS + solution.nodes / NODES_PER_SECOND
        if not solution.line:
            continue
        true = solution.line[0].as_dict()
        rng = random.Random(seed + n)
        guesses: list[dict[str, Any]] = []
        agree = 0
        for _ in range(SAMPLES):
            solution = solve(
                sampled(position, seen, rng), seconds=SOLVE_SECONDS, max_nodes=SOLVE_NODES
            )
            spent += SEARCH_SECONDS + solution.nodes / NODES_PER_SECOND
            if solution.line:
                guesses.append(solution.line[0].as_dict())
                agree += _key(guesses[-1]) == _key(true)
            if 2 * agree >= SAMPLES:
                break
        if 2 * agree >= SAMPLES or not guesses:
            continue
        counts = Counter(_key(guess) for guess in guesses)
        likely = max(guesses, key=lambda guess: counts[_key(guess)])
        if _key(likely) == _key(true):  # the samples split, but the true move leads them
            continue
        share = (agree + 0.5) / (SAMPLES + 1)
        knew = _key(chosen) == _key(true)
        llr += math.log(CLAIRVOYANT_HIT / share if knew else (1 - CLAIRVOYANT_HIT) / (1 - share))
        view = position.public_view()
        choices.append(
            {"n": n, "view": view, "chosen": chosen, "seen": likely, "true": true, "share": share}
        )
    choices.sort(key=lambda choice: int(choice["n"]))
    evidence = {
        "positions": looked,
        "n": len(choices),
        "true": sum(_key(choice["chosen"]) == _key(choice["true"]) for choice in choices),
        "seen": sum(_key(choice["chosen"]) == _key(choice["seen"]) for choice in choices),
        "llr": round(llr, 2),
        "choices": choices,
    }
    return Signal("clairvoyance", _ramp(llr, *CLAIRVOYANT_LLR), evidence)


def uncovered(game: GameLog) -> int:
    """How many hidden cards (stock, reserve below its top) the log uncovered beyond what plain
    forward play shows: a scout's draw-undo loops and explorations. Counted: the cards that were
    first face up after an action that was then undone."""
    play = dealt(game)
    seen = visible(play)
    hidden = frozenset(range(52)) - seen
    shown: list[set[int]] = []  # per action undo can still take back: the cards it showed first
    explored: set[int] = set()
    for action in game.actions:
        if not _applied(play, action):
            break
        if action.kind == "undo":
            explored |= shown.pop()
            continue
        new = visible(play) - seen
        seen |= new
        shown.append(new)
    return len(explored & hidden)


def scouting(game: GameLog, scouts: Sequence[Scout]) -> Signal:
    """Accounts linked to this one whose game of the deal uncovered hidden cards shortly before
    this (strong) game. A scout weighs by its uncovered cards (SCOUT_CARDS) and how recently it
    ended (SCOUT_HOURS); an unlinked one or one that ended after this game weighs nothing; the
    game by its score (STRONG_SCORE). A link alone, or cards uncovered alone, weighs nothing."""
    play = dealt(game)
    for action in game.actions:
        if not _applied(play, action):
            break
    strength = _ramp(play.score, *STRONG_SCORE)
    best: tuple[float, Scout] | None = None
    for scout in scouts:
        if not scout.links or scout.ended_before < 0:
            continue
        weight = _ramp(scout.uncovered, *SCOUT_CARDS) * _ramp(
            scout.ended_before / 3600, *SCOUT_HOURS
        )
        if best is None or weight > best[0]:
            best = (weight, scout)
    if best is None:
        return Signal("scouting", 0.0)
    weight, scout = best
    evidence = {
        "label": scout.label,
        "uncovered": scout.uncovered,
        "ended_before": round(scout.ended_before, 1),
        "links": list(scout.links),
        "game_score": play.score,
    }
    return Signal("scouting", weight * strength, evidence)


def verdict(signals: Sequence[Signal]) -> tuple[float, bool]:
    """The combined score and whether it reaches `HOLD_THRESHOLD`."""
    total = round(sum(signal.score for signal in signals), 3)
    return total, total >= HOLD_THRESHOLD


# -- helpers ---------------------------------------------------------------------------------


def _ramp(value: float, full: float, none: float) -> float:
    """0 at `none`, 1 at `full`, linear between and flat beyond (either direction)."""
    return min(1.0, max(0.0, (value - none) / (full - none)))


def dealt(game: GameLog) -> Game:
    return Game.new(game.deck, ruleset=game.ruleset, draw=game.draw)


def _applied(play: Game, action: LoggedAction) -> bool:
    """Apply one logged action; False (nothing applied) at a resignation or an action the engine
    refuses (a server's log has none: the walk ends there)."""
    if action.kind == "resign":
        return False
    try:
        play.apply(Action(action.kind, action.from_pile, action.to_pile, action.count or 1))
    except EngineError:
        return False
    return True


def visible(play: Game) -> set[int]:
    """The cards face up now: columns, the waste's fan (or top), the reserve's top, foundations'
    tops."""
    cards = {card for column in play.tableau for card in column}
    cards.update(play.waste[-max(play.fan, 1) :] if play.waste else ())
    cards.update(play.reserve[-1:])
    cards.update(top for suit in range(4) if (top := play.foundation_top(suit)) is not None)
    return cards


def _key(action: dict[str, Any]) -> tuple[Any, ...]:
    return (action["type"], action.get("from"), action.get("to"), action.get("count"))


def _chosen(action: LoggedAction) -> dict[str, Any]:
    return Action(action.kind, action.from_pile, action.to_pile, action.count or 1).as_dict()


def _positions(game: GameLog) -> list[tuple[int, Game, frozenset[int], dict[str, Any]]]:
    """(n, the position, the cards seen before it, the action chosen there) where a move, draw
    or recycle was chosen among several, with some hidden card never yet face up."""
    play = dealt(game)
    seen = visible(play)
    positions = []
    for n, action in enumerate(game.actions, start=1):
        unseen = any(card not in seen for card in (*play.stock, *play.reserve[:-1]))
        if unseen and action.kind in ("move", "draw", "recycle"):
            options = [legal for legal in play.legal_actions() if legal["type"] != "undo"]
            if len(options) > 1:
                copy = Game.from_dict(play.to_dict())
                positions.append((n, copy, frozenset(seen), _chosen(action)))
        if not _applied(play, action):
            break
        seen |= visible(play)
    return positions


def sampled(position: Game, seen: frozenset[int], rng: random.Random) -> Game:
    """`position` with the never-seen cards permuted among their hidden places (stock, reserve
    below the top): a deal the player could believe in."""
    copy = Game.from_dict(position.to_dict())
    top = copy.reserve[-1:]
    places = [*copy.stock, *copy.reserve[:-1]]
    unseen = [card for card in places if card not in seen]
    dealt = iter(rng.sample(unseen, len(unseen)))
    places = [card if card in seen else next(dealt) for card in places]
    copy.stock, copy.reserve = places[: len(copy.stock)], places[len(copy.stock) :] + top
    return copy


def _fastest(game: GameLog, indexes: list[int], window: int) -> tuple[float, int, int] | None:
    """The shortest time any `window` consecutive actions of `indexes` took, with the log
    numbers (from 1) of the first and last; None for fewer actions."""
    if len(indexes) < window:
        return None
    at = [game.actions[n].at for n in indexes]
    span, i = min((at[i + window - 1] - at[i], i) for i in range(len(at) - window + 1))
    return span, indexes[i] + 1, indexes[i + window - 1] + 1


def _shingles(game: GameLog) -> set[tuple[tuple[Any, ...], ...]]:
    """The runs of SHINGLE actions that hold a move, in the line the log kept: each undo takes
    back the action before it, so detours taken back leave nothing."""
    tokens: list[tuple[Any, ...]] = []
    for a in game.actions:
        if a.kind == "undo":
            del tokens[-1:]
        elif a.kind in ("draw", "recycle"):
            tokens.append((a.kind,))
        elif a.kind == "move":
            tokens.append((a.kind, a.from_pile, a.to_pile, a.count))
    runs = (tuple(tokens[i : i + SHINGLE]) for i in range(len(tokens) - SHINGLE + 1))
    return {run for run in runs if any(token[0] == "move" for token in run)}
