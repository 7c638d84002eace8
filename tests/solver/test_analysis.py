"""games.analysis (R37), pure: the kept line, each position's verdict, the turning point."""

from games import analysis
from games.analysis import UNDECIDED_SEARCHES, _middle, analyse, kept_line
from games.engine import Action, Game
from games.solver import solve

DRAW, UNDO = Action("draw"), Action("undo")
# Deal 0 (draw 3, app): at the solver line's 40th action, this move loses the deal
# (tests/games/test_analysis.py proves it with the solver).
TURN, BAD = 40, Action("move", "waste", "tableau:2", 1)


def line_of_deal_0() -> list[Action]:
    return list(solve(Game.deal(0), max_nodes=1_000_000).line)


def test_the_kept_line_leaves_out_what_undo_took_back_and_ends_at_a_resignation():
    log = [DRAW, DRAW, UNDO, DRAW, DRAW, UNDO, UNDO, DRAW, Action("resign"), DRAW]

    kept = kept_line(Game.deal(0), log)

    assert [n for n, _ in kept] == [1, 8]
    assert [action for _, action in kept] == [DRAW, DRAW]


def test_each_position_is_winnable_up_to_the_losing_action_and_lost_after_it():
    line = line_of_deal_0()
    log = [*line[:TURN], BAD, DRAW, DRAW, Action("resign")]

    result = analyse(Game.deal(0), log)

    assert result.kept == tuple(range(1, len(log)))
    assert result.winnable == (True,) * (TURN + 1) + (False,) * 3
    assert result.lost_at == TURN + 1
    assert result.line_from == TURN
    assert result.searches <= 8  # a binary search, not one search a position
    # what the analysis says by inference, a search of each position says too
    play = Game.deal(0)
    for position, action in enumerate(log[:-1]):
        if position % 7 == 0:
            verdict = solve(play, max_nodes=analysis.NODES).verdict
            assert verdict == ("won" if result.winnable[position] else "unwinnable")
        play.apply(action)
    # and the winning line wins from the position before the losing action
    replay = Game.deal(0)
    for action in [*line[:TURN], *result.line]:
        replay.apply(action)
    assert replay.status == "won"


def test_the_same_game_gives_the_same_analysis():
    log = [*line_of_deal_0()[:TURN], BAD, Action("resign")]

    assert analyse(Game.deal(0), log) == analyse(Game.deal(0), log)


def test_a_game_given_up_while_winnable_shows_the_line_from_where_it_stopped():
    line = line_of_deal_0()

    result = analyse(Game.deal(0), [*line[:10], Action("resign")])

    assert all(result.winnable) and result.lost_at is None
    assert result.line_from == 10 and result.line


def test_searches_without_a_verdict_stop_at_the_limit():
    # deal 1 is hard: with a budget of one node no search decides a position
    play, log = Game.deal(1), []
    for _ in range(30):
        log.append(DRAW if play.stock else Action("recycle"))
        play.apply(log[-1])
    log.append(Action("resign"))
    shares: list[float] = []

    result = analyse(Game.deal(1), log, nodes=1, progress=shares.append)

    assert result.searches == UNDECIDED_SEARCHES
    assert result.winnable == (None,) * 31 and result.undecided == 31
    assert (result.lost_at, result.line_from, result.line) == (None, None, ())
    assert len(shares) == UNDECIDED_SEARCHES and shares == sorted(shares)


def test_the_middle_of_the_longest_open_stretch_is_searched_next():
    assert _middle(-1, 11, set()) == 5  # positions 0..10
    assert _middle(-1, 11, {3}) == 7  # 4..10 is longer than 0..2
    assert _middle(-1, 11, {5}) == 2  # a tie: the first
    assert _middle(3, 5, set()) == 4
    assert _middle(3, 4, set()) is None  # decided: 3 winnable, 4 lost
    assert _middle(3, 5, {4}) is None
