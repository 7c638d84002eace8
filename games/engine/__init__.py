"""Canfield rules engine: pure Python, no Django, deterministic, typed.

The whole public surface, re-exported here:

    from games.engine import (
        Game, Action, ActionResult, DealCode, shuffled_deck, RULESETS, describe,
        EngineError, InvalidCode, InvalidDeck, InvalidAction, IllegalMove, NoDestination, GameOver,
        CannotFinish,
    )

Deals (RULES R3-R5)::

    >>> code = DealCode.parse("cf1-d3-aaaaacl")        # lowercase is normalised
    >>> code.number, code.draw, str(code)
    (75, 3, 'CF1-D3-AAAAACL')
    >>> len(shuffled_deck(75))                         # d[0..51] as card names
    52
    >>> DealCode.parse("CF2-D1-AAAAAAAAAAAAAAAAAAAAAAAAAB").version   # 128-bit CF2 (R4a)
    2

Games::

    game = Game.deal(75, ruleset="app", draw=3)        # from a deal number
    game = Game.deal(1, draw=1, version=2)             # from a CF2 deal number
    game = Game.new(deck, ruleset="app", draw=3)       # from 52 card names, dealt by R5
    result = game.apply(Action.from_dict({"type": "move", "from": "reserve", "to": "foundation"}))
    result.as_dict()    # API ACTION fields except "at": n, type, from, to, count, cards,
                        # score_delta, auto_fill, undoes, auto_finish (cards the `cardgames`
                        # rules played up in the action; [] otherwise)
    game.public_view()  # the engine's GAME fields of docs/api.md (hides R19 information)
    game.legal_actions()                               # docs/api.md legal-actions list
    Game.from_dict(game.to_dict())                     # compact JSON-able storage form
    describe(game, "hu")                               # R28 text, also "en" and "pl"

`apply` either raises an `EngineError` and leaves the game unchanged, or mutates the game and
returns what happened. Every error has `code` (the API error code), `message` (plain words,
never revealing hidden cards) and `rule` (an R-number or None).
"""

from games.engine.actions import Action, ActionResult
from games.engine.deal import DealCode, shuffled_deck
from games.engine.errors import (
    CannotFinish,
    EngineError,
    GameOver,
    IllegalMove,
    InvalidAction,
    InvalidCode,
    InvalidDeck,
    NoDestination,
)
from games.engine.game import Game
from games.engine.rulesets import RULESETS
from games.engine.text import describe

__all__ = [
    "Action",
    "ActionResult",
    "CannotFinish",
    "DealCode",
    "EngineError",
    "Game",
    "GameOver",
    "IllegalMove",
    "InvalidAction",
    "InvalidCode",
    "InvalidDeck",
    "NoDestination",
    "RULESETS",
    "describe",
    "shuffled_deck",
]
