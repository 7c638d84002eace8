"""Storage round trip and the public view (R19)."""

import json

from games.engine import Action, Game
from games.engine.cards import NAMES

ENGINE_GAME_FIELDS = {
    "ruleset", "draw", "status", "score", "moves", "starting_rank", "stock", "waste",
    "reserve", "foundations", "tableau", "undo_available", "stuck",
    "no_progress",
}  # fmt: skip


def played(number: int = 11, draws: int = 5) -> Game:
    game = Game.deal(number, draw=1)
    for _ in range(draws):
        game.apply(Action("draw"))
    return game


def test_to_dict_is_compact_json_and_keeps_the_undo_history():
    game = played()
    stored = json.loads(json.dumps(game.to_dict()))
    assert len(json.dumps(stored)) < 1500
    again = Game.from_dict(stored)
    assert again.public_view() == game.public_view()
    for _ in range(5):
        assert again.apply(Action("undo")).as_dict() == game.apply(Action("undo")).as_dict()
    assert (
        again.public_view()
        == game.public_view()
        == {**Game.deal(11, draw=1).public_view(), "moves": 10}
    )


def test_public_view_has_exactly_the_engine_game_fields():
    assert set(played().public_view()) == ENGINE_GAME_FIELDS


def test_r19_view_never_shows_stock_cards_or_reserve_cards_below_the_top():
    game = played(draws=2)
    view = json.dumps(game.public_view())
    stored = json.dumps(game.to_dict())
    hidden = [NAMES[c] for c in game.stock] + [NAMES[c] for c in game.reserve[:-1]]
    assert len(hidden) == 32 + 12
    for card in hidden:
        assert f'"{card}"' not in view
    assert game.public_view()["stock"] == {"count": 32}
    assert game.public_view()["reserve"] == {"count": 13, "top": NAMES[game.reserve[-1]]}
    # the storage form does hold them: it is for the server only
    restored = Game.from_dict(json.loads(stored))
    assert restored.stock == game.stock and restored.reserve == game.reserve


def test_one_card_draw_fan_is_the_waste_top_alone():
    game = played(draws=3)
    assert game.public_view()["waste"] == {"count": 3, "fan": [NAMES[game.waste[-1]]]}
    view = json.dumps(game.public_view())
    assert all(f'"{NAMES[c]}"' not in view for c in game.waste[:-1])
