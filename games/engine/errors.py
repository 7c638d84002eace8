"""Engine errors. Each carries the API error `code`, plain-words `message` and broken `rule`."""

from __future__ import annotations


class EngineError(ValueError):
    code = "invalid_request"

    def __init__(self, message: str, rule: str | None = None) -> None:
        if rule:
            message = f"{message} ({rule})"
        super().__init__(message)
        self.message = message
        self.rule = rule


class InvalidAction(EngineError):
    """The action is malformed: unknown type or pile, bad count, unknown field."""

    code = "invalid_request"


class InvalidCode(EngineError):
    code = "invalid_code"


class InvalidDeck(EngineError):
    code = "invalid_deck"


class IllegalMove(EngineError):
    code = "illegal_move"


class NoDestination(EngineError):
    code = "no_destination"


class GameOver(EngineError):
    code = "game_over"
