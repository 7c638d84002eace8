"""The pure fair-play signals (RULES R35) on logs played through the engine: a machine's pace,
replays, clairvoyant play, scouting, and the verdict's threshold."""

import inspect
import random

import pytest

from fairplay.signals import (
    DEAL_NODES,
    FORESIGHT_NODES,
    GAME_NODES,
    MODERATE,
    SOLVE_NODES,
    DailyStats,
    GameLog,
    LoggedAction,
    Scout,
    Signal,
    clairvoyance,
    foresight,
    identical,
    line,
    sampled,
    scouting,
    surprise,
    timing,
    uncovered,
    verdict,
    visible,
)
from games.engine import Action, Game
from games.engine.deal import shuffled_deck
from games.solver import position, solve

DECK = tuple(shuffled_deck(19, version=2))  # a CF2 deal the solver wins, where knowing helps


class Logger:
    """Plays actions through the engine and logs them as the server does, `gap` seconds apart
    (a person's pace: a few seconds a move, quick draws; or a machine's)."""

    def __init__(self, *, machine: bool = False) -> None:
        self.game = Game.new(DECK)
        self.machine, self.at = machine, 0.0
        self.actions: list[LoggedAction] = []

    def send(self, action: Action, *, gap: float | None = None) -> None:
        result = self.game.apply(action)
        if gap is None:
            gap = 0.01 if self.machine else (0.3 if action.type == "draw" else 2.5)
        self.at += gap
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


def homeward(game: Game) -> list[Action]:
    """The moves that send every card home one after another from `game` (the table's
    Finish), or [] if some card is hidden or the cards left cannot all go home in turn."""
    if game.stock or len(game.reserve) > 1:
        return []
    copy, moves = Game.from_dict(game.to_dict()), []
    while copy.status != "won":
        home = next(
            (
                Action.from_dict(a)
                for a in copy.legal_actions()
                if a["type"] == "move" and a["to"].startswith("foundation")
            ),
            None,
        )
        if home is None:
            return []
        copy.apply(home)
        moves.append(home)
    return moves


def finished_by_the_table(*, finish_action: bool) -> tuple[GameLog, int]:
    """The true line at a person's pace until the table may Finish (R20b), then the Finish:
    one `finish` action, or (logs from before it) every card sent home 0.06 s apart. Also
    how many cards the Finish sent home."""
    logger = Logger()
    for action in true_line():
        if moves := homeward(logger.game):
            break
        logger.send(action, gap=1.0)  # brisk: with the Finish counted, 20 moves in < 8 s
    if finish_action:
        logger.at += 1.0
        logger.actions.append(LoggedAction("finish", at=logger.at))
    else:
        for move in moves:
            logger.send(move, gap=0.06)
    return logger.log("finisher"), len(moves)


def test_the_tables_finish_is_not_the_players_speed():
    # given: a win whose last cards the table sent home at machine pace, and one with a
    # `finish` action
    run, sent = finished_by_the_table(finish_action=False)
    one, _ = finished_by_the_table(finish_action=True)

    # when
    signals = [timing(run), timing(one)]

    # then: neither counts as the player's pace, and neither is held
    assert sent >= 10
    assert [signal.score for signal in signals] == [0.0, 0.0]
    assert signals[0].evidence["finish"] == sent and signals[1].evidence["finish"] == 1
    assert signals[0].evidence["moves"]["to"] <= len(run.actions) - sent
    assert not verdict(signals)[1]
    assert len(uncovered(one)) == 46  # the `finish` replays: the game's cards are all seen


def test_the_true_line_at_a_person_pace_does_not_look_clairvoyant_where_samples_accept_it():
    """On this deal every choice of the winning line also wins on the deals the table allowed:
    the old signal counted where the samples' solvers merely tried another move first."""
    # given: the true deal's line, and a seen-only player
    cheat, honest = played(true_line()), seen_only(1)

    # when
    signals = [clairvoyance(cheat), clairvoyance(honest)]

    # then: no choice is clairvoyant, and positions were examined
    for signal in signals:
        assert signal.score == 0.0 and signal.evidence["n"] == 0
        assert signal.evidence["positions"] > 20


def test_an_obvious_column_move_the_samples_also_win_with_is_not_clairvoyant():
    # given: the first column-to-column move of the winning line, the only action logged
    logger = Logger()
    for action in true_line():
        if action.type == "move" and f"{action.src}{action.dst}".count("tableau") == 2:
            break
        logger.send(action)
    logger.send(action)
    log = logger.log()

    # when
    signal = clairvoyance(log)

    # then
    assert signal.evidence["positions"] >= 1
    assert signal.evidence["n"] == 0 and signal.score == 0.0


