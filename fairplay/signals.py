"""The fair-play signals (RULES R35), pure: the engine and the solver, no Django.

Each signal looks at one ranked game (`GameLog`: its deal and its action log with the moment of
each action) and answers a `Signal`: a score (0 = nothing seen; 1 = enough alone to hold the
game) and the evidence staff will read (JSON-able). `verdict` combines them.

The Django side (`fairplay.services`) builds the inputs from the database; `bench/fairplay.py`
builds them from simulated players. Both call exactly these functions.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Action, EngineError, Game
from games.solver import Position, solve
from games.solver import position as table_of

# R35a: a game is held on two independent signals each at least MODERATE, or on one signal of a
# kind a person cannot produce (MACHINE: timing at machine pace, identical: a copied log, with
# or without padding) at STRONG. Scouting alone, clairvoyance alone or two weak signals never
# hold: being linked to a scout, or playing moves a solver happens to prefer, is no evidence
# by itself. Tuned in bench/fairplay.py: honest play held <= 1 %.
MODERATE, STRONG = 0.5, 1.0
MACHINE = frozenset({"timing", "identical"})
# Signals that read the same evidence (the game's own choices against the hidden cards) and
# so count as one kind towards R35a's two.
KINDS = {"foresight": "clairvoyance"}

# Thresholds as (score 1 at, score 0 at), linear between; tuned in bench/fairplay.py.
# timing: the fastest MOVE_WINDOW moves' and ACTION_WINDOW actions' seconds.
MOVE_WINDOW, MOVE_SECONDS = 20, (4.0, 8.0)
ACTION_WINDOW, ACTION_SECONDS = 60, (3.0, 6.0)  # R35's example
# identical: runs of SHINGLE actions; the share of them in common; games with fewer runs
# than IDENTICAL_MIN score less (a short game's line is often everyone's: in bench/fairplay.py
# two table-only players of a deal kept the same line of up to 66 runs in lost games, 1 deal in
# 20; won games keep 98 runs and more, so a copied win still scores in full).
SHINGLE, IDENTICAL_SHARE, IDENTICAL_MIN = 8, (0.95, 0.75), 90
# clairvoyance: up to SAMPLES seen-consistent deals per position; each search capped at
# SOLVE_NODES and the whole signal at GAME_NODES (node counts, never seconds: the verdict is
# the same on any machine, under any load and at any place in the queue, R35a). A choice is
# clairvoyant where at most CLEAR_ACCEPTS samples accept it and at least CLEAR_REJECTS prove
# another action winning; how often one who knows the hidden cards makes such a choice
# (CLAIRVOYANT_HIT) and how often a seen-only player throws away a proven win (THROWN); the
# log-likelihood ratio's ramp.
SAMPLES, SOLVE_NODES, GAME_NODES = 8, 20_000, 4_000_000
CLEAR_ACCEPTS, CLEAR_REJECTS = 1, 5
CLAIRVOYANT_HIT, THROWN, CLAIRVOYANT_LLR = 0.9, 0.5, (8.0, 2.0)
# Each search's clock limit per SOLVE_NODES of its node limit: a safety net only, far above
# what the nodes take even on a loaded machine, so that the node limit ends every search (a
# search cut by the clock, or a solver phase cut by its share of the clock, would depend on
# the machine's load).
SOLVE_SECONDS = 5.0
# scouting: the share of the hidden cards this game needed that a linked scout had seen, and
# hours before the game's end; the game's score.
SCOUT_SHARE, SCOUT_HOURS, STRONG_SCORE = (0.5, 0.2), (6, 48), (200, 100)


@dataclass(frozen=True)
class LoggedAction:
    """One action of the log as the player sent it (concrete piles, as `Action` rows are):
    `kind` is move, draw, recycle, undo, finish (R20b) or resign; `at`: seconds since the game
    was dealt."""

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
    (negative: after), and the identity links between its owner and the reviewed game's owner
    (e.g. "address", "signed up 3 min apart"); empty when nothing does."""

    label: str
    uncovered: frozenset[int]
    ended_before: float
    links: tuple[str, ...] = ()


