"""Fair-play benchmark (issue 21, RULES R35): `python bench/fairplay.py` simulates players on
CF2 deals (`app`, draw 3, deals the solver wins), reviews every game with exactly the signals of
fairplay/signals.py and prints the share held per kind of player.

Per deal: two honest players (each sees only what the table shows: the solver run on a deal
sampled consistent with every card it has seen, sampled again whenever it sees a new card,
paced like a person with hesitations, slips it takes back with undo, and sometimes giving up);
a scout (draws through the stock and undoes, then plays on to learn the reserve and undoes)
and its second account playing the true deal's solver line paced like a person with a few
detours; a verbatim replay and a lightly edited replay of a won game by other accounts; a bot
playing the solver's line at machine speed. Links are the server's: the scout's by address
or by sign-up timing; honest players of a deal share an address in a fifth of the deals (a
household), so links alone must not hold. Each game is compared (identical) with the deal's
games that ended before it.

Targets: every bot and replay held; paced scout + solver held in >= 90 %; honest games held
<= 1 %. Also printed: the paced scout + solver held without the scouting signal (a scout with
no link to find), the mean score of each signal per kind, and the review's CPU seconds per
game (each review has fixed node budgets, R35a). `--deals` (200), `--quick` (6 deals). Two
deals at a time.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fairplay.signals import (  # noqa: E402
    GameLog,
    LoggedAction,
    Scout,
    Signal,
    clairvoyance,
    identical,
    sampled,
    scouting,
    timing,
    uncovered,
    verdict,
    visible,
)
from games.engine import Action, EngineError, Game  # noqa: E402
from games.engine.deal import shuffled_deck  # noqa: E402
from games.solver import solve  # noqa: E402

KINDS = ("honest", "scout + solver", "verbatim replay", "edited replay", "bot")
MAX_ACTIONS = 500  # a simulated player gives up after this many actions
PLAYER_NODES = 100_000  # an honest player's search on a deal it believes in
TRIES = 4  # deals it tries before giving up
IDEAS = 0.08  # the share of an honest player's actions that follow an idea of its own


@dataclass
class Played:
    """A simulated game: its log and when it ended (seconds into the day)."""

    log: GameLog
    ended: float
    kind: str
    account: str


class Clock:
    """A person's pace: a few seconds per move, quick draws in a row, now and then a long
    hesitation; or a machine's."""

    def __init__(self, rng: random.Random, *, machine: bool = False) -> None:
        self.rng, self.machine, self.at, self.last = rng, machine, 0.0, ""

    def tick(self, kind: str) -> float:
        rng = self.rng
        if self.machine:
            gap = rng.uniform(0.004, 0.03)
        elif kind == "draw" and self.last == "draw":
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
        self.seen = frozenset(visible(self.game))
        self.log: list[LoggedAction] = []

    def send(self, action: Action, *, paced: bool = True) -> bool:
        """Apply `action` (logged as the server logs it: concrete piles); False if refused.
        `paced`: the clock ticks first (else the caller has moved it)."""
        try:
            result = self.game.apply(action)
        except EngineError:  # refused: not logged
            return False
        count = result.count if action.type == "move" else None
        at = self.clock.tick(action.type) if paced else self.clock.at
        self.log.append(LoggedAction(action.type, result.src, result.dst, count, at))
        self.seen |= visible(self.game)
        return True

    def done(self, label: str) -> GameLog:
        if not self.game.is_over:
            self.log.append(LoggedAction("resign", at=self.clock.tick("resign")))
        return GameLog(self.deck, 3, "app", tuple(self.log), label)


def honest(deck: tuple[str, ...], rng: random.Random, label: str) -> GameLog:
    """A person who sees only the table: the solver on a deal consistent with what it has seen,
    sampled again when a new card shows, in an order of its own; now and then an idea of its
    own instead, or a slip it takes back; it gives up at times."""
    player = Player(deck, Clock(rng))
    plan: list[Action] = []
    patience = rng.randint(150, MAX_ACTIONS)
    while not player.game.is_over and len(player.log) < patience:
        for _ in range(0 if plan else TRIES):
            plan = _own_line(sampled(player.game, player.seen, rng), rng)
            if plan:
                break
        if not plan:
            break  # no line found on any deal it believes in: it gives up
        if rng.random() < 0.03:  # a slip, taken back
            legal = [a for a in player.game.legal_actions() if a["type"] == "move"]
            if legal and player.send(Action.from_dict(rng.choice(legal))):
                player.send(Action("undo"))
        if rng.random() < IDEAS:  # an idea of its own: another action, then a new plan
            legal = [a for a in player.game.legal_actions() if a["type"] != "undo"]
            if legal:
                player.send(Action.from_dict(rng.choice(legal)))
                plan = []
                continue
        knew = player.seen
        if not player.send(plan.pop(0)) or player.seen != knew:
            plan = []
    return player.done(label)


