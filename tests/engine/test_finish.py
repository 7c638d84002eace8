"""R20b: `finish` sends every card left home as one action, once no card is hidden and they can
all go home one after another; counted as the moves it makes (R25)."""

import json

import pytest

from games.engine import Action, CannotFinish, Game, GameOver, InvalidAction
from games.engine.cards import parse_card
from tests.engine.helpers import arrange, core

FINISH, UNDO = Action("finish"), Action("undo")


def finishable() -> Game:
    """Base AH: hearts complete; spades want QS, diamonds QD, clubs JC. Every card left is
    face up: the waste's fan QS KS, the reserve's only card QC, columns KD QD / JC / KC."""
    return arrange(
        base="AH",
        found={"H": 13, "S": 11, "D": 11, "C": 10},
        waste=["KS", "QS"],
        fan=2,
        reserve=["QC"],
        tableau=[["KD", "QD"], ["JC"], ["KC"], []],
        rest="reserve",
    )


def test_finish_sends_every_card_home_in_one_action_counted_as_its_moves():
    # given
    game = finishable()
    assert {"type": "finish"} in game.legal_actions()
    # when
    result = game.apply(Action.from_dict({"type": "finish"}))
    # then: one sweep takes a card from each pile that has one to give, waste first
    assert result.as_dict() == {
        "n": 1, "type": "finish", "from": None, "to": None, "count": 7,
        "cards": ["QS", "QD", "JC", "KS", "QC", "KD", "KC"],
        "score_delta": 35, "auto_fill": None, "undoes": None, "auto_finish": [],
    }  # fmt: skip
    assert game.status == "won" and game.found == [13, 13, 13, 13]
    assert game.moves == 7 and game.n == 1 and game.score == 255
    assert game.legal_actions() == []


def test_a_card_that_scored_before_scores_nothing_when_finish_sends_it_home_again():
    # given: the QS went home and came back to a column (R10)
    game = finishable()
    game.scored |= 1 << parse_card("QS")
    # when
    result = game.apply(FINISH)
    # then
    assert result.score_delta == 30


@pytest.mark.parametrize(
    "hidden",
    [
        {"stock": ["2D"]},  # a card still in the stock
        {"reserve": ["2D", "QC"]},  # a card below the reserve's top
        {"waste": ["2D", "KS", "QS"]},  # a card below the waste's fan
    ],
)
def test_no_finish_while_a_card_is_hidden(hidden):
    # given: the same table with one more card hidden (the 2D, already home in the others)
    piles = {
        "base": "AH", "found": {"H": 13, "S": 11, "D": 1, "C": 10},
        "waste": ["KS", "QS"], "fan": 2, "reserve": ["QC"],
        "tableau": [["KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D", "5D", "4D", "3D"], ["JC"],
                    ["KC"], []],
    }  # fmt: skip
    game = arrange(**{**piles, **hidden})
    before = game.to_dict()
    # when
    with pytest.raises(CannotFinish) as refused:
        game.apply(FINISH)
    # then
    assert (refused.value.code, refused.value.reason) == ("cannot_finish", "finish_hidden")
    assert refused.value.rule == "R20b" and refused.value.params == {}
    assert game.to_dict() == before
    assert {"type": "finish"} not in game.legal_actions()


def test_no_finish_while_a_card_blocks_another_of_its_suit():
    # given: the QC lies on the JC it waits for
    game = arrange(
        base="AH",
        found={"H": 13, "S": 13, "D": 13, "C": 10},
        tableau=[["JC", "QC"], ["KC"], [], []],
    )
    before = game.to_dict()
    # when
    with pytest.raises(CannotFinish) as refused:
        game.apply(FINISH)
    # then
    assert refused.value.reason == "finish_blocked"
    assert game.to_dict() == before and {"type": "finish"} not in game.legal_actions()


def test_finish_is_one_undo_step_and_a_won_game_takes_no_undo():
    # given
    game = finishable()
    before = core(game)
    game.apply(FINISH)
    # when / then: the game is won, so it is over (R24 undoes in a game in progress only)
    with pytest.raises(GameOver):
        game.apply(UNDO)
    # then: the step the finish stored restores the whole table before it at once
    stored = game.to_dict()
    assert len(stored["history"]) == 1
    stored["status"] = "playing"
    again = Game.from_dict(stored)
    again.apply(UNDO)
    assert core(again) == before and again.moves == 8


def test_finish_round_trips_through_storage_and_replays_from_the_log():
    # given
    game = finishable()
    stored = json.loads(json.dumps(game.to_dict()))
    # when
    again = Game.from_dict(stored)
    # then
    assert again.legal_actions() == game.legal_actions()
    assert again.apply(FINISH).as_dict() == game.apply(FINISH).as_dict()
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()


def test_finish_takes_no_fields_and_is_refused_once_the_game_is_over():
    game = finishable()
    with pytest.raises(InvalidAction) as extra:
        Action.from_dict({"type": "finish", "count": 3})
    assert extra.value.reason == "unknown_fields"
    game.apply(Action("resign"))
    with pytest.raises(GameOver):
        game.apply(FINISH)
