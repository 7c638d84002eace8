"""The pure fair-play signals (RULES R35) on logs played through the engine: a machine's pace,
replays, clairvoyant play, scouting, and the verdict's threshold."""

import random

import pytest

from fairplay.signals import (
    STRONG,
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
from games.engine import Action, Game
from games.engine.deal import shuffled_deck
from games.solver import solve

DECK = tuple(shuffled_deck(19, version=2))  # a CF2 deal the solver wins, where knowing helps


class Logger:
    """Plays actions through the engine and logs them as the server does, `gap` seconds apart
    (a person's pace: a few seconds a move, quick draws; or a machine's)."""

    def __init__(self, *, machine: bool = False) -> None:
        self.game = Game.new(DECK)
        self.machine, self.at = machine, 0.0
        self.actions: list[LoggedAction] = []

    def send(self, action: Action) -> None:
        result = self.game.apply(action)
        self.at += 0.01 if self.machine else (0.3 if action.type == "draw" else 2.5)
        count = result.count if action.type == "move" else None
        self.actions.append(LoggedAction(action.type, result.src, result.dst, count, self.at))

    def log(self, label: str = "") -> GameLog:
        return GameLog(DECK, 3, "app", tuple(self.actions), label)


def true_line() -> tuple[Action, ...]:
    return solve(Game.new(DECK), seconds=10).line


def played(line: tuple[Action, ...], *, machine: bool = False, label: str = "") -> GameLog:
    logger = Logger(machine=machine)
    for action in line:
        logger.send(action)
    return logger.log(label)


def seen_only(seed: int) -> GameLog:
    """A player who sees only the table: the solver on a deal consistent with every card it
    has seen, sampled again whenever it sees a new one."""
    logger, rng, plan = Logger(), random.Random(seed), []
    seen = frozenset(visible(logger.game))
    while not logger.game.is_over and len(logger.actions) < 400:
        for _ in range(0 if plan else 4):  # a few deals it believes in, until one is won
            plan = list(solve(sampled(logger.game, seen, rng), max_nodes=100_000).line)
            if plan:
                break
        if not plan:
            break
        logger.send(plan.pop(0))
        if not visible(logger.game) <= seen:
            seen |= visible(logger.game)
            plan = []
    return logger.log(f"seen-only {seed}")


def scout_log() -> GameLog:
    """Draws through the stock and undoes it all, then plays the reserve out and undoes that."""
    logger = Logger(machine=True)
    draws = 0
    while logger.game.stock:
        logger.send(Action("draw"))
        draws += 1
    for _ in range(draws):
        logger.send(Action("undo"))
    played = 0
    for action in true_line()[:100]:  # R24: undo reaches 100 actions back
        if not logger.game.reserve[:-1]:
            break
        logger.send(action)
        played += 1
    for _ in range(played):
        logger.send(Action("undo"))
    return logger.log("scout")


def test_a_machine_pace_trips_timing_and_a_person_pace_does_not():
    line = true_line()
    bot = timing(played(line, machine=True))
    person = timing(played(line))
    assert bot.score == 1.0
    assert bot.evidence["moves"]["seconds"] < 1 and bot.evidence["actions"]["window"] == 60
    assert person.score == 0.0


def test_bursts_of_draws_are_human():
    """60 quick draws through the stock, moves at a person's pace: not a machine."""
    logger = Logger()
    for _ in range(6):  # through the stock and back, twice: 24 draws, 2 recycles
        while logger.game.stock:
            logger.send(Action("draw"))
        logger.send(Action("recycle"))
    for action in true_line():
        logger.send(action)
    assert timing(logger.log()).score == 0.0


def test_verbatim_and_edited_replays_trip_identical_and_an_independent_game_does_not():
    line = true_line()
    original = played(line, label="original")
    edited = Logger()
    for n, action in enumerate(line):
        if n in (10, 60, 120):  # a draw or a move taken back: a replay dressed up
            detour = next(a for a in edited.game.legal_actions() if a["type"] != "undo")
            edited.send(Action.from_dict(detour))
            edited.send(Action("undo"))
        edited.send(action)
    others = [seen_only(1), original]
    for replay in (played(line, label="replay"), edited.log("edited")):
        signal = identical(replay, others)
        assert signal.score == 1.0
        assert signal.evidence["label"] == "original" and signal.evidence["share"] == 1.0
    independent = identical(seen_only(2), others)
    assert independent.score == 0.0 and independent.evidence["share"] < 0.75
    assert identical(original, []) == Signal("identical", 0.0)


def test_the_true_deals_line_is_more_clairvoyant_than_a_seen_only_player():
    cheat = clairvoyance(played(true_line()), seconds=1)
    honest = clairvoyance(seen_only(1), seconds=1)
    assert cheat.score > honest.score
    assert cheat.evidence["true"] > cheat.evidence["seen"]
    assert cheat.evidence["llr"] > 0 > honest.evidence["llr"]
    choice = cheat.evidence["choices"][0]
    assert set(choice) >= {"n", "view", "chosen", "seen", "true"}
    assert choice["chosen"] == choice["true"] != choice["seen"]
    assert choice["view"]["stock"]["count"] >= 0 and len(choice["view"]["tableau"]) == 4


def test_clairvoyance_is_deterministic_and_keeps_to_its_budget():
    log = played(true_line())
    assert clairvoyance(log, seconds=0.5) == clairvoyance(log, seconds=0.5)
    assert clairvoyance(log, seconds=0).evidence["positions"] == 0
    small, large = clairvoyance(log, seconds=0.2), clairvoyance(log, seconds=2)
    assert 0 < small.evidence["positions"] < large.evidence["positions"]


def test_a_scouts_draw_undo_loops_uncover_cards_and_plain_play_does_not():
    assert uncovered(scout_log()) >= 34 + 5  # the whole stock, the reserve's first cards
    assert uncovered(played(true_line())) == 0
    slip = Logger()
    slip.send(Action("draw"))
    slip.send(Action("undo"))  # one draw taken back: three cards seen early
    assert uncovered(slip.log()) == 3


@pytest.mark.parametrize(
    ("links", "cards", "ended_before", "held"),
    [
        (("address",), 40, 600, True),
        (("signed up 3 min apart",), 40, 3600, True),
        ((), 40, 600, False),  # uncovered cards, no link
        (("address",), 2, 600, False),  # a household: linked, plain play
        (("address",), 40, -600, False),  # the scout ended after the game
        (("address",), 40, 7 * 86400, False),  # a week before
    ],
)
def test_scouting_needs_a_link_and_uncovered_cards(links, cards, ended_before, held):
    won = played(true_line())
    signal = scouting(won, [Scout("scout", cards, ended_before, links)])
    assert (signal.score >= HOLD_THRESHOLD) is held
    if held:
        assert signal.evidence["label"] == "scout" and signal.evidence["game_score"] == 255


def test_scouting_weighs_the_games_strength():
    weak = Logger()
    weak.send(Action("draw"))
    assert scouting(weak.log(), [Scout("scout", 40, 600, ("address",))]).score == 0.0


def test_verdict_sums_the_signals_against_the_threshold():
    assert HOLD_THRESHOLD == 1.0
    assert verdict([Signal("timing", 0.6), Signal("clairvoyance", 0.4)]) == (1.0, True)
    assert verdict([Signal("timing", 0.6), Signal("clairvoyance", 0.39)]) == (0.99, False)
    assert verdict([]) == (0.0, False)