def _own_line(game: Game, rng: random.Random) -> list[Action]:
    """A line that wins `game`, found in an order of its own (people do not all play the same
    moves in the same order): the solver on the position with its columns shuffled."""
    order = rng.sample(range(4), 4)  # column i of the copy is column order[i] of `game`
    copy = Game.from_dict(game.to_dict())
    copy.tableau = [game.tableau[column][:] for column in order]
    back = {f"tableau:{i + 1}": f"tableau:{column + 1}" for i, column in enumerate(order)}
    line = solve(copy, seconds=5, max_nodes=PLAYER_NODES).line
    return [
        Action(a.type, back.get(a.src or "", a.src), back.get(a.dst or "", a.dst), a.count)
        for a in line
    ]


def solver_line(deck: tuple[str, ...]) -> list[Action]:
    return list(solve(Game.new(deck), seconds=10).line)


def scout(deck: tuple[str, ...], rng: random.Random, label: str) -> GameLog:
    """A throwaway account learning the deal: draws through the stock and undoes, then plays
    (the first part of a line that wins) until the reserve is known and undoes that too."""
    player = Player(deck, Clock(rng, machine=rng.random() < 0.5))
    draws = 0
    while player.game.stock and player.send(Action("draw")):
        draws += 1
    for _ in range(draws):
        player.send(Action("undo"))
    played = 0
    for action in solver_line(deck)[:95]:
        if not (player.game.reserve[:-1] and player.send(action)):
            break
        played += 1
    for _ in range(played):
        player.send(Action("undo"))
    return player.done(label)


def clairvoyant(
    deck: tuple[str, ...], line: list[Action], rng: random.Random, label: str, machine: bool
) -> GameLog:
    """The true deal's solver line, paced like a person with a few detours (a draw or a move
    taken back, a pause), or at machine speed (a bot)."""
    player = Player(deck, Clock(rng, machine=machine))
    for action in line:
        if not machine and rng.random() < 0.04:
            legal = [a for a in player.game.legal_actions() if a["type"] in ("move", "draw")]
            if legal and player.send(Action.from_dict(rng.choice(legal))):
                player.send(Action("undo"))
        player.send(action)
    return player.done(label)


def replay(original: GameLog, rng: random.Random, label: str, edits: int) -> GameLog:
    """`original`'s actions sent again by another account, at its own pace (jittered), with
    `edits` detours (a draw or a move taken back) inserted."""
    player = Player(original.deck, Clock(rng))
    at = [0.0] + [a.at for a in original.actions]
    places = set(rng.sample(range(len(original.actions)), edits))
    for n, logged in enumerate(original.actions):
        if n in places:
            legal = [a for a in player.game.legal_actions() if a["type"] in ("move", "draw")]
            if legal and player.send(Action.from_dict(rng.choice(legal))):
                player.send(Action("undo"))
        if logged.kind == "resign":
            break
        player.clock.at += max(0.0, at[n + 1] - at[n]) * rng.uniform(0.9, 1.1)
        player.send(_action(logged), paced=False)
    return player.done(label)


def _action(logged: LoggedAction) -> Action:
    return Action(logged.kind, logged.from_pile, logged.to_pile, logged.count or 1)


@dataclass
class Reviewed:
    """What the review made of one deal's games, per kind of player."""

    held: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    scores: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    cpu: list[float] = field(default_factory=list)
    won: list[bool] = field(default_factory=list)
    number: int = 0  # the (highest) deal number
    honest_held: list[str] = field(default_factory=list)  # what held them