def test_clairvoyance_is_the_same_whenever_it_runs_and_has_a_node_budget_only():
    # given
    log = played(true_line())

    # when
    first, second = clairvoyance(log), clairvoyance(log)

    # then: no time budget to pass, the same answer, within the fixed node budget
    assert list(inspect.signature(clairvoyance).parameters) == ["game"]
    assert first == second
    assert first.evidence["nodes"] <= GAME_NODES + 2 * SOLVE_NODES


def test_every_hidden_card_a_game_shows_is_uncovered_forward_play_included():
    # given: a scout that explores and undoes; one that plays forward only (draws through,
    # recycles, plays on); one draw
    forward = Logger()
    while forward.game.stock:
        forward.send(Action("draw"))
    forward.send(Action("recycle"))
    for action in true_line()[:60]:
        forward.send(action)
    one = Logger()
    one.send(Action("draw"))

    # then
    assert len(uncovered(scout_log())) >= 34 + 5  # the whole stock, the reserve's first cards
    assert len(uncovered(forward.log())) >= 34  # the whole stock at least
    assert len(uncovered(one.log())) == 3
    assert len(uncovered(played(true_line()))) == 46  # a win shows every hidden card


def forward_scout() -> GameLog:
    """A scout that never undoes: draws through the stock, recycles, plays forward a while."""
    logger = Logger()
    while logger.game.stock:
        logger.send(Action("draw"))
    logger.send(Action("recycle"))
    for action in true_line()[:40]:
        logger.send(action)
    logger.send(Action("resign"))
    return logger.log("forward scout")


@pytest.mark.parametrize(
    ("links", "ended_before", "seen"),
    [
        (("address",), 600, True),
        (("signed up 3 min apart",), 3600, True),
        ((), 600, False),  # no identity link: having played before is no evidence (R35a)
        (("address",), -600, False),  # the scout ended after the game
        (("address",), 7 * 86400, False),  # a week before
    ],
)
def test_scouting_needs_an_identity_link_and_the_hidden_cards_seen(links, ended_before, seen):
    # given: a winner and a forward scout
    won, scout = played(true_line()), forward_scout()

    # when
    signal = scouting(won, [Scout("scout", uncovered(scout), ended_before, links)])

    # then: a linked scout is seen, but scouting alone never holds
    assert (signal.score >= MODERATE) is seen
    assert not verdict([signal])[1]
    if seen:
        assert signal.evidence["label"] == "scout" and signal.evidence["game_score"] == 255
        assert signal.evidence["share"] >= 0.7 and signal.evidence["needed"] == 46


def test_a_linked_scout_that_saw_little_weighs_nothing():
    # given: a household member's linked game that drew once
    one = Logger()
    one.send(Action("draw"))

    # when
    house = Scout("house", uncovered(one.log()), 600, ("address",))
    signal = scouting(played(true_line()), [house])

    # then
    assert signal.score == 0.0


def test_scouting_weighs_the_games_strength():
    weak = Logger()
    weak.send(Action("draw"))
    scout = Scout("scout", uncovered(forward_scout()), 600, ("address",))
    assert scouting(weak.log(), [scout]).score == 0.0


def test_a_solver_line_with_a_linked_scout_is_held_on_scouting_and_foresight():
    """The cheat of issue 29: a scout on the same address learns the deal, the other account
    plays the true deal's solver line at a person's pace. Every choice also wins on the deals
    the table allowed (clairvoyance sees nothing); the line used the scouted cards before they
    were face up, as the plan that knew them did: a second signal beside the scout's link."""
    # given
    cheat = played(true_line())
    linked = [Scout("scout", uncovered(scout_log()), 600, ("address",))]

    # when
    signals = [timing(cheat), scouting(cheat, linked), foresight(cheat, linked)]

    # then: held on two signals; the scout's link alone would not hold it
    seen = signals[2]
    assert seen.score == 1.0 and seen.evidence["foreseen"] >= 0.9 * seen.evidence["scouted"]
    assert signals[1].score >= MODERATE
    assert verdict(signals)[1]
    assert not verdict(signals[:2])[1]


KEPT_OUT = ("undo", "finish", "resign")  # not a deviation from a line


