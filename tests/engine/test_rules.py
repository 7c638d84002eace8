"""Rule by rule (docs/rules.md R6-R27 and the rule-set table): legal and illegal actions."""

import pytest

from games.engine import (
    Action,
    Game,
    GameOver,
    IllegalMove,
    InvalidAction,
    NoDestination,
)
from games.engine.cards import NAMES
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


# -- score, undo, moves (R22-R25) ----------------------------------------------------------


def test_r22_each_card_scores_once_no_farming():
    game = arrange(base="7H", tableau=[["8H"], ["9C"], ["KS"], ["QS"]], reserve=["2D"])
    assert game.apply(move("tableau:1", "foundation")).score_delta == 5
    assert game.apply(move("foundation:H", "tableau:2")).score_delta == 0
    assert game.score == 5
    assert game.apply(move("tableau:2", "foundation")).score_delta == 0
    assert game.score == 5
    assert game.apply(UNDO).score_delta == 0
    assert game.apply(UNDO).score_delta == 0
    undo = game.apply(UNDO)
    assert undo.score_delta == -5 and game.score == 0  # R23: back to 0, not below
    assert game.apply(move("tableau:1", "foundation")).score_delta == 5  # scores again
    assert game.score == 5 and game.moves == 7


def test_r22_the_base_card_never_scores():
    game = arrange(base="7H", found={"H": 2}, tableau=[["9C"], ["8S"], ["QS"], ["JS"]])
    assert game.score == 5
    game.apply(move("foundation:H", "tableau:1"))  # 8H off
    game.apply(move("foundation:H", "tableau:2"))  # the base card 7H off
    assert game.found[0] == 0
    assert game.apply(move("tableau:2", "foundation")).score_delta == 0
    assert game.score == 5


def test_r24_consecutive_undos_step_back_and_are_never_undone():
    game = Game.deal(42)
    states = [core(game)]
    for _ in range(3):
        game.apply(DRAW)
        states.append(core(game))
    for n, expected in zip((3, 2, 1), reversed(states[:3]), strict=True):
        result = game.apply(UNDO)
        assert result.undoes == n and core(game) == expected
        assert (result.src, result.dst, result.count, result.cards) == (None, None, None, None)
    assert game.public_view()["undo_available"] == 0
    assert rejected(game, UNDO).rule == "R24"
    assert game.moves == 6 and game.n == 6


def draw_or_recycle(game: Game) -> None:
    game.apply(DRAW if game.stock else RECYCLE)


def test_r24_app_undoes_at_most_the_last_100_actions():
    game = Game.deal(3, draw=1)
    states = []
    for _ in range(130):
        states.append(core(game))
        draw_or_recycle(game)
    assert game.public_view()["undo_available"] == 100
    for expected in reversed(states[30:]):
        game.apply(UNDO)
        assert core(game) == expected
    assert rejected(game, UNDO).rule == "R24"
    assert game.moves == 230


def test_cardgames_undo_is_unlimited():
    game = Game.deal(3, ruleset="cardgames", draw=1)
    start = core(game)
    for _ in range(150):
        draw_or_recycle(game)
    assert game.public_view()["undo_available"] == 150
    for _ in range(150):
        game.apply(UNDO)
    assert core(game) == start and game.moves == 300


def test_r25_moves_count_accepted_actions_only():
    game = Game.new(seed_deck(["JS", "QS", "8H", "QC"], "7H", ["6C", "KH", "QH", "AS"]))
    rejected(game, move("tableau:4", "foundation"))
    game.apply(tap("reserve"))  # QC onto KH
    game.apply(move("reserve", "foundation"))
    game.apply(move("tableau:2", "tableau:4", 2))  # with its auto-fill
    game.apply(DRAW)
    game.apply(UNDO)
    assert game.moves == 5 and game.n == 5
    game.apply(RESIGN)
    assert game.moves == 5 and game.n == 6


# -- tap (R27) -----------------------------------------------------------------------------


def test_r27_tap_prefers_the_foundation():
    game = arrange(
        base="7H", waste=["8H"], tableau=[["9S"], ["KS"], ["QS"], ["JS"]], reserve=["2C"]
    )
    result = game.apply(tap("waste"))
    assert (result.type, result.src, result.dst, result.score_delta) == (
        "move",
        "waste",
        "foundation:H",
        5,
    )


