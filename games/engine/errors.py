"""Engine errors. Each carries the API error `code`, the broken `rule`, a stable `reason` with
its `params` (card and pile names as the API spells them, numbers) from which the server words
the message in the caller's language, and an English developer `message`.

    >>> err = IllegalMove("7S cannot go on 8S: same colour", "R12", reason="same_colour",
    ...                   params={"card": "7S", "onto": "8S"})
    >>> err.message, err.reason, err.params
    ('7S cannot go on 8S: same colour (R12)', 'same_colour', {'card': '7S', 'onto': '8S'})
"""

from __future__ import annotations

Params = dict[str, str | int]


class EngineError(ValueError):
    code = "invalid_request"
    reason = "invalid_request"  # the reason when a raise site names none

    def __init__(
        self,
        message: str,
        rule: str | None = None,
        *,
        reason: str | None = None,
        params: Params | None = None,
    ) -> None:
        if rule:
            message = f"{message} ({rule})"
        super().__init__(message)
        self.message = message
        self.rule = rule
        if reason is not None:
            self.reason = reason
        self.params: Params = params or {}


class InvalidAction(EngineError):
    """The action is malformed: unknown type or pile, bad count, unknown field."""

    code = "invalid_request"


class InvalidCode(EngineError):
    code = "invalid_code"
    reason = "invalid_code"


class InvalidDeck(EngineError):
    code = "invalid_deck"
    reason = "invalid_deck"


class IllegalMove(EngineError):
    code = "illegal_move"


class NoDestination(EngineError):
    code = "no_destination"
    reason = "no_destination"


class CannotFinish(EngineError):
    """R20b: a card is still hidden, or the cards left cannot all go home one after another."""

    code = "cannot_finish"


class GameOver(EngineError):
    code = "game_over"
    reason = "game_over"
