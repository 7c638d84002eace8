"""Fair-play benchmark (issues 21 and 29, RULES R35/R35a): `python bench/fairplay.py` simulates
players on CF2 deals (`app`, draw 3, deals the solver wins), reviews every game with exactly the
signals of fairplay/signals.py and prints, per kind of player, how many games are held.

Honest players decide from the table alone (no solver on any deal, seen or sampled):
- rule of thumb: cards home first, then the reserve onto the columns (a column emptied by a
  whole-column move is filled from the reserve, R14), builds down, the waste onto the columns,
  otherwise the talon; a style of its own (the order it scans piles, moves it overlooks) and
  it gives up after a few passes through the talon without progress (R20c);
- backtracker: the same, but when it stalls it undoes back to its latest choice and tries the
  other move there, a few times;
- fast: the rule of thumb at a quick pace (0.6-1.5 s an action, bursts of draws and of cards
  going home).
Each is reviewed twice: played by hand to the end, and with the table's Finish (R20b: the
first time Finish is offered the player presses it, one `finish` action instead of the end
game). Honest players of a deal share an address in a fifth of the deals (a household), and
one honest stranger's game ends minutes before the cheat's (being near in time is no link).

Cheaters: (a) the true deal's solver line at a person's pace, its scout (draws through and
undoes, plays the reserve out and undoes) on another address with no link, or linked by
address or sign-up time; (b) noisy: that line with slips taken back and now and then another
action that still wins; (c) knowledge-guided: the rule of thumb, but wherever it chooses it
takes the first choice that wins on the true deal; (d) a forward scout (plays by the rule of
thumb without undo, learning the deal) linked to the (a) player; (e) a padded replay: another
account's winning log with table-neutral round trips every 5-6 actions (a move and its way
straight back, or a talon pass that ends where it began); (f) verbatim and edited replays;
(g) a bot playing the solver line at machine speed. (a)-(c) are reviewed with the linked scout
and with the unlinked one.

Targets: honest games held <= 1 % by hand and with Finish; (a) and (b) with a linked scout
>= 80 %; (d) >= 95 %; padded replays >= 95 %. Printed per kind: games, held, the mean score
per signal and the review's CPU seconds per game (p50, p99); and whether re-reviewing a sample
of games at another place in the queue gives the same verdict (fixed budgets, R35a).
`--deals` (200), `--quick` (4 deals), `--start` (the first CF2 number tried, 1). Two deals at a
time.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fairplay.signals import (  # noqa: E402
    GameLog,
    LoggedAction,
    Scout,
    Signal,
    clairvoyance,
    foresight,
    identical,
    scouting,
    timing,
    uncovered,
    verdict,
)
from games.engine import Action, EngineError, Game  # noqa: E402
from games.engine.deal import shuffled_deck  # noqa: E402
from games.solver import Position, solve  # noqa: E402
from games.solver import position as table_of  # noqa: E402

HONEST = ("rule of thumb", "backtracker", "fast")
CHEATS = (
    "solver line, unlinked scout",
    "solver line, linked scout",
    "noisy solver line, unlinked scout",
    "noisy solver line, linked scout",
    "knowledge-guided, unlinked scout",
    "knowledge-guided, linked scout",
    "forward scout (linked) + solver line",
    "padded replay",
    "verbatim replay",
    "edited replay",
    "bot",
)
SIGNALS = ("timing", "identical", "clairvoyance", "scouting", "foresight")
MAX_ACTIONS = 600  # a simulated player gives up after this many actions
TRUE_NODES = 10_000_000  # the solver line of a deal: deals it does not win are skipped
CHECK_NODES = 50_000  # a cheat's check that an action still wins on the true deal
RECHECKS = 1  # games per deal reviewed again at another place in the queue


@dataclass(frozen=True)
class Played:
    """A simulated game: its log, when it ended (seconds into the day), what kind of player
    played it and its account."""

    log: GameLog
    ended: float
    kind: str
    account: str
    world: str = ""  # a cheat's own: see `signals_of`


class Clock:
    """A pace: a person's (a few seconds a move, quick draws in a row, now and then a long
    hesitation), a fast person's (0.6-1.5 s an action, bursts of draws and of cards going
    home) or a machine's."""

    def __init__(self, rng: random.Random, pace: str = "person") -> None:
        self.rng, self.pace, self.at, self.last = rng, pace, 0.0, ""

    def tick(self, kind: str, home: bool = False) -> float:
        rng = self.rng
        burst = kind == "draw" and self.last == "draw"
        if self.pace == "machine":
            gap = rng.uniform(0.004, 0.03)
        elif self.pace == "fast":
            gap = rng.uniform(0.2, 0.45) if burst or home else rng.uniform(0.6, 1.5)
        elif burst:
            gap = rng.uniform(0.15, 0.6)
        elif kind == "undo":
            gap = rng.uniform(0.3, 1.5)
        else:
            gap = max(0.45, rng.lognormvariate(0.6, 0.6))
            if rng.random() < 0.05:
                gap += rng.uniform(5, 30)
        self.at += gap
        self.last = kind
        return self.at