def test_r27_tap_picks_the_longest_accepting_column_ties_lowest():
    columns = [["KD"], ["7D", "6C"], ["7H", "6S"], ["QD"]]
    game = arrange(base="2H", tableau=columns, reserve=["3C", "5H"])
    assert game.apply(tap("reserve")).dst == "tableau:2"
    longest = [["6S"], ["KD"], ["QD"], ["9D", "8C", "7H", "6C"]]
    game = arrange(base="2H", tableau=longest, reserve=["3C", "5H"])
    assert game.apply(tap("reserve")).dst == "tableau:4"


def test_r27_tap_prefers_a_filled_column_then_the_lowest_empty_one():
    game = arrange(tableau=[[], ["6S"], [], []], waste=["5D"], rest="waste")
    assert game.apply(tap("waste")).dst == "tableau:2"
    game = arrange(tableau=[["KS"], [], ["QH"], []], waste=["5D"], rest="waste")
    assert game.apply(tap("waste")).dst == "tableau:2"


def test_r27_tap_on_a_column_card_takes_its_tail():
    game = arrange(
        base="7H", tableau=[["9C", "8H", "7S"], ["9S"], ["KS", "QS"], ["QD"]], reserve=["2C"]
    )
    result = game.apply(tap("tableau:1", 2))
    assert (result.dst, result.cards) == ("tableau:2", ["8H", "7S"])
    err = rejected(game, tap("tableau:3", 2))
    assert err.message.startswith("QS does not follow KS") and err.rule == "R13"
    assert rejected(game, tap("tableau:1", 2)).rule == "R27"  # it holds one card


def test_r27_columns_false_means_foundation_only():
    game = arrange(base="2H", tableau=[["6S"], ["KD"], ["QD"], ["JS"]], reserve=["3C", "5H"])
    err = rejected(game, tap("reserve", columns=False), NoDestination)
    assert (err.code, err.rule) == ("no_destination", "R27")
    assert game.apply(tap("reserve")).dst == "tableau:1"


def test_r27_no_destination_and_foundation_cards():
    game = arrange(
        base="7H", found={"H": 2}, tableau=[["6S"], ["KD"], ["QD"], ["JS"]], reserve=["2C", "4D"]
    )
    err = rejected(game, tap("reserve"), NoDestination)
    assert err.message == "4D has nowhere to go (R27)"
    assert rejected(game, tap("foundation:H"), NoDestination).rule == "R27"
    assert rejected(game, tap("stock")).rule == "R27"
    assert rejected(game, tap("waste")).rule == "R27"  # empty waste


# -- rule sets -----------------------------------------------------------------------------


def test_classic_moves_only_whole_columns():
    game = arrange(
        ruleset="classic", tableau=[["8H", "7S"], ["9C"], ["9D"], ["10H"]], reserve=["2C"]
    )
    err = rejected(game, move("tableau:1", "tableau:3", 2))
    assert err.message == "8H cannot go on 9D: same colour (R12)"
    assert rejected(game, move("tableau:1", "tableau:3", 1)).message == (
        "only a whole column moves in the classic rules (R13)"
    )
    result = game.apply(move("tableau:1", "tableau:2", 2))
    assert result.auto_fill == "2C"
    between_columns = [
        a
        for a in game.legal_actions()
        if a["type"] == "move" and a["from"].startswith("tableau") and a["to"].startswith("tableau")
    ]
    assert between_columns == [{"type": "move", "from": "tableau:2", "to": "tableau:4", "count": 3}]


def test_classic_no_foundation_to_tableau():
    game = arrange(
        ruleset="classic", base="7H", found={"H": 3}, tableau=[["10C"], ["KS"], ["QS"], ["JS"]]
    )
    err = rejected(game, move("foundation:H", "tableau:1"))
    assert err.message == "cards never leave a foundation in the classic rules (R10)"
    assert not [a for a in game.legal_actions() if a.get("from", "").startswith("foundation")]


