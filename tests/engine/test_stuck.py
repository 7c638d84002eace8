"""R20a: a game is stuck once the whole talon has been drawn through and nothing but drawing,
recycling, undoing and moves from a foundation is legal, decided from seen cards only."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Action, EngineError, Game
from games.engine.cards import parse_card
from games.engine.game import _talon_tops
from tests.engine.helpers import arrange
from tests.engine.test_properties import CHOICES, GAMES, new_game, pick

DRAW, RECYCLE, UNDO = Action("draw"), Action("recycle"), Action("undo")
# Column tops all red: only black 4s, 9s and jacks fit on them; foundations want 8H, 7S, 7D, 7C.
COLUMNS = [["5H"], ["10D"], ["10H"], ["QD"]]


def table(stock: list[str], draw: int = 1) -> Game:
    """A table where none of `stock` fits unless it is a black 4, 9 or jack; the reserve's top
    is KH, every card not named lies hidden below it."""
    return arrange(tableau=COLUMNS, reserve=["KH"], stock=stock, rest="reserve", draw=draw)


def play(game: Game, *actions: Action) -> Game:
    for action in actions:
        game.apply(action)
    return game


def move(src: str, dst: str) -> Action:
    return Action.from_dict({"type": "move", "from": src, "to": dst, "count": 1})


def test_stuck_once_every_card_of_the_talon_has_been_on_the_waste_top():
    game = table(["2H", "3D", "KD"])
    views = [game.public_view()["stuck"]]
    for _ in range(3):
        views.append(play(game, DRAW).public_view()["stuck"])
    assert views == [False, False, False, True]
    assert play(game, RECYCLE).stuck and play(game, DRAW).stuck  # stays stuck while cycling
    assert game.status == "playing"  # the game does not end by itself (R20)


def test_a_talon_card_that_fits_but_was_drawn_past_leaves_it_stuck_by_the_letter():
    # R20a asks what is legal now: 4S, which fits on 5H, was on the top and drawn past
    game = play(table(["2H", "4S", "KD"]), DRAW, DRAW, DRAW)
    assert game.waste[-1] == parse_card("KD") and game.stuck
    game = play(game, RECYCLE, DRAW, DRAW)
    assert not game.stuck  # 4S on the top: a move is legal now
    game = play(game, move("waste", "tableau:1"))
    assert not game.stuck  # the move starts a new count: KD not on the top since
    assert play(game, DRAW).stuck


def test_three_card_draw_counts_only_the_cards_that_can_reach_the_top():
    game = table(["2H", "3D", "4S", "QH", "KD", "JH"], draw=3)
    game = play(game, DRAW, DRAW)
    assert game.stuck  # 4S (drawn third, fits on 5H) and JH have been on the top
    game = play(game, RECYCLE, DRAW)
    assert not game.stuck  # 4S on the top: a move is legal now
    game = play(game, move("waste", "tableau:1"))
    assert not play(game, DRAW).stuck  # QH, drawn third now, not seen yet since the move
    # 3D fits on 4S but, second of five, never comes to the top again without another move
    assert play(game, RECYCLE, DRAW).stuck


def test_not_stuck_while_a_column_or_reserve_move_is_legal():
    game = arrange(tableau=COLUMNS, reserve=["KH", "4C"], stock=["2H"], rest="reserve", draw=1)
    assert not play(game, DRAW).stuck  # 4C, the reserve's top, fits on 5H
    game = arrange(tableau=[["5H"], ["10D"], ["QD", "JC"], ["QH"]], reserve=["KH"],
                   stock=["2H"], rest="reserve", draw=1)  # fmt: skip
    assert not play(game, DRAW).stuck  # JC moves from the QD to the QH
    game = arrange(tableau=[["5H"], ["KC"], ["KS", "QH", "JC"], ["10S"]], reserve=["KH"],
                   stock=["2H"], rest="reserve", draw=1)  # fmt: skip
    assert not play(game, DRAW).stuck  # QH and JC move together onto the KC


def test_moves_from_a_foundation_do_not_count_as_something_to_do():
    game = arrange(tableau=[["8S"], *COLUMNS[1:]], reserve=["KH"], stock=["2H"], rest="reserve",
                   draw=1)  # fmt: skip
    assert play(game, DRAW).stuck  # the 7H could go back onto the 8S: still stuck
    game = play(game, move("foundation:H", "tableau:1"))
    assert not game.stuck  # now the 7H can go up again


def test_undo_restores_stuck_exactly():
    game = play(table(["2H", "3D", "KD"]), DRAW, DRAW)
    before = game.to_dict()
    assert play(game, DRAW).stuck
    game.apply(UNDO)
    assert not game.stuck
    after = game.to_dict()
    assert after["history"] == before["history"]
    assert after["state"].split(";", 1)[1] == before["state"].split(";", 1)[1]  # but the number
    assert play(game, DRAW).stuck


def test_stored_and_reloaded_and_states_stored_before_r20a_load_as_not_drawn_through():
    game = play(table(["2H", "3D", "KD"]), DRAW, DRAW, DRAW)
    assert Game.from_dict(game.to_dict()).stuck
    old = game.to_dict()
    old["state"] = ";".join(old["state"].split(";")[:6])  # nor R20c's passes, stored after
    old["history"] = [";".join(snapshot.split(";")[:6]) for snapshot in old["history"]]
    assert old["state"].count(";") == 5
    loaded = Game.from_dict(old)
    assert not loaded.stuck
    assert play(loaded, RECYCLE, DRAW, DRAW, DRAW).stuck
    assert not play(Game.from_dict(old), UNDO).stuck


def test_over_games_are_not_stuck():
    game = play(table(["2H", "3D", "KD"]), DRAW, DRAW, DRAW, Action("resign"))
    assert game.public_view()["stuck"] is False


def test_two_deals_that_differ_only_in_unseen_cards_give_the_same_answer():
    """Same play on two deals that differ in the reserve below its top and in stock cards not
    yet drawn: the same answer after every action (then they meet a different card)."""
    one = table(["2H", "3D", "KD", "JH", "4S"], draw=1)
    other = table(["2H", "3D", "KD", "JH", "QH"], draw=1)
    below = other.reserve[:-1]
    random.Random(5).shuffle(below)
    other.reserve[:-1] = below
    answers = []
    for game in (one, other):
        answers.append([play(game, DRAW).stuck for _ in range(4)])
    assert answers[0] == answers[1] == [False] * 4
    assert not play(one, DRAW).stuck and play(other, DRAW).stuck  # 4S fits, QH does not


def unseen_shuffled(game: Game, rng: random.Random) -> Game:
    """A copy whose cards the player has not seen are shuffled among themselves: the reserve
    below its top and the stock cards not on the waste's top since the last talon change."""
    copy = Game.from_dict(game.to_dict())
    drawn_order = copy.stock[::-1]
    unseen = [i for i in range(len(drawn_order)) if not copy.seen >> (len(copy.waste) + i + 1) & 1]
    pool = [drawn_order[i] for i in unseen] + copy.reserve[:-1]
    rng.shuffle(pool)
    for i in unseen:
        drawn_order[i] = pool.pop()
    copy.stock = drawn_order[::-1]
    copy.reserve[:-1] = pool
    return copy


@settings(max_examples=60)
@given(GAMES, CHOICES, st.randoms(use_true_random=False))
def test_stuck_never_depends_on_unseen_cards_and_never_while_a_move_is_legal(spec, choices, rng):
    game = new_game(spec)
    for choice in choices:
        if game.is_over:
            break
        try:
            game.apply(Action.from_dict(pick(game, choice)))
        except EngineError:  # a rejected tap changes nothing
            continue
        stuck = game.stuck
        assert unseen_shuffled(game, rng).stuck == stuck
        moves = [
            a
            for a in game.legal_actions()
            if a["type"] == "move" and not a["from"].startswith("foundation")
        ]
        if stuck:
            assert not moves
        elif not game.is_over and not moves:  # and the converse: only an unseen talon card
            mask = _talon_tops(len(game.waste) + len(game.stock), game.draw)
            assert game.seen & mask != mask
