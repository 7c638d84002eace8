"""How the tests play a deal built to be won (tests.web.helpers.easy_deck): any card that can go
to a foundation goes there, else the stock is drawn or recycled."""

from __future__ import annotations

from canfield_client import Move


def foundation_first(legal: list[Move]) -> Move:
    for move in legal:
        if move.type == "move" and (move.to or "").startswith("foundation"):
            return move
    for move in legal:
        if move.type in ("draw", "recycle"):
            return move
    raise AssertionError(f"no foundation move, draw or recycle among {legal}")
