"""Rule by rule (RULES.md R6-R27 and the rule-set table): legal and illegal actions."""

import pytest

from games.engine import (
    Action,
    Game,
    GameOver,
    IllegalMove,
)
from tests.engine.helpers import arrange, core, seed_deck


def move(src: str, dst: str, count: int = 1) -> Action:
    return Action.from_dict({"type": "move", "from": src, "to": dst, "count": count})


def tap(src: str, count: int = 1, columns: bool = True) -> Action:
    return Action.from_dict({"type": "tap", "from": src, "count": count, "columns": columns})


DRAW, RECYCLE, UNDO, RESIGN = (Action(kind) for kind in ("draw", "recycle", "undo", "resign"))


def rejected(game: Game, action: Action, error: type = IllegalMove):
    """Assert `action` is refused with `error` and changes nothing; return the error."""
    before, storage = core(game), game.to_dict()
    with pytest.raises(error) as caught:
        game.apply(action)
    assert core(game) == before and game.to_dict() == storage
    return caught.value


# -- foundations (R6-R9) -------------------------------------------------------------------


def test_r7_slot_order_base_suit_first():
    game = arrange(base="4C")
    assert [f["suit"] for f in game.public_view()["foundations"]] == ["C", "H", "S", "D"]
    assert game.public_view()["starting_rank"] == "4"


def test_r8_empty_foundation_takes_only_its_starting_rank():
    game = arrange(base="7H", tableau=[["6S"], ["7S"], ["8H"], ["AS"]])
    err = rejected(game, move("tableau:4", "foundation"))
    assert err.rule == "R8" and err.code == "illegal_move"
    assert "AS cannot start the spades foundation: it starts with 7S" in err.message
    err = rejected(game, move("tableau:2", "foundation:H"))
    assert err.rule == "R7"
    result = game.apply(move("tableau:2", "foundation"))
    assert result.dst == "foundation:S" and result.score_delta == 5
    err = rejected(game, move("tableau:1", "foundation:S"))
    assert err.message == "6S cannot go on 7S: next is 8S (R8)"
    assert game.apply(move("tableau:3", "foundation:H")).score_delta == 5


def test_r8_foundation_wraps_king_to_ace_and_completes_at_13():
    game = arrange(base="7H", found={"H": 7}, tableau=[["AH"], ["2H"], ["KS"], []], rest="stock")
    assert game.public_view()["foundations"][0]["top"] == "KH"
    game.apply(move("tableau:1", "foundation"))
    assert game.public_view()["foundations"][0] == {"suit": "H", "count": 8, "top": "AH"}
    done = arrange(base="7H", found={"H": 13}, tableau=[["7S"], ["KS"], ["QS"], ["JS"]])
    assert rejected(done, move("tableau:1", "foundation:H")).rule == "R7"
    assert done.public_view()["foundations"][0]["top"] == "6H"


def test_r9_only_single_cards_go_to_a_foundation():
    game = arrange(base="7H", tableau=[["9C", "8H"], ["KS"], ["QS"], ["JS"]])
    game.found[0] = 1  # 7H; 8H is next
    err = rejected(game, move("tableau:1", "foundation", 2))
    assert err.rule == "R9"
    assert game.apply(move("tableau:1", "foundation")).cards == ["8H"]


def test_r9_sources_waste_reserve_column():
    game = arrange(
        base="7H", reserve=["2C", "8H"], waste=["7S"], tableau=[["7D"], ["KS"], ["QS"], ["JS"]]
    )
    assert [game.apply(move(src, "foundation")).dst for src in ("reserve", "waste")] == [
        "foundation:H",
        "foundation:S",
    ]
    assert game.apply(move("tableau:1", "foundation")).auto_fill == "2C"


# -- tableau (R10-R15) ---------------------------------------------------------------------


def test_r12_error_names_the_rule_and_why():
    game = arrange(tableau=[["8S"], ["7S"], ["9H"], ["JC"]], reserve=["2D"])
    err = rejected(game, move("tableau:2", "tableau:1"))
    assert err.message == "7S cannot go on 8S: same colour (R12)"
    assert (err.code, err.rule) == ("illegal_move", "R12")
    err = rejected(game, move("tableau:2", "tableau:3"))
    assert err.message == "7S cannot go on 9H: it must be one rank lower (R12)"
    assert game.apply(move("tableau:1", "tableau:3")).cards == ["8S"]


def test_r12_king_goes_on_ace_of_the_other_colour():
    game = arrange(tableau=[["AS"], ["KH"], ["KC"], ["AH"]], reserve=["2D", "3D"])
    assert rejected(game, move("tableau:3", "tableau:1")).rule == "R12"
    result = game.apply(move("tableau:2", "tableau:1"))
    assert result.auto_fill == "3D" and game.tableau[0] == [13, 12]