def noisy_line(seed: int) -> GameLog:
    """The true deal's solver line with noise, as bench/fairplay.py's noisy cheat: before
    about one action in 16 a slip taken straight back (undo), and as often another action
    that still wins on the true deal, the line solved again from there."""
    logger, rng, plan = Logger(), random.Random(seed), list(true_line())
    while plan and not logger.game.is_over:
        slip = [a for a in logger.game.legal_actions() if a["type"] in ("move", "draw")]
        if slip and rng.random() < 1 / 16:
            logger.send(Action.from_dict(rng.choice(slip)))
            logger.send(Action("undo"))
        if rng.random() < 1 / 16:
            legal = [a for a in logger.game.legal_actions() if a["type"] not in KEPT_OUT]
            for other in map(Action.from_dict, rng.sample(legal, len(legal))):
                after = Game.from_dict(logger.game.to_dict())
                after.apply(other)
                rest = solve(after, max_nodes=50_000).line
                if other != plan[0] and (rest or after.status == "won"):
                    logger.send(other)
                    plan = list(rest)
                    break
            continue
        logger.send(plan.pop(0))
    return logger.log("noisy")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_noisy_solver_line_with_a_linked_scout_is_held_on_scouting_and_foresight(seed):
    """The solver line with noise (issue 29): each deviation starts a new plan, and the cards
    that came face up before it and are used after it still count: the line followed the
    plans on nearly every action, as a table-only player does not."""
    # given
    cheat = noisy_line(seed)
    linked = [Scout("scout", uncovered(scout_log()), 600, ("address",))]

    # when
    signals = [timing(cheat), scouting(cheat, linked), foresight(cheat, linked)]

    # then: deviations there were (plans made again), and the cards still count
    seen = signals[2]
    assert cheat.actions[-1].kind != "resign" and seen.evidence["plans"] > 2
    assert seen.evidence["noisy"] and seen.score >= MODERATE
    assert signals[1].score >= MODERATE and verdict(signals)[1]


@pytest.mark.parametrize("house", [forward_scout, scout_log])
def test_an_honest_winner_whose_household_played_the_deal_first_is_not_held(house):
    """A player who sees only the table wins; someone on the same address (playing forward,
    or exploring and undoing) had played the deal before: scouting sees the link and the
    cards, foresight does not see them used before they showed."""
    # given
    honest = seen_only(1)
    family = [Scout("family", uncovered(house()), 600, ("address",))]

    # when
    signals = [timing(honest), scouting(honest, family), foresight(honest, family)]

    # then
    assert honest.actions[-1].kind != "resign" and signals[1].score >= MODERATE
    assert signals[2].score < MODERATE and signals[2].evidence["foreseen"] > 0
    assert not signals[2].evidence["noisy"]  # it went its own way too often to be a noisy line
    assert not verdict(signals)[1]


def test_foresight_needs_a_linked_scout_and_has_a_node_budget_only():
    # given
    cheat = played(true_line())
    cards = uncovered(scout_log())

    # when
    first = foresight(cheat, [Scout("scout", cards, 600, ("address",))])
    again = foresight(cheat, [Scout("scout", cards, 600, ("address",))])

    # then: no time budget to pass, the same answer, within the fixed node budget; nothing
    # without a link or from a game that ended after this one
    assert list(inspect.signature(foresight).parameters) == ["game", "scouts"]
    assert first == again and first.evidence["nodes"] <= FORESIGHT_NODES + DEAL_NODES
    assert foresight(cheat, [Scout("stranger", cards, 600)]) == Signal("foresight", 0.0)
    late = Scout("scout", cards, -600, ("address",))
    assert foresight(cheat, [late]) == Signal("foresight", 0.0)


def test_an_undone_slip_that_went_straight_back_leaves_the_line_it_cut():
    """A move, a slip that takes it straight back (the line returns to a table it had left:
    the move is cut), then undo of the slip: the move stands again, and the line says so."""
    # given: the winning line up to the first move that has a way straight back
    logger = Logger()
    for action in true_line():
        trip = round_trip(logger.game)
        if len(trip) == 2 and trip[0].type == "move":
            break
        logger.send(action)
    out, back = trip
    logger.send(out)
    kept = line(logger.log())
    logger.send(back)
    cut = line(logger.log())
    logger.send(Action("undo"))

    # then
    assert cut == kept[:-1]
    assert line(logger.log()) == kept and kept[-1] == ("move", out.src, out.dst, out.count)