@dataclass(frozen=True)
class Signal:
    name: str  # timing, identical, clairvoyance, scouting, surprise
    score: float
    evidence: dict[str, Any] = field(default_factory=dict)


def timing(game: GameLog) -> Signal:
    """Actions at a pace no person keeps (e.g. 60 actions in under 3 s). A person's bursts are
    short, so the pace is the fastest run of MOVE_WINDOW moves (drawing through the stock is
    fast and human: draws do not count there) and of ACTION_WINDOW actions of any kind.

    The table's Finish never counts (R20b): a `finish` action, nor, in logs from before it,
    the end-game run of moves to the foundations made once no card was hidden (`finished`):
    the table sends those home in a burst for any player."""
    skipped = finished(game)
    counted = [n for n, action in enumerate(game.actions) if n not in skipped]
    moves = [n for n in counted if game.actions[n].kind == "move"]
    every = [n for n in counted if game.actions[n].kind != "resign"]
    score, evidence = 0.0, dict[str, Any](finish=len(skipped))
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


def finished(game: GameLog) -> frozenset[int]:
    """The indexes of the log's Finish: every `finish` action, and the trailing run of moves
    to a foundation made from the first position where no card was hidden any more (the stock
    empty, the reserve at most its top: every card out of the foundations face up)."""
    skipped = {n for n, action in enumerate(game.actions) if action.kind == "finish"}
    tail = len(game.actions)
    while tail and _homeward(game.actions[tail - 1]):
        tail -= 1
    play = dealt(game)
    for n, action in enumerate(game.actions):
        if n >= tail and not _hidden(play):
            skipped.update(range(n, len(game.actions)))
            break
        if not _applied(play, action):
            break
    return frozenset(skipped)


def identical(game: GameLog, others: Sequence[GameLog]) -> Signal:
    """The log identical or nearly identical to another account's game of the same deal;
    evidence names the closest one (`label`) and how much of the two logs match.

    Logs are compared by the line each kept (`line`: replayed with the engine, every detour
    that came back to a table it had left cut out: undone actions, a move and its way back,
    draws through the talon that end where they began), as its runs of SHINGLE consecutive
    (kind, from, to, count) actions that hold a move: `share` is the part of the runs the two
    have in common, of the longer one's. A replay dressed up with detours or padded with
    table-neutral round trips keeps all of them; two people's games of a deal share some runs
    (obvious openings, forced endings), not most. `others`: the deal's games by other
    accounts that ended before this one (compared the other way, the replayed game would
    match its replays)."""
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