def test_classic_empty_column_only_from_the_waste_and_may_stay_empty():
    game = arrange(
        ruleset="classic", tableau=[["KS"], ["AH"], ["QH"], []], waste=["5D"], rest="waste"
    )
    assert game.apply(move("tableau:1", "tableau:2")).auto_fill is None
    assert game.tableau[0] == []
    err = rejected(game, move("tableau:3", "tableau:1"))
    assert (
        err.message == "an empty column takes only the waste's top card in the classic rules (R15)"
    )
    assert game.apply(move("waste", "tableau:4")).cards == ["5D"]


def test_classic_draws_three_only():
    with pytest.raises(InvalidAction, match="draw must be 3 in the classic rules"):
        Game.deal(1, ruleset="classic", draw=1)
    with pytest.raises(InvalidAction, match="ruleset must be one of app, cardgames, classic"):
        Game.deal(1, ruleset="vegas")
    assert Game.deal(1, ruleset="cardgames", draw=1).draw == 1


def endgame(ruleset: str, columns: list[list[str]]) -> Game:
    return arrange(
        ruleset=ruleset,
        base="7H",
        found={"H": 13, "S": 13, "D": 11, "C": 12},
        tableau=columns,
        waste=["6C"],
    )


def test_cardgames_auto_finish_within_the_action():
    game = endgame("cardgames", [["6D"], ["5D"], [], []])
    result = game.apply(move("waste", "foundation"))
    assert result.auto_finish == ["5D", "6D"] and result.score_delta == 15
    assert game.status == "won" and game.score == 255 and game.moves == 1


def test_cardgames_no_auto_finish_while_a_card_is_stuck_or_in_app():
    stuck = endgame("cardgames", [["5D", "6D"], [], [], []])
    assert stuck.apply(move("waste", "foundation")).auto_finish == []
    assert stuck.status == "playing"
    app = endgame("app", [["6D"], ["5D"], [], []])
    assert app.apply(move("waste", "foundation")).auto_finish == []
    assert app.status == "playing" and app.found[2] == 11


def test_cardgames_auto_finish_waits_for_the_stock_waste_and_reserve():
    game = arrange(
        ruleset="cardgames",
        base="7H",
        found={"H": 13, "S": 13, "D": 11, "C": 11},
        tableau=[["6D"], ["5D"], [], []],
        waste=["6C", "5C"],
    )
    assert game.apply(move("waste", "foundation")).auto_finish == []
    result = game.apply(move("waste", "foundation"))
    assert result.auto_finish == ["5D", "6D"] and game.status == "won"


# -- parsing actions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "an action must be a JSON object"),
        ({"type": "fly"}, "type must be one of"),
        ({"type": "draw", "count": 1}, "unknown field(s) for a draw: count"),
        ({"type": "move", "from": "tableau:5", "to": "tableau:1"}, "from must be one of"),
        ({"type": "move", "from": "tableau:1"}, "to must be one of"),
        ({"type": "move", "from": "foundation", "to": "tableau:1"}, "from must name one pile"),
        ({"type": "move", "from": "waste", "to": "tableau:1", "count": 0}, "count must be"),
        ({"type": "move", "from": "waste", "to": "tableau:1", "count": 53}, "count must be"),
        ({"type": "move", "from": "waste", "to": "tableau:1", "count": True}, "count must be"),
        ({"type": "move", "from": "waste", "to": "tableau:1", "count": "2"}, "count must be"),
        ({"type": "tap", "from": "waste", "to": "tableau:1"}, "unknown field(s) for a tap: to"),
        ({"type": "tap", "from": "waste", "columns": "no"}, "columns must be true or false"),
    ],
)
def test_malformed_actions_are_invalid_requests(data, words):
    with pytest.raises(InvalidAction) as err:
        Action.from_dict(data)
    assert err.value.code == "invalid_request" and words in err.value.message


def test_draw_mode_must_be_a_whole_number():
    for draw in (3.0, True, "3", None):
        with pytest.raises(InvalidAction, match="draw must be 3 or 1"):
            Game.deal(1, draw=draw)
        with pytest.raises(InvalidAction):
            Game.new(list(NAMES), draw=draw)