def round_trip(game: Game) -> list[Action]:
    """Actions that leave `game`'s table as it was: a move and its way straight back, or (the
    stock empty) a recycle and a draw through the talon again; [] if none is at hand."""
    here = position(game)
    if not game.stock and game.waste:
        copy = Game.from_dict(game.to_dict())
        trip = [Action("recycle")]
        copy.apply(trip[0])
        while copy.stock:
            copy.apply(Action("draw"))
            trip.append(Action("draw"))
        if position(copy) == here:
            return trip
    for legal in game.legal_actions():
        if legal["type"] != "move" or legal["from"].startswith("foundation"):
            continue
        out = Action.from_dict(legal)
        copy = Game.from_dict(game.to_dict())
        copy.apply(out)
        for back in copy.legal_actions():
            if back["type"] == "move" and back["to"] == out.src:
                again = Game.from_dict(copy.to_dict())
                again.apply(Action.from_dict(back))
                if position(again) == here:
                    return [out, Action.from_dict(back)]
    return []


def test_a_padded_replay_is_held_by_identical():
    # given: a copy of a won game with table-neutral round trips (no undo) inserted whenever
    # one is at hand, at most every 6 actions
    line = true_line()
    original = played(line, label="original")
    padded, trips, since = Logger(), 0, 0
    for action in line:
        trip = round_trip(padded.game) if since >= 5 else []
        for detour in trip:
            padded.send(detour)
        trips, since = trips + bool(trip), 0 if trip else since + 1
        padded.send(action)

    # when
    signal = identical(padded.log("padded"), [seen_only(1), original])

    # then: it is the original's copy, held on this signal alone
    assert trips >= 15
    assert signal.score == 1.0 and signal.evidence["label"] == "original"
    assert verdict([signal, timing(padded.log())])[1]


def test_the_verdict_needs_two_moderate_signals_or_one_a_person_cannot_produce():
    def held(*signals: Signal) -> bool:
        return verdict(signals)[1]

    assert held(Signal("timing", 1.0)) and held(Signal("identical", 1.0))
    assert not held(Signal("scouting", 1.0)) and not held(Signal("clairvoyance", 1.0))
    assert not held(Signal("timing", 0.9))
    assert held(Signal("scouting", 0.5), Signal("clairvoyance", 0.5))
    assert held(Signal("timing", 0.6), Signal("scouting", 0.7))
    assert not held(Signal("scouting", 1.0), Signal("clairvoyance", 0.49))
    assert verdict([Signal("timing", 0.6), Signal("clairvoyance", 0.4)]) == (1.0, False)
    assert verdict([]) == (0.0, False)


def test_a_win_at_the_accounts_steady_level_is_no_surprise():
    # given: an established account that wins most days in about 1.3 par
    record = [DailyStats(won=n % 3 != 0, moves=130 + n, par=100) for n in range(20)]

    # when: it wins again, in 125 moves
    signal = surprise(DailyStats(won=True, moves=125, par=100), record)

    # then
    assert signal.score == 0.0


def test_a_rare_winner_winning_at_its_usual_pace_is_no_surprise():
    record = [DailyStats(won=n == 0, moves=200, par=100) for n in range(10)]
    assert surprise(DailyStats(won=True, moves=190, par=100), record).score == 0.0


def test_a_first_ever_perfect_win_is_a_surprise_that_never_holds_alone():
    # given: an account whose 8 dailies were never won
    record = [DailyStats(won=False, moves=80, par=90) for _ in range(8)]

    # when: it wins one in par moves
    signal = surprise(DailyStats(won=True, moves=90, par=90), record)

    # then: high, with its evidence; supporting only (R35a)
    assert signal.score >= 0.9
    assert signal.evidence == {
        "record": 8, "wins": 0, "efficiency": 1.0, "best": 0.0, "moves": 90, "par": 90
    }  # fmt: skip
    assert not verdict([signal])[1]


def test_no_record_or_no_win_is_no_surprise():
    assert surprise(DailyStats(won=True, moves=90, par=90), []).score == 0.0
    assert surprise(DailyStats(won=False, moves=90, par=90), [DailyStats(False, 50)]).score == 0.0


def test_surprise_supports_another_signal_but_never_holds_with_itself():
    def held(*signals: Signal) -> bool:
        return verdict(signals)[1]

    assert not held(Signal("surprise", 1.0))
    assert not held(Signal("surprise", 1.0), Signal("surprise", 1.0))
    assert not held(Signal("surprise", 1.0), Signal("scouting", 0.49))
    assert held(Signal("surprise", 0.5), Signal("scouting", 0.5))
    assert held(Signal("surprise", 0.6), Signal("clairvoyance", 0.7))