def clairvoyance(game: GameLog) -> Signal:
    """How often the player chose an action that wins on the true deal where what the player
    had seen clearly spoke against it. Evidence: `choices`, each `{"n", "view": the public view
    of the position (the engine's `public_view()`), "chosen" (= "true": winning on the true
    deal), "seen": the action the samples prove winning most often instead, "share": the part
    of the informative samples that accept the chosen action}`.

    At a position where some hidden card was never face up in this game and more than one
    action is legal, the solver asks whether the position after the chosen action still wins
    on the true deal. If it does, up to SAMPLES positions whose unseen cards are permuted
    among the hidden places are asked the same: a sample accepts the choice when its winning
    line starts with it or the position after it wins too, rejects it when only another
    action is proved winning, and tells nothing when the solver proves no win there. The choice
    counts only when the samples clearly disagree with it (at most CLEAR_ACCEPTS accept, at
    least CLEAR_REJECTS reject): an obvious move that the samples' solvers also win with is
    never clairvoyant, whichever move they would have tried first. A player who sees only the
    table makes such a choice about as often as the samples accept it (`share`), one who knows
    the hidden cards nearly always (CLAIRVOYANT_HIT); a choice that throws away a win the true
    deal had is what knowing rarely does (THROWN). The score ramps with the log-likelihood
    ratio (CLAIRVOYANT_LLR). Positions are taken in an order seeded by the deal until
    GAME_NODES nodes are spent: the same game always gets the same answer."""
    seed = int.from_bytes(hashlib.sha256(",".join(game.deck).encode()).digest()[:8], "big")
    positions = _positions(game)
    random.Random(seed).shuffle(positions)
    search = _Search()
    looked, llr = 0, 0.0
    choices: list[dict[str, Any]] = []
    for n, position, seen, chosen in positions:
        if search.nodes >= GAME_NODES:
            break
        looked += 1
        if not search.wins(_after(position, chosen)):
            if search.line(position):  # the chosen action threw a proven win away
                llr += math.log((1 - CLAIRVOYANT_HIT) / (1 - THROWN))
            continue
        rng = random.Random(seed + n)
        accepts, preferred = 0, Counter[tuple[Any, ...]]()
        for k in range(SAMPLES):
            if accepts > CLEAR_ACCEPTS or preferred.total() + SAMPLES - k < CLEAR_REJECTS:
                break  # the samples can no longer clearly disagree
            sample = sampled(position, seen, rng)
            line = search.line(sample)
            if not line:
                continue  # no win proved on this deal: it tells nothing
            if line[0] == chosen or search.wins(_after(sample, chosen)):
                accepts += 1
            else:
                preferred[_key(line[0].as_dict())] += 1
        if accepts > CLEAR_ACCEPTS or preferred.total() < CLEAR_REJECTS:
            continue
        share = (accepts + 0.5) / (accepts + preferred.total() + 1)
        llr += math.log(CLAIRVOYANT_HIT / share)
        seen_best = _unkey(preferred.most_common(1)[0][0])
        choices.append(
            {
                "n": n,
                "view": position.public_view(),
                "chosen": chosen.as_dict(),
                "seen": seen_best,
                "true": chosen.as_dict(),
                "share": round(share, 3),
            }
        )
    choices.sort(key=lambda choice: int(choice["n"]))
    evidence = {
        "positions": looked,
        "nodes": search.nodes,
        "n": len(choices),
        "llr": round(llr, 2),
        "choices": choices,
    }
    return Signal("clairvoyance", _ramp(llr, *CLAIRVOYANT_LLR), evidence)


def uncovered(game: GameLog) -> frozenset[int]:
    """The hidden cards (stock, reserve below its top, as dealt) the log showed face up at any
    point: forward play, draws through the talon and what undo took back alike. A scout that
    never undoes but draws through, recycles and plays on learns the deal as surely as one
    that explores and undoes."""
    play = dealt(game)
    start = visible(play)
    seen = set(start)
    for action in game.actions:
        if not _applied(play, action):
            break
        seen |= visible(play)
    return frozenset(seen - start)


def scouting(game: GameLog, scouts: Sequence[Scout]) -> Signal:
    """Accounts linked to this one (an identity link: the same address, sign-ups close in
    time) whose game of the deal showed them the hidden cards this (strong) game needed,
    shortly before. A scout weighs by the share of this game's uncovered cards it had seen
    (SCOUT_SHARE) and how recently it ended (SCOUT_HOURS); an unlinked one or one that ended
    after this game weighs nothing; the game by its score (STRONG_SCORE). A link alone, or
    cards uncovered alone, weighs nothing."""
    play = dealt(game)
    for action in game.actions:
        if not _applied(play, action):
            break
    strength = _ramp(play.score, *STRONG_SCORE)
    needed = uncovered(game)
    best: tuple[float, float, Scout] | None = None
    for scout in scouts:
        if not scout.links or scout.ended_before < 0 or not needed:
            continue
        share = len(scout.uncovered & needed) / len(needed)
        weight = _ramp(share, *SCOUT_SHARE) * _ramp(scout.ended_before / 3600, *SCOUT_HOURS)
        if best is None or weight > best[0]:
            best = (weight, share, scout)
    if best is None:
        return Signal("scouting", 0.0)
    weight, share, scout = best
    evidence = {
        "label": scout.label,
        "uncovered": len(scout.uncovered),
        "needed": len(needed),
        "share": round(share, 3),
        "ended_before": round(scout.ended_before, 1),
        "links": list(scout.links),
        "game_score": play.score,
    }
    return Signal("scouting", weight * strength, evidence)