class Player:
    """Plays a deal through the engine and logs what it sent, with times."""

    def __init__(self, deck: tuple[str, ...], clock: Clock) -> None:
        self.deck, self.clock = deck, clock
        self.game = Game.new(deck)
        self.log: list[LoggedAction] = []

    def send(self, action: Action, *, paced: bool = True) -> bool:
        """Apply `action` (logged as the server logs it: concrete piles); False if refused.
        `paced`: the clock ticks first (else the caller has moved it)."""
        try:
            result = self.game.apply(action)
        except EngineError:  # refused: not logged
            return False
        count = result.count if action.type == "move" else None
        home = (result.dst or "").startswith("foundation")
        at = self.clock.tick(action.type, home) if paced else self.clock.at
        self.log.append(LoggedAction(action.type, result.src, result.dst, count, at))
        return True

    def done(self, label: str) -> GameLog:
        if not self.game.is_over:
            self.log.append(LoggedAction("resign", at=self.clock.tick("resign")))
        return GameLog(self.deck, 3, "app", tuple(self.log), label)


# -- honest players: the table alone ---------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How one person plays by rule of thumb: the order it looks at the columns, whether it
    looks at the waste before the reserve, whether it builds from the reserve before sending
    column cards home, how often it overlooks (or leaves for later) a move that does not go
    home, and how many passes through the talon without progress it plays before giving up."""

    columns: tuple[int, ...]
    waste_first: bool
    build_first: bool
    overlook: float
    patience: int

    @classmethod
    def of(cls, rng: random.Random) -> Style:
        return cls(
            tuple(rng.sample(range(1, 5), 4)),
            rng.random() < 0.5,
            rng.random() < 0.3,
            rng.uniform(0.03, 0.2),
            rng.randint(2, 4),
        )


def choices(game: Game, style: Style) -> list[Action]:
    """The moves the rule of thumb would make, best first, from what the table shows (the
    public view: no hidden card is read): cards home; the reserve onto a column; a whole column
    onto another (its place is then filled from the reserve, R14); the waste onto a column; a
    tail that uncovers a card that can go home. Never a card back from a foundation, nor a
    tail moved for its own sake: those are the moves that go round in circles. (A builder
    puts the reserve's top onto a column before sending cards home.)"""
    columns = [f"tableau:{n}" for n in style.columns]
    sources = ["waste", "reserve"] if style.waste_first else ["reserve", "waste"]
    rank = {pile: n for n, pile in enumerate([*sources, *columns])}
    home: list[Action] = []
    reserve: list[Action] = []
    whole: list[Action] = []
    waste: list[Action] = []
    uncover: list[Action] = []
    for legal in game.legal_actions():
        if legal["type"] != "move" or legal["from"].startswith("foundation"):
            continue
        action = Action.from_dict(legal)
        src, dst, count = legal["from"], legal["to"], legal["count"]
        if dst.startswith("foundation"):
            home.append(action)
        elif src == "reserve":
            reserve.append(action)
        elif src == "waste":
            waste.append(action)
        else:
            column = game.tableau[int(src[-1]) - 1]
            target = game.tableau[int(dst[-1]) - 1]
            if count == len(column) and target:
                whole.append(action)
            elif count < len(column) and _goes_home(game, column[-count - 1]):
                uncover.append(action)
    groups = (reserve, home) if style.build_first else (home, reserve)
    order = [
        sorted(group, key=lambda a: (rank[a.src or ""], rank.get(a.dst or "", 0)))
        for group in (*groups, whole, waste, uncover)
    ]
    return [action for group in order for action in group]


def _goes_home(game: Game, card: int) -> bool:
    return game.foundation_next(card // 13) == card


def _talon(game: Game) -> Action | None:
    if game.stock:
        return Action("draw")
    return Action("recycle") if game.waste else None


def _thumb(game: Game, style: Style, rng: random.Random) -> tuple[Action | None, list[Action]]:
    """The rule of thumb's action now (None: nothing to do, or out of patience) and the other
    moves it saw (its alternatives, for a backtracker). A move that does not go home is
    overlooked now and then, as people do."""
    if game.passes >= style.patience:
        return None, []
    seen = [
        action
        for action in choices(game, style)
        if (action.dst or "").startswith("foundation") or rng.random() >= style.overlook
    ]
    if seen:
        return seen[0], seen[1:]
    return _talon(game), []


def rule_of_thumb(
    deck: tuple[str, ...], rng: random.Random, label: str, pace: str = "person"
) -> GameLog:
    """A person playing by rule of thumb until it wins or gives up (R20c: passes through the
    talon without progress)."""
    player, style = Player(deck, Clock(rng, pace)), Style.of(rng)
    while not player.game.is_over and len(player.log) < MAX_ACTIONS:
        action, _ = _thumb(player.game, style, rng)
        if action is None or not player.send(action):
            break
    return player.done(label)


def backtracker(deck: tuple[str, ...], rng: random.Random, label: str) -> GameLog:
    """The rule of thumb, exploring with undo: when it stalls it undoes back to its latest
    choice still within undo's reach (R24) and tries the next move it saw there, up to a
    number of times of its own."""
    player, style = Player(deck, Clock(rng)), Style.of(rng)
    points: list[tuple[int, list[Action]]] = []  # (actions kept then, the moves not tried)
    kept, tries = 0, rng.randint(3, 8)
    while not player.game.is_over and len(player.log) < MAX_ACTIONS:
        action, others = _thumb(player.game, style, rng)
        if others:
            points.append((kept, others))
        if action is None:
            if not tries or not points:
                break
            tries -= 1
            back, untried = points.pop()
            if kept - back > player.game.undo_available:
                continue  # out of undo's reach: that choice stays made
            for _ in range(kept - back):
                player.send(Action("undo"))
            kept = back
            action = untried.pop(0)
            if untried:
                points.append((kept, untried))
        if not player.send(action):
            break
        kept += 1
    return player.done(label)


def with_finish(hand: GameLog) -> GameLog:
    """`hand` as played by one who presses the table's Finish (R20b) the first time it is
    offered: the log up to there and one `finish` action (a person's moment after the action
    before it). A game that never offered Finish is unchanged."""
    game = Game.new(hand.deck)
    for n, logged in enumerate(hand.actions):
        if game.status == "playing" and any(a["type"] == "finish" for a in game.legal_actions()):
            at = (hand.actions[n - 1].at if n else 0.0) + 1.2
            return GameLog(
                hand.deck,
                hand.draw,
                hand.ruleset,
                (*hand.actions[:n], LoggedAction("finish", at=at)),
                hand.label,
            )
        if logged.kind == "resign":
            break
        game.apply(_action(logged))
    return hand


# -- cheaters --------------------------------------------------------------------------------


def solver_line(game: Game) -> list[Action]:
    """A line that wins `game`, within a node budget (the clock is only a safety net: under
    load a clock would make deals come and go)."""
    return list(solve(game, seconds=60, max_nodes=TRUE_NODES).line)


def _wins_after(game: Game, action: Action) -> list[Action] | None:
    """The line that wins after `action` on the true deal (proved within CHECK_NODES), or
    None where `action` is illegal or no win is proved."""
    copy = Game.from_dict(game.to_dict())
    try:
        copy.apply(action)
    except EngineError:
        return None
    if copy.status == "won":
        return []
    line = solve(copy, seconds=5, max_nodes=CHECK_NODES).line
    return list(line) if line else None


def scout(deck: tuple[str, ...], truth: list[Action], rng: random.Random, label: str) -> GameLog:
    """A throwaway account learning the deal: draws through the stock and undoes, then plays
    (the first part of a line that wins) until the reserve is known and undoes that too."""
    player = Player(deck, Clock(rng, "machine" if rng.random() < 0.5 else "person"))
    draws = 0
    while player.game.stock and player.send(Action("draw")):
        draws += 1
    for _ in range(draws):
        player.send(Action("undo"))
    played = 0
    for action in truth[:95]:
        if not (player.game.reserve[:-1] and player.send(action)):
            break
        played += 1
    for _ in range(played):
        player.send(Action("undo"))
    return player.done(label)


def _slip(player: Player, rng: random.Random) -> None:
    """A move or a draw taken straight back, as a person's slip."""
    legal = [a for a in player.game.legal_actions() if a["type"] in ("move", "draw")]
    if legal and player.send(Action.from_dict(rng.choice(legal))):
        player.send(Action("undo"))


def clairvoyant(
    deck: tuple[str, ...],
    truth: list[Action],
    rng: random.Random,
    label: str,
    *,
    pace: str,
    noise: float = 0.0,
) -> GameLog:
    """The true deal's solver line at `pace`. `noise`: the share of its actions before which it
    slips (a move or draw taken back) and, as often, plays another action that still wins on
    the true deal (the line is then found again from there)."""
    player, plan = Player(deck, Clock(rng, pace)), truth[:]
    while plan and not player.game.is_over and len(player.log) < MAX_ACTIONS:
        if rng.random() < noise:
            _slip(player, rng)
        if rng.random() < noise:
            legal = [a for a in player.game.legal_actions() if a["type"] != "undo"]
            for other in rng.sample(legal, min(3, len(legal))):
                line = _wins_after(player.game, Action.from_dict(other))
                if line is not None:
                    player.send(Action.from_dict(other))
                    plan = line
                    break
            else:
                player.send(plan.pop(0))
            continue
        player.send(plan.pop(0))
    return player.done(label)


def knowledge_guided(
    deck: tuple[str, ...], truth: list[Action], rng: random.Random, label: str
) -> GameLog:
    """The rule of thumb, but wherever it has a choice it takes the first of its choices that
    still wins on the true deal (and the true line's next action where none does). Knowing
    the way, it never goes back to a table it has left (a card the line took from a foundation
    is not sent straight home again)."""
    player, style, plan = Player(deck, Clock(rng)), Style.of(rng), truth[:]
    left = {table_of(player.game)}
    while plan and not player.game.is_over and len(player.log) < MAX_ACTIONS:
        first, others = _thumb(player.game, style, rng)
        options = [action for action in (first, *others) if action is not None]
        talon = _talon(player.game)
        if others and talon is not None:
            options.append(talon)  # drawing on is a choice too
        for action in options:
            if _table_after(player.game, action) in left:
                continue
            if action == plan[0]:
                plan.pop(0)
                break
            line = _wins_after(player.game, action)
            if line is not None:
                plan = line
                break
        else:
            action = plan.pop(0)
        player.send(action)
        left.add(table_of(player.game))
    return player.done(label)


def _table_after(game: Game, action: Action) -> Position | None:
    copy = Game.from_dict(game.to_dict())
    try:
        copy.apply(action)
    except EngineError:
        return None
    return table_of(copy)


def forward_scout(deck: tuple[str, ...], rng: random.Random, label: str) -> GameLog:
    """A scout that never undoes: the rule of thumb through the talon and forward until it
    gives up, every card it turned up learnt."""
    return rule_of_thumb(deck, rng, label, pace=rng.choice(("person", "machine")))


def replay(original: GameLog, rng: random.Random, label: str, edits: int) -> GameLog:
    """`original`'s actions sent again by another account, at its own pace (jittered), with
    `edits` slips taken back inserted."""
    player = Player(original.deck, Clock(rng))
    places = set(rng.sample(range(len(original.actions)), min(edits, len(original.actions))))
    for n, logged in enumerate(original.actions):
        if n in places:
            _slip(player, rng)
        if logged.kind == "resign":
            break
        _resend(player, original, n, rng)
    return player.done(label)


def padded(original: GameLog, rng: random.Random, label: str) -> GameLog:
    """`original`'s actions sent again with a table-neutral round trip after every 5 or 6 of
    them: a move and its way straight back, or, where there is none, a pass through the talon
    that ends where it began, if it takes at most 6 actions. Never where one of the original's
    later undos would take the trip back instead of the original's action. About a third
    longer."""
    player, due, unsafe = (
        Player(original.deck, Clock(rng)),
        rng.randint(5, 6),
        _undone_over(original),
    )
    for n, logged in enumerate(original.actions):
        if logged.kind == "resign":
            break
        if due <= 0 and n not in unsafe:
            trip = _move_trip(player.game, rng) or _talon_trip(player.game)
            for action in trip if len(trip) <= 6 else ():
                player.send(action)
            due = rng.randint(5, 6)
        _resend(player, original, n, rng)
        due -= 1
    return player.done(label)


def _undone_over(log: GameLog) -> set[int]:
    """The places n where actions inserted before the log's action n would be taken back by
    one of its undos (an undo at m >= n of an action before n)."""
    kept: list[int] = []
    unsafe: set[int] = set()
    for m, action in enumerate(log.actions):
        if action.kind == "undo" and kept:
            unsafe.update(range(kept.pop() + 1, m + 1))
        elif action.kind in ("move", "draw", "recycle", "finish"):
            kept.append(m)
    return unsafe


def _resend(player: Player, original: GameLog, n: int, rng: random.Random) -> None:
    """Send `original`'s action n after the gap the original took before it (jittered)."""
    before = original.actions[n - 1].at if n else 0.0
    player.clock.at += max(0.0, original.actions[n].at - before) * rng.uniform(0.9, 1.1)
    player.send(_action(original.actions[n]), paced=False)


def _move_trip(game: Game, rng: random.Random) -> list[Action]:
    """A move and its way straight back that leave the table as it was (a card from a
    foundation to a column and home again, a tail from one column to another and back), or
    [] where there is none."""
    start = table_of(game)
    legal = [a for a in game.legal_actions() if a["type"] == "move"]
    for there in rng.sample(legal, len(legal)):
        if there["to"].startswith("foundation"):
            continue  # a card's first time home scores: not neutral
        back = Action("move", there["to"], there["from"], there["count"])
        copy = Game.from_dict(game.to_dict())
        copy.apply(Action.from_dict(there))
        try:
            copy.apply(back)
        except EngineError:
            continue
        if table_of(copy) == start:
            return [Action.from_dict(there), back]
    return []


def _talon_trip(game: Game) -> list[Action]:
    """Draws (and a recycle) through the whole talon back to where it stands, or [] where the
    talon cannot come back there (3-card draw reaches only some waste sizes)."""
    start, copy, actions = table_of(game), Game.from_dict(game.to_dict()), []
    for _ in range(len(game.stock) + len(game.waste) + 2):
        action = _talon(copy)
        if action is None:
            return []
        copy.apply(action)
        actions.append(action)
        if table_of(copy) == start:
            return actions
    return []


def _action(logged: LoggedAction) -> Action:
    return Action(logged.kind, logged.from_pile, logged.to_pile, logged.count or 1)


# -- the deal's games and their review -------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """One game's review: held, each signal's score (SIGNALS' order), the review's CPU."""

    held: bool
    scores: tuple[float, ...]
    cpu: float


@dataclass
class Reviewed:
    """What the review made of one deal's games, per kind of player."""

    verdicts: dict[str, list[Verdict]] = field(default_factory=lambda: defaultdict(list))
    won: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    stretch: list[float] = field(default_factory=list)  # padded / original length
    rechecked: list[bool] = field(default_factory=list)  # same verdict again
    number: int = 0  # the (highest) deal number
    honest_held: list[str] = field(default_factory=list)  # what held them


@dataclass
class Deal:
    """One deal's games, the scouts the server would weigh for each account, and, for the
    cheats reviewed with another scout as well, those other scouts."""

    games: list[Played]
    scouts: dict[str, list[Scout]]
    also: dict[str, list[tuple[str, list[Scout]]]]  # kind: (kind with them, scouts)
    stretch: float


def signals_of(game: Played, games: list[Played], scouts: list[Scout]) -> list[Signal]:
    """Exactly the review's signals; `identical` against the deal's games by other accounts
    that ended before this one. Each cheat plays in a world of its own, with the honest
    players and the scouts (world ""): the solver-line cheats would otherwise be held as
    copies of one another (they play the same line), which measures nothing about each.
    Honest games are compared with every earlier game."""
    earlier = [
        other.log
        for other in games
        if other.ended < game.ended
        and other.account != game.account
        and (not game.world or other.world in ("", game.world))
    ]
    return [
        timing(game.log),
        identical(game.log, earlier),
        clairvoyance(game.log),
        scouting(game.log, scouts),
        foresight(game.log, scouts),
    ]


def review(number: int) -> Reviewed | None:
    """Deal `number`'s games reviewed in an order of their own, a sample of them reviewed
    again at the end; None for a deal the solver does not win."""
    rng = random.Random(number)
    deal = deal_games(number, rng)
    if deal is None:
        return None
    reviewed = Reviewed(number=number, stretch=[deal.stretch])
    reviewable = [game for game in deal.games if game.kind != "scout"]
    first: dict[str, tuple[float, bool]] = {}
    cache: dict[GameLog, tuple[list[Signal], float]] = {}  # a Finish that changed nothing
    for game in rng.sample(reviewable, len(reviewable)):
        if game.log in cache and game.kind.endswith("with Finish"):
            signals, cpu = cache[game.log]
        else:
            started = time.process_time()
            signals = signals_of(game, deal.games, deal.scouts[game.account])
            cpu = time.process_time() - started
            cache[game.log] = signals, cpu
        first[game.log.label + game.kind] = verdict(signals)
        held = verdict(signals)[1]
        scores = tuple(signal.score for signal in signals)
        reviewed.verdicts[game.kind].append(Verdict(held, scores, cpu))
        reviewed.won[game.kind].append(game.log.actions[-1].kind != "resign")
        for kind, scouts in deal.also.get(game.kind, []):
            other = [*signals[:3], scouting(game.log, scouts), foresight(game.log, scouts)]
            scores = tuple(signal.score for signal in other)
            reviewed.verdicts[kind].append(Verdict(verdict(other)[1], scores, cpu))
            reviewed.won[kind].append(reviewed.won[game.kind][-1])
        if held and game.kind.split(",")[0] in HONEST:
            shown = ", ".join(f"{signal.name} {signal.score:.2f}" for signal in signals)
            reviewed.honest_held.append(f"{game.log.label} {game.kind} ({shown})")
    for game in rng.sample(reviewable, RECHECKS):
        again = verdict(signals_of(game, deal.games, deal.scouts[game.account]))
        reviewed.rechecked.append(again == first[game.log.label + game.kind])
    return reviewed


def deal_games(number: int, rng: random.Random) -> Deal | None:
    """The games of one deal, timed within a day, and the links between their accounts; None
    for a deal the solver does not win."""
    deck = tuple(shuffled_deck(number, version=2))
    truth = solver_line(Game.new(deck))
    if not truth:
        return None
    day = rng.uniform(0, 3600)
    scout_end = day + rng.uniform(0, 20_000)
    cheat_end = scout_end + rng.uniform(120, 7200)
    games: list[Played] = []

    def add(log: GameLog, ended: float, kind: str, world: str = "") -> Played:
        games.append(Played(log, ended, kind, log.label.removesuffix("+finish"), world))
        return games[-1]

    players: dict[str, Callable[[tuple[str, ...], random.Random, str], GameLog]] = {
        "rule of thumb": rule_of_thumb,
        "backtracker": backtracker,
        "fast": lambda deck, rng, label: rule_of_thumb(deck, rng, label, pace="fast"),
    }
    honest: list[Played] = []
    for kind, play in players.items():
        hand = play(deck, rng, f"{kind}-{number}")
        # A stranger's game ends minutes before the cheats' (no link: no evidence, R35a).
        ended = cheat_end - rng.uniform(30, 600) if kind == "fast" else day + rng.uniform(0, 4e4)
        honest.append(add(hand, ended, f"{kind}, by hand"))
        finish = with_finish(hand)
        if finish != hand:
            finish = GameLog(finish.deck, 3, "app", finish.actions, hand.label + "+finish")
        add(finish, ended - hand.actions[-1].at + finish.actions[-1].at, f"{kind}, with Finish")
    undo_scout = scout(deck, truth, rng, f"scout-{number}")
    add(undo_scout, scout_end, "scout")
    cheats = [
        add(
            clairvoyant(deck, truth, rng, f"solver-{number}", pace="person"),
            cheat_end,
            "solver line, linked scout",
            "solver",
        ),
        add(
            clairvoyant(deck, truth, rng, f"noisy-{number}", pace="person", noise=0.06),
            cheat_end + rng.uniform(0, 600),
            "noisy solver line, linked scout",
            "noisy",
        ),
        add(
            knowledge_guided(deck, truth, rng, f"guided-{number}"),
            cheat_end + rng.uniform(0, 600),
            "knowledge-guided, linked scout",
            "guided",
        ),
    ]
    ahead = add(forward_scout(deck, rng, f"forward-{number}"), 0.0, "scout")
    won = [game for game in honest if game.log.actions[-1].kind != "resign"]
    original = won[0] if won else cheats[0]
    for kind, edits in (("verbatim replay", 0), ("edited replay", rng.randint(2, 5))):
        add(replay(original.log, rng, f"{kind}-{number}", edits), 0.0, kind, original.world)
    stuffed = padded(original.log, rng, f"padded-{number}")
    add(stuffed, 0.0, "padded replay", original.world)
    bot = clairvoyant(deck, truth, rng, f"bot-{number}", pace="machine")
    add(bot, day + rng.uniform(0, 40_000), "bot", "bot")
    # When the copies and the forward scout ended: after the original, before the cheat.
    for n, game in enumerate(games):
        if game.kind.endswith("replay"):
            games[n] = replace(game, ended=original.ended + rng.uniform(60, 7200))
        elif game is ahead:
            games[n] = replace(game, ended=cheat_end - rng.uniform(120, 7200))
    # Links: the scouts to the cheats, by address or sign-up time; a household's honest
    # players by address in a fifth of the deals.
    scouts: dict[str, list[Scout]] = defaultdict(list)
    also: dict[str, list[tuple[str, list[Scout]]]] = {}
    seen, links = uncovered(undo_scout), rng.choice((("address",), ("signed up 3 min apart",)))
    for cheat in cheats:
        before = cheat.ended - scout_end
        scouts[cheat.account].append(Scout(undo_scout.label, seen, before, links))
        unlinked = Scout(undo_scout.label, seen, before)  # another address, no link
        also[cheat.kind] = [(cheat.kind.replace("linked", "unlinked"), [unlinked])]
    ahead_end = next(game.ended for game in games if game.log is ahead.log)
    forward = Scout(ahead.log.label, uncovered(ahead.log), cheat_end - ahead_end, links)
    also["solver line, linked scout"].append(("forward scout (linked) + solver line", [forward]))
    if rng.random() < 0.2:
        for one, other in itertools.permutations(honest, 2):
            scouts[one.account].append(
                Scout(other.account, uncovered(other.log), one.ended - other.ended, ("address",))
            )
    stretch = len(stuffed.actions) / len(original.log.actions)
    return Deal(games, scouts, also, stretch)


# -- the report ------------------------------------------------------------------------------


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(total: Reviewed, deals: int, elapsed: float, start: int = 1) -> None:
    """The table and figures of the deals reviewed so far."""
    print(f"deals: {deals} (CF2 {start}-{total.number}, app, draw 3, the ones the solver wins)")
    print("| kind | games | won | held | held % | " + " | ".join(SIGNALS) + " | CPU p50 | p99 |")
    print("| --- " * (7 + len(SIGNALS)) + "|")
    honest_rows = [f"{kind}, {way}" for kind in HONEST for way in ("by hand", "with Finish")]
    for kind in (*honest_rows, *CHEATS):
        verdicts = total.verdicts[kind]
        held = sum(v.held for v in verdicts)
        means = " | ".join(
            f"{statistics.mean(v.scores[n] for v in verdicts):.2f}" for n in range(len(SIGNALS))
        )
        cpu = [v.cpu for v in verdicts]
        won = 100 * statistics.mean(total.won[kind])
        print(
            f"| {kind} | {len(verdicts)} | {won:.0f} % | {held} of {len(verdicts)} | "
            f"{100 * held / len(verdicts):.1f} % | {means} | "
            f"{_percentile(cpu, 0.5):.2f} s | {_percentile(cpu, 0.99):.2f} s |"
        )
    for way in ("by hand", "with Finish"):
        verdicts = [v for kind in HONEST for v in total.verdicts[f"{kind}, {way}"]]
        held = sum(v.held for v in verdicts)
        print(f"honest {way}: {held} of {len(verdicts)} held ({100 * held / len(verdicts):.1f} %)")
    for which in total.honest_held:
        print(f"honest game held: {which}")
    print(f"padded replays: {statistics.mean(total.stretch):.2f} x the original's actions")
    same = "yes" if all(total.rechecked) else "no"
    print(
        f"same verdict at any queue position: {same} "
        f"({sum(total.rechecked)} of {len(total.rechecked)} games reviewed again)"
    )
    cpu = [v.cpu for verdicts in total.verdicts.values() for v in verdicts]
    p50, p99 = _percentile(cpu, 0.5), _percentile(cpu, 0.99)
    print(f"review CPU per game: p50 {p50:.2f} s, p99 {p99:.2f} s")
    print(f"elapsed: {elapsed:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="4 deals")
    parser.add_argument("--start", type=int, default=1, help="the first CF2 number tried")
    args = parser.parse_args()
    deals = 4 if args.quick else args.deals
    started = time.monotonic()
    total, done = Reviewed(), 0
    with Pool(2) as pool:
        for reviewed in pool.imap(review, itertools.count(args.start)):
            if reviewed is None:
                continue
            for kind, verdicts in reviewed.verdicts.items():
                total.verdicts[kind].extend(verdicts)
            for kind, won in reviewed.won.items():
                total.won[kind].extend(won)
            total.stretch.extend(reviewed.stretch)
            total.rechecked.extend(reviewed.rechecked)
            total.honest_held.extend(reviewed.honest_held)
            total.number = reviewed.number
            done += 1
            if done == deals:
                break
            if done % 50 == 0:  # a long run's figures so far, in case it must be cut short
                with contextlib.redirect_stdout(sys.stderr):
                    report(total, done, time.monotonic() - started, args.start)
        pool.terminate()
    report(total, deals, time.monotonic() - started, args.start)


if __name__ == "__main__":
    main()