def test_r13_any_valid_tail_moves_as_a_unit():
    game = arrange(tableau=[["9C", "8H", "7S", "6D"], ["9S"], ["QS"], ["8C"]], reserve=["2H"])
    err = rejected(game, move("tableau:1", "tableau:4", 4))
    assert err.rule == "R12"  # 9C on 8C: a valid tail, wrong place
    result = game.apply(move("tableau:1", "tableau:2", 3))
    assert result.cards == ["8H", "7S", "6D"] and result.count == 3
    assert game.public_view()["tableau"][:2] == [["9C"], ["9S", "8H", "7S", "6D"]]


def test_r13_an_invalid_tail_does_not_move():
    game = arrange(tableau=[["9C", "8C", "7D"], ["9D"], ["QS"], ["JS"]], reserve=["2H"])
    err = rejected(game, move("tableau:1", "tableau:2", 3))
    assert err.message.startswith("8C does not follow 9C") and err.rule == "R13"
    assert rejected(game, move("tableau:1", "tableau:2", 4)).rule == "R13"  # more than it holds


def test_r10_foundation_top_back_to_a_column_without_losing_points():
    game = arrange(base="7H", found={"H": 3, "S": 1}, tableau=[["10C"], ["10S"], [], ["AS"]])
    score = game.score
    assert rejected(game, move("foundation:S", "tableau:1")).rule == "R12"
    result = game.apply(move("foundation:H", "tableau:1"))
    assert result.cards == ["9H"] and result.score_delta == 0 and game.score == score
    assert game.public_view()["foundations"][0]["top"] == "8H"
    game.apply(move("foundation:S", "tableau:3"))  # R15: reserve empty, any card
    assert game.found[1] == 0 and game.tableau[2] == [13 + 6]
    err = rejected(game, move("foundation:H", "foundation:S"))
    assert err.rule == "R10"
    assert rejected(game, move("foundation:D", "tableau:2")).rule == "R10"  # empty foundation


def test_r14_auto_fill_is_part_of_the_action_and_undone_with_it():
    game = Game.new(seed_deck(["JS", "QS", "8H", "QC"], "7H", ["6C", "KH", "QH", "AS"]))
    game.apply(move("reserve", "tableau:2"))
    game.apply(move("reserve", "foundation"))
    before = core(game)
    result = game.apply(move("tableau:2", "tableau:4", 2))
    assert result.auto_fill == "QS" and result.score_delta == 0
    assert game.moves == 3 and game.public_view()["reserve"] == {"count": 10, "top": "JS"}
    undo = game.apply(UNDO)
    assert core(game) == before and undo.undoes == 3 and undo.auto_fill is None
    assert game.public_view()["reserve"] == {"count": 11, "top": "QS"}
    assert game.moves == 4


def test_r14_empty_column_with_reserve_left_is_filled_not_played_on():
    game = arrange(tableau=[["5S"], [], ["QS"], ["JS"]], reserve=["2H"], waste=["9D"])
    assert rejected(game, move("waste", "tableau:2")).rule == "R14"


def test_r15_once_the_reserve_is_empty_columns_stay_empty_and_take_anything():
    game = arrange(tableau=[["5S", "4H"], ["KC"], ["AD"], []], waste=["JD"], rest="waste")
    result = game.apply(move("tableau:2", "tableau:3"))
    assert result.auto_fill is None and game.tableau[1] == []
    assert game.apply(move("tableau:1", "tableau:2", 2)).cards == ["5S", "4H"]
    assert game.apply(move("waste", "tableau:1")).cards == ["JD"]
    assert game.public_view()["tableau"] == [["JD"], ["5S", "4H"], ["AD", "KC"], []]


def test_r16_only_the_reserve_top_moves_and_nothing_goes_on_it():
    game = arrange(tableau=[["5S"], ["KC"], ["9D"], ["2C"]], reserve=["4H", "QH"])
    assert rejected(game, move("reserve", "tableau:2", 2)).rule == "R16"
    assert rejected(game, move("tableau:1", "reserve")).rule == "R16"
    assert game.apply(move("reserve", "tableau:2")).cards == ["QH"]
    assert game.public_view()["reserve"] == {"count": 1, "top": "4H"}
    assert game.apply(move("reserve", "tableau:1")).cards == ["4H"]
    assert game.public_view()["reserve"] == {"count": 0, "top": None}
    assert rejected(game, move("reserve", "tableau:1")).rule == "R16"


# -- stock and waste (R17-R18) -------------------------------------------------------------


@pytest.mark.parametrize("draw", [3, 1])
def test_r17_draw_takes_k_cards_and_only_the_waste_top_plays(draw):
    game = Game.new(seed_deck(["QC"], "7H", ["6C", "KH", "QH", "AS"], ["2D", "3D", "4D", "5D"]))
    game.draw = draw  # the same deck in both draw modes
    result = game.apply(DRAW)
    assert result.cards == ["2D", "3D", "4D"][:draw] and result.count == draw
    assert game.public_view()["waste"] == {"count": draw, "fan": ["2D", "3D", "4D"][:draw]}
    assert rejected(game, move("waste", "tableau:1", 2)).rule == "R17"
    assert rejected(game, move("stock", "tableau:1")).rule == "R17"
    assert rejected(game, move("tableau:1", "waste")).rule == "R17"