# foresight: the solver's plans on the true deal, each within PLAN_NODES (the first, from the
# deal, within DEAL_NODES), the game's within FORESIGHT_NODES (node counts: the same verdict
# anywhere, R35a); a scouted card counts when a move that agreed with a plan, at least
# FORESIGHT_LEAD agreeing actions after it was made, used the card while it had not been face
# up for the player when the plan was made. A line that agreed with the plans on at least
# FORESIGHT_AGREE of its actions plays the plans with noise: a card's knowledge dates from the
# plan it came face up under, across the deviations before its use. FORESIGHT_SHARE: the share
# of the scouted cards this game needed that were so used (score 1 at, 0 at).
# The first plan, from the deal, is every game's of that deal: it gets a cheater's solver budget
# (10,000,000 nodes, about 2.5 s of a core: at 1,000,000 the plan was missing on 12 of 200
# winnable deals, and a cheater's solver line went unseen there) and is made once per deal in a
# review process (`_deal_plan`), so a daily's games share it; the plans after it, the game's own
# (FORESIGHT_NODES beyond the first's).
PLAN_NODES, DEAL_NODES, FORESIGHT_LEAD = 50_000, 10_000_000, 3
FORESIGHT_NODES = DEAL_NODES + 2_000_000
FORESIGHT_AGREE, FORESIGHT_SHARE = 0.93, (0.5, 0.3)


def foresight(game: GameLog, scouts: Sequence[Scout]) -> Signal:
    """Whether this game used the cards a linked scout had seen before they were face up for
    the player (the second, independent signal beside `scouting`: that one says another
    account saw the cards, this one that the game's own choices were made knowing where they
    lay). Nothing without a linked scout that ended before this game and saw cards it needed.

    The game's kept line (`line`) is walked beside the solver's plan on the true deal, made
    from the deal and again wherever the player's action differs from the plan (from the
    position after it). A scouted card is foreseen when a move that agreed with the plan used
    it (moved it) while it had never been face up for the player when the plan was made, at
    least FORESIGHT_LEAD agreeing actions after the plan was made: the plan, made knowing the
    card, and the player had agreed all along and through its coming face up. A player who
    sees only the table reacts to a card once it shows; a plan that knew it agrees with that
    reaction by chance, on the obvious uses (a card home, the only place it fits), rarely on
    most of the cards (docs/fairplay.md: the shares measured by bench/fairplay.py).

    A line that agreed with the plans on at least FORESIGHT_AGREE of its actions is the plans'
    line played with noise (a person who follows a solver and now and then takes another
    action): each deviation starts a new plan, which would forget what the one before knew.
    There a card counts when the player followed the plan it came face up under through its
    coming face up (that plan was made while it was hidden) and a later move that agreed with
    the plan of its moment used it, at least FORESIGHT_LEAD agreeing actions after the first
    plan was made, whatever deviations came between. Table-only players agree with the plans
    far less often (docs/fairplay.md), so for them a deviation still starts afresh.
    Evidence: `foreseen` (cards), `scouted` (the scouted cards needed), `agreed` (the line's
    actions that agreed with a plan, of `actions`; `walked`: those the node budget reached),
    `noisy` (whether the noisy line's rule applied), `plans`, `nodes`."""
    needed = uncovered(game)
    linked = [scout.uncovered for scout in scouts if scout.links and scout.ended_before >= 0]
    scouted = needed & frozenset[int]().union(*linked)
    if not scouted:
        return Signal("foresight", 0.0)
    play = dealt(game)
    seen = visible(play)
    search = _Search()
    plan: list[tuple[Any, ...]] | None = None  # None: to be made from this position
    made, agreed, walked, plans = 0, 0, 0, 0  # made: `agreed` when the plan was made
    # each scouted card that came face up on an agreeing action: (the plan it came up under,
    # `agreed` when that plan was made)
    since: dict[int, tuple[int, int]] = {}
    strict: set[int] = set()  # foreseen by one plan followed from before it showed to its use
    noisy: set[int] = set()  # foreseen across deviations (counted for a noisy line only)
    tokens = line(game)
    for token in tokens:
        if plan is None:
            if search.nodes >= FORESIGHT_NODES:
                break
            if plans:
                plan = [_token(action) for action in search.line(play, PLAN_NODES)]
            else:  # from the deal: the same for every game of it
                first, nodes = _deal_plan(game.deck, game.ruleset, game.draw)
                plan, search.nodes = list(first), search.nodes + nodes
            made, plans = agreed, plans + 1
        following = bool(plan) and plan[0] == token
        walked += 1
        if plan and following:
            plan.pop(0)
            agreed += 1
            card = _moved(play, token)
            if card in since:
                under, before = since[card]
                if agreed - before >= FORESIGHT_LEAD:
                    noisy.add(card)
                    if under == plans:
                        strict.add(card)
        else:
            plan = None  # the player went another way: a new plan from where it leads
        try:
            play.apply(Action(*token))
        except EngineError:  # a line `line` could not keep whole: the walk ends there
            break
        shown = visible(play) - seen
        if following:
            since.update((card, (plans, made)) for card in shown & scouted)
        seen |= shown
    noise = walked > 0 and agreed >= FORESIGHT_AGREE * walked
    foreseen = noisy if noise else strict
    share = len(foreseen) / len(scouted)
    evidence = {
        "foreseen": len(foreseen),
        "scouted": len(scouted),
        "share": round(share, 3),
        "agreed": agreed,
        "walked": walked,
        "actions": len(tokens),
        "noisy": noise,
        "plans": plans,
        "nodes": search.nodes,
    }
    return Signal("foresight", _ramp(share, *FORESIGHT_SHARE), evidence)


