"""R20c: a game makes no progress once two whole passes through the talon went by with no card
reaching a foundation and none leaving the reserve or the waste."""

from games.engine import Action, Game
from tests.engine.helpers import arrange

DRAW, RECYCLE, UNDO = Action("draw"), Action("recycle"), Action("undo")


def table(stock: list[str], tableau: list[list[str]] | None = None) -> Game:
    """Base 7H (foundations want 8H, 7S, 7D, 7C); the red column tops take only black 4s, 9s
    and jacks; the reserve's top is KH, every card not named lies hidden below it. 1-card draw."""
    columns = tableau or [["5H"], ["10D"], ["10H"], ["QD"]]
    return arrange(tableau=columns, reserve=["KH"], stock=stock, rest="reserve", draw=1)


def play(game: Game, *actions: Action) -> Game:
    for action in actions:
        game.apply(action)
    return game


def move(src: str, dst: str) -> Action:
    return Action.from_dict({"type": "move", "from": src, "to": dst, "count": 1})


def test_no_progress_after_two_whole_passes_and_not_after_one():
    # given
    game = table(["2H", "3D", "KD"])
    # when / then
    assert not play(game, DRAW, DRAW, DRAW).no_progress  # one pass
    assert not play(game, RECYCLE, DRAW, DRAW).no_progress  # the second is not over yet
    assert play(game, DRAW).public_view()["no_progress"] is True
    assert play(game, RECYCLE, DRAW).no_progress  # stays so while nothing moves on
    assert game.status == "playing"  # never ends the game by itself


def test_a_pass_begun_after_progress_with_the_talon_part_drawn_is_not_whole():
    # given: the 4S, drawn second, goes onto the 5H (a card leaves the waste: progress)
    game = play(table(["2H", "4S", "KD", "3D"]), DRAW, DRAW, move("waste", "tableau:1"))
    # when: the rest of that pass, then two whole passes
    play(game, DRAW, DRAW, RECYCLE)
    passes = []
    for _ in range(2):
        passes.append(play(game, DRAW, DRAW, DRAW).no_progress)
        play(game, RECYCLE)
    # then
    assert passes == [False, True]


def test_a_move_between_columns_is_no_progress():
    # given: the JC may go from the QD onto the QH, which brings nothing home
    game = table(["2H", "3D", "KD"], [["5H"], ["10D"], ["QH"], ["QD", "JC"]])
    # when
    play(game, DRAW, DRAW, DRAW, move("tableau:4", "tableau:3"), RECYCLE, DRAW, DRAW, DRAW)
    # then
    assert game.no_progress


def test_a_card_reaching_a_foundation_starts_the_count_again():
    # given: two passes drawn past the 8H, which fits its foundation (drawn first)
    game = play(table(["8H", "2H", "3D"]), DRAW, DRAW, DRAW, RECYCLE, DRAW, DRAW, DRAW)
    assert game.no_progress
    # when: it goes up, leaving the waste empty: a whole pass begins
    play(game, RECYCLE, DRAW, move("waste", "foundation"))
    # then
    assert not game.no_progress
    assert not play(game, DRAW, DRAW, RECYCLE, DRAW).no_progress
    assert play(game, DRAW).no_progress


def test_undo_restores_no_progress_exactly():
    # given
    game = play(table(["2H", "3D", "KD"]), DRAW, DRAW, DRAW, RECYCLE, DRAW, DRAW, DRAW)
    assert game.no_progress
    # when / then
    assert not play(game, UNDO).no_progress
    assert play(game, DRAW).no_progress


def test_no_progress_round_trips_and_states_stored_before_r20c_start_with_a_part_pass():
    # given
    game = play(table(["2H", "3D", "KD"]), DRAW, DRAW, DRAW, RECYCLE, DRAW, DRAW, DRAW)
    assert Game.from_dict(game.to_dict()).no_progress
    # when: the state as stored before R20c (no passes field)
    old = play(table(["2H", "3D", "KD"]), DRAW)
    stored = old.to_dict()
    stored["state"] = stored["state"].rsplit(";", 1)[0]
    stored["history"] = [snapshot.rsplit(";", 1)[0] for snapshot in stored["history"]]
    loaded = Game.from_dict(stored)
    # then: the pass under way counts for nothing, the next two do
    play(loaded, DRAW, DRAW, RECYCLE, DRAW, DRAW, DRAW, RECYCLE, DRAW, DRAW)
    assert not loaded.no_progress and play(loaded, DRAW).no_progress
    assert not play(Game.from_dict(stored), UNDO).no_progress


def test_over_games_make_no_claim():
    game = play(table(["2H", "3D", "KD"]), DRAW, DRAW, DRAW, RECYCLE, DRAW, DRAW, DRAW)
    assert not play(game, Action("resign")).public_view()["no_progress"]