def review(number: int) -> Reviewed | None:
    """Deal `number`'s games reviewed with exactly the review's signals (each compared with
    the deal's games that ended before it); None for a deal the solver does not win."""
    dealt_games = deal_games(number, random.Random(number))
    if dealt_games is None:
        return None
    games, scouts = dealt_games
    reviewed = Reviewed(number=number)
    for game in games:
        if game.kind == "scout":
            continue
        earlier = [o.log for o in games if o.ended < game.ended and o.account != game.account]
        started = time.process_time()
        signals: list[Signal] = [
            timing(game.log),
            identical(game.log, earlier),
            clairvoyance(game.log),
            scouting(game.log, scouts[game.account]),
        ]
        reviewed.held[game.kind].append(verdict(signals)[1])
        reviewed.cpu.append(time.process_time() - started)
        for signal in signals:
            reviewed.scores[game.kind, signal.name].append(signal.score)
        if game.kind == "scout + solver":
            reviewed.held["scout + solver, no link"].append(verdict(signals[:3])[1])
        if game.kind == "honest":
            reviewed.won.append(game.log.actions[-1].kind != "resign")
            if verdict(signals)[1]:
                scores = ", ".join(f"{signal.name} {signal.score:.2f}" for signal in signals)
                reviewed.honest_held.append(f"{game.log.label} ({scores})")
    return reviewed


def deal_games(
    number: int, rng: random.Random
) -> tuple[list[Played], dict[str, list[Scout]]] | None:
    """The games of one deal and, per account, the scouts the server would weigh for it; None
    for a deal the solver does not win."""
    deck = tuple(shuffled_deck(number, version=2))
    line = solver_line(deck)
    if not line:
        return None
    games: list[Played] = []
    day = rng.uniform(0, 3600)
    for n in range(2):
        log = honest(deck, rng, f"honest-{number}-{n}")
        games.append(Played(log, day + rng.uniform(0, 40_000), "honest", log.label))
    scout_log = scout(deck, rng, f"scout-{number}")
    scout_end = day + rng.uniform(0, 20_000)
    games.append(Played(scout_log, scout_end, "scout", scout_log.label))
    cheat = clairvoyant(deck, line, rng, f"cheat-{number}", machine=False)
    games.append(Played(cheat, scout_end + rng.uniform(120, 7200), "scout + solver", cheat.label))
    won = [g for g in games if g.kind == "honest" and g.log.actions[-1].kind != "resign"]
    original = won[0] if won else games[3]
    for kind, edits in (("verbatim replay", 0), ("edited replay", rng.randint(2, 5))):
        log = replay(original.log, rng, f"{kind}-{number}", edits)
        games.append(Played(log, original.ended + rng.uniform(60, 7200), kind, log.label))
    bot = clairvoyant(deck, line, rng, f"bot-{number}", machine=True)
    games.append(Played(bot, day + rng.uniform(0, 40_000), "bot", bot.label))
    # Links: the scout to its second account; the two honest players share an address in a
    # fifth of the deals.
    link = rng.choice((("address",), ("signed up 3 min apart",)))
    scouts: dict[str, list[Scout]] = defaultdict(list)
    scouts[cheat.label].append(
        Scout(scout_log.label, uncovered(scout_log), games[3].ended - scout_end, link)
    )
    if rng.random() < 0.2:
        first, second = games[0], games[1]
        for one, other in ((first, second), (second, first)):
            scouts[one.account].append(
                Scout(other.account, uncovered(other.log), one.ended - other.ended, ("address",))
            )
    return games, scouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="6 deals")
    args = parser.parse_args()
    deals = 6 if args.quick else args.deals
    started = time.monotonic()
    total = Reviewed()
    with Pool(2) as pool:
        for reviewed in pool.imap(review, itertools.count(1)):
            if reviewed is None:
                continue
            for kind, held in reviewed.held.items():
                total.held[kind].extend(held)
            for key, values in reviewed.scores.items():
                total.scores[key].extend(values)
            total.cpu.extend(reviewed.cpu)
            total.won.extend(reviewed.won)
            total.number = reviewed.number
            total.honest_held.extend(reviewed.honest_held)
            if len(total.held["bot"]) == deals:
                break
        pool.terminate()
    print(f"deals: {deals} (CF2 1-{total.number}, app, draw 3, the ones the solver wins)")
    for kind in (*KINDS, "scout + solver, no link"):
        held = total.held[kind]
        print(f"held {kind}: {100 * sum(held) / len(held):.1f} % of {len(held)} games")
    print(f"honest games won: {100 * sum(total.won) / len(total.won):.1f} %")
    for which in total.honest_held:
        print(f"honest game held: {which}")
    for kind in KINDS:
        means = ", ".join(
            f"{name} {statistics.mean(total.scores[kind, name]):.2f}"
            for name in ("timing", "identical", "clairvoyance", "scouting")
        )
        print(f"mean scores {kind}: {means}")
    cpu = total.cpu
    print(f"review CPU per game: mean {statistics.mean(cpu):.2f} s, max {max(cpu):.2f} s")
    print(f"elapsed: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