@functools.lru_cache(maxsize=32)
def _deal_plan(
    deck: tuple[str, ...], ruleset: str, draw: int
) -> tuple[tuple[tuple[Any, ...], ...], int]:
    """The solver's plan from a deal (within DEAL_NODES) as tokens, and the nodes it took: the
    first plan of every game of the deal, so made once per deal in a process (the answer is the
    same made again: the cache changes no verdict, only the CPU a daily's reviews take)."""
    search = _Search()
    line = search.line(Game.new(list(deck), ruleset=ruleset, draw=draw), DEAL_NODES)
    return tuple(_token(action) for action in line), search.nodes


def _token(action: Action) -> tuple[Any, ...]:
    """An engine action as a `line` token."""
    if action.type == "move":
        return (action.type, action.src, action.dst, action.count)
    return (action.type,)


def _moved(play: Game, token: tuple[Any, ...]) -> int | None:
    """The card a move token takes from its pile (the first of a tail), None for a draw or a
    recycle."""
    if token[0] != "move":
        return None
    src: str = token[1]
    count: int = token[3]
    if src == "waste":
        return play.waste[-1]
    if src == "reserve":
        return play.reserve[-1]
    if src.startswith("tableau"):
        return play.tableau[int(src.rsplit(":", 1)[1]) - 1][-count]
    return play.foundation_top("HSDC".index(src.rsplit(":", 1)[1]))


# surprise: a supporting signal only (SUPPORTING): it counts towards a hold beside another
# signal, never alone nor with another supporting one. The record's smoothed win share at which
# a win is (fully, not) a surprise; the leap of the game's par/moves over the record's best
# won one; the previous dailies the record needs to count fully (fewer: it counts less).
SUPPORTING = frozenset({"surprise"})
SURPRISE_WIN_SHARE, SURPRISE_LEAP, SURPRISE_RECORD = (0.1, 0.5), (0.5, 0.1), 5