def test_r17_the_waste_fan_then_the_top_card_alone():
    stock = ["4S", "5S", "8S", "2D", "7D", "9D"]
    game = Game.new(seed_deck(["QC"], "7H", ["6C", "KH", "3C", "10S"], stock))
    game.apply(DRAW)
    assert game.public_view()["waste"] == {"count": 3, "fan": ["4S", "5S", "8S"]}
    game.apply(DRAW)
    assert game.public_view()["waste"] == {"count": 6, "fan": ["2D", "7D", "9D"]}
    game.apply(move("waste", "tableau:4"))
    assert game.public_view()["waste"]["fan"] == ["2D", "7D"]
    game.apply(move("waste", "foundation"))
    assert game.public_view()["waste"]["fan"] == ["2D"]
    game.apply(move("waste", "tableau:3"))
    assert game.public_view()["waste"] == {"count": 3, "fan": ["8S"]}
    game.apply(UNDO)
    assert game.public_view()["waste"] == {"count": 4, "fan": ["2D"]}


def test_r17_one_card_draw_fans_one_card():
    game = Game.new(seed_deck(["QC"], "7H", ["6C", "KH", "3C", "10S"], ["4S", "9D"]), draw=1)
    game.apply(DRAW)
    game.apply(DRAW)
    assert game.public_view()["waste"] == {"count": 2, "fan": ["9D"]}
    game.apply(move("waste", "tableau:4"))
    assert game.public_view()["waste"] == {"count": 1, "fan": ["4S"]}


def test_r18_draw_then_recycle_in_the_original_order():
    game = arrange(
        stock=["2D", "3D", "4D", "5D", "6D"],
        tableau=[["KS"], ["KH"], ["KD"], ["KC"]],
        rest="reserve",
    )
    assert {"type": "draw"} in game.legal_actions()
    assert rejected(game, RECYCLE).message == "recycle only when the stock is empty (R18)"
    assert game.apply(DRAW).cards == ["2D", "3D", "4D"]
    result = game.apply(DRAW)
    assert result.cards == ["5D", "6D"] and result.count == 2
    assert game.public_view()["waste"] == {"count": 5, "fan": ["5D", "6D"]}
    assert rejected(game, DRAW).rule == "R18"
    assert {"type": "recycle"} in game.legal_actions()
    assert {"type": "draw"} not in game.legal_actions()
    result = game.apply(RECYCLE)
    assert (result.count, result.cards, result.score_delta) == (5, None, 0)
    assert game.public_view()["waste"] == {"count": 0, "fan": []}
    assert game.public_view()["stock"] == {"count": 5}
    assert game.apply(DRAW).cards == ["2D", "3D", "4D"]
    assert game.moves == 4 and game.score == 0


def test_r18_nothing_to_draw_or_recycle():
    game = arrange(tableau=[["KS"], ["KH"], ["KD"], ["KC"]], rest="reserve")
    assert rejected(game, DRAW).rule == "R18"
    assert rejected(game, RECYCLE).message == "the waste is empty: nothing to recycle (R18)"
    kinds = {action["type"] for action in game.legal_actions()}
    assert "draw" not in kinds and "recycle" not in kinds


# -- end of game (R20-R21, R25) -----------------------------------------------------------


def test_r20_win_detection_and_the_full_score():
    game = arrange(
        base="7H", found={"H": 13, "S": 13, "D": 13, "C": 12}, tableau=[["6C"], [], [], []]
    )
    assert game.score == 250
    result = game.apply(move("tableau:1", "foundation"))
    assert result.score_delta == 5 and game.score == 255
    assert game.status == "won" and game.public_view()["status"] == "won"
    assert game.legal_actions() == [] and game.public_view()["undo_available"] == 0
    err = rejected(game, UNDO, GameOver)
    assert err.code == "game_over"


def test_resign_ends_the_game_and_is_not_a_move():
    game = Game.deal(7)
    game.apply(DRAW)
    result = game.apply(RESIGN)
    assert result.type == "resign" and result.n == 2
    assert game.status == "resigned" and game.moves == 1
    assert rejected(game, DRAW, GameOver).code == "game_over"
    assert game.legal_actions() == []


def test_r21_app_never_moves_anything_by_itself():
    game = arrange(
        base="7H", found={"H": 13, "S": 13, "D": 13, "C": 10}, tableau=[["4C"], ["5C"], ["6C"], []]
    )
    game.apply(move("tableau:3", "tableau:4"))
    assert game.status == "playing" and game.found[3] == 10