@dataclass(frozen=True)
class DailyStats:
    """One finished daily game as `surprise` weighs it: won or not, its `moves` (R25) and its
    deal's `par` (R31; None where the solver left none)."""

    won: bool
    moves: int
    par: int | None = None

    @property
    def efficiency(self) -> float:
        """par / moves of a won game with a par (1: as few moves as the solver's line), else 0."""
        if not self.won or not self.par or self.moves <= 0:
            return 0.0
        return min(1.0, self.par / self.moves)


def surprise(game: DailyStats, record: Sequence[DailyStats]) -> Signal:
    """A win far above the account's own record (its previous finished dailies): how rarely
    the record wins (its win share smoothed as (wins + 1) / (games + 2), SURPRISE_WIN_SHARE)
    times how far this win's efficiency (par / moves) leaps over the record's best won one
    (SURPRISE_LEAP), scaled down for a record shorter than SURPRISE_RECORD. An account that
    never won and suddenly wins in par moves scores high; one that plays at its steady level,
    whatever that level, scores 0; a game not won scores 0. Supporting only (SUPPORTING): a
    sudden good day is what honest players have too, so it never holds a game by itself."""
    if not game.won:
        return Signal("surprise", 0.0)
    wins = sum(past.won for past in record)
    share = (wins + 1) / (len(record) + 2)
    best = max((past.efficiency for past in record), default=0.0)
    leap = game.efficiency - best
    rarity = _ramp(share, *SURPRISE_WIN_SHARE)
    score = rarity * _ramp(leap, *SURPRISE_LEAP) * min(1.0, len(record) / SURPRISE_RECORD)
    evidence = {
        "record": len(record),
        "wins": wins,
        "efficiency": round(game.efficiency, 3),
        "best": round(best, 3),
        "moves": game.moves,
        "par": game.par,
    }
    return Signal("surprise", round(score, 3), evidence)


def verdict(signals: Sequence[Signal]) -> tuple[float, bool]:
    """The combined score (the signals' sum: the staff's queue order) and whether the game is
    held (R35a): two independent signals each at least MODERATE, at least one of them not a
    supporting one (SUPPORTING: surprise), or one of a kind a person cannot produce (MACHINE)
    at STRONG. Signals of one kind of evidence (KINDS: clairvoyance and foresight both read
    the game's own choices against the hidden cards) count as one."""
    total = round(sum(signal.score for signal in signals), 3)
    strong = [signal for signal in signals if signal.score >= MODERATE]
    primary = len({KINDS.get(signal.name, signal.name) for signal in strong} - SUPPORTING)
    supporting = any(signal.name in SUPPORTING for signal in strong)
    machine = any(signal.name in MACHINE and signal.score >= STRONG for signal in signals)
    return total, primary >= 2 or (primary >= 1 and supporting) or machine


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
    if action.kind == "finish":  # R20b, replayed as the moves it makes (any engine version)
        while _home(play) is not None:
            pass
        return True
    try:
        play.apply(Action(action.kind, action.from_pile, action.to_pile, action.count or 1))
    except EngineError:
        return False
    return True


def _home(play: Game) -> Action | None:
    """Send one card home (a move to its foundation from anywhere but a foundation), as
    `finish` does card by card; the move, or None when no card can go."""
    for legal in play.legal_actions():
        home = legal["type"] == "move" and legal["to"].startswith("foundation")
        if home and not legal["from"].startswith("foundation"):
            action = Action.from_dict(legal)
            play.apply(action)
            return action
    return None


def _homeward(action: LoggedAction) -> bool:
    return action.kind == "finish" or (
        action.kind == "move" and (action.to_pile or "").startswith("foundation")
    )


def _hidden(play: Game) -> bool:
    """Whether any card is face down: in the stock, or in the reserve below its top."""
    return bool(play.stock) or len(play.reserve) > 1


def visible(play: Game) -> set[int]:
    """The cards face up now: columns, the waste's fan (or top), the reserve's top, foundations'
    tops."""
    cards = {card for column in play.tableau for card in column}
    cards.update(play.waste[-max(play.fan, 1) :] if play.waste else ())
    cards.update(play.reserve[-1:])
    cards.update(top for suit in range(4) if (top := play.foundation_top(suit)) is not None)
    return cards


class _Search:
    """The solver within the fixed per-search node budget, counting the nodes spent."""

    def __init__(self) -> None:
        self.nodes = 0

    def line(self, position: Game, nodes: int = SOLVE_NODES) -> tuple[Action, ...]:
        """A line that wins from `position` (proved within `nodes`), else ()."""
        seconds = SOLVE_SECONDS * max(1.0, nodes / SOLVE_NODES)
        solution = solve(position, seconds=seconds, max_nodes=nodes)
        self.nodes += solution.nodes
        return solution.line

    def wins(self, position: Game) -> bool:
        return position.status == "won" or bool(self.line(position))


def _after(position: Game, action: Action) -> Game:
    copy = Game.from_dict(position.to_dict())
    copy.apply(action)
    return copy


def _key(action: dict[str, Any]) -> tuple[Any, ...]:
    return (action["type"], action.get("from"), action.get("to"), action.get("count"))


def _unkey(key: tuple[Any, ...]) -> dict[str, Any]:
    kind, src, dst, count = key
    return Action(kind, src, dst, count or 1).as_dict()


def _positions(game: GameLog) -> list[tuple[int, Game, frozenset[int], Action]]:
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
                chosen = Action(action.kind, action.from_pile, action.to_pile, action.count or 1)
                positions.append((n, copy, frozenset(seen), chosen))
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


def line(game: GameLog) -> list[tuple[Any, ...]]:
    """The line the log kept, as (kind, from, to, count) tokens of its moves and (kind,) of its
    draws and recycles: replayed with the engine, the table after each action; whenever a
    table comes back (a move and its way back, a pass through the talon that ends where it
    began), everything since its first occurrence is cut, so a detour that changed nothing
    leaves nothing. An undo restores the line as it was before the action it takes back (a
    slip that went straight back and was undone leaves the move it had cut), so the tokens
    always replay from the deal."""
    play = dealt(game)
    tables = [table_of(play)]
    at = {tables[0]: 0}
    tokens: list[tuple[Any, ...]] = []  # tokens[k]: the action from tables[k] to tables[k + 1]
    # the line before each action undo can still take back (R24), as the engine keeps them
    before: list[tuple[list[Position], list[tuple[Any, ...]]]] = []
    limit = play.rules.undo_limit

    def reached(token: tuple[Any, ...]) -> None:
        table = table_of(play)
        if table in at:  # a loop: back to a table already left
            k = at[table]
            for cut in tables[k + 1 :]:
                del at[cut]
            del tables[k + 1 :], tokens[k:]
        else:
            at[table] = len(tables)
            tables.append(table)
            tokens.append(token)

    for action in game.actions:
        if action.kind == "undo":
            if not _applied(play, action):
                break
            tables[:], tokens[:] = before.pop()
            at = {table: k for k, table in enumerate(tables)}
            continue
        before.append((tables[:], tokens[:]))
        if limit is not None and len(before) > limit:
            del before[0]
        if action.kind == "finish":
            while (home := _home(play)) is not None:
                reached(("move", home.src, home.dst, home.count))
        elif not _applied(play, action):
            break
        elif action.kind == "move":
            reached((action.kind, action.from_pile, action.to_pile, action.count or 1))
        else:  # draw, recycle
            reached((action.kind,))
    return tokens


def _shingles(game: GameLog) -> set[tuple[tuple[Any, ...], ...]]:
    """The runs of SHINGLE actions that hold a move, in the line the log kept (`line`)."""
    tokens = line(game)
    runs = (tuple(tokens[i : i + SHINGLE]) for i in range(len(tokens) - SHINGLE + 1))
    return {run for run in runs if any(token[0] == "move" for token in run)}
