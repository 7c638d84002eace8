"""Actions a player sends, piles they name, and what an applied action did.

>>> Action.from_dict({"type": "move", "from": "tableau:2", "to": "foundation"})
Action(type='move', src='tableau:2', dst='foundation', count=1, columns=True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.errors import InvalidAction

# Piles are small ints inside the engine.
STOCK, WASTE, RESERVE = 0, 1, 2
TABLEAU = (3, 4, 5, 6)  # tableau:1..4
FOUNDATION = (7, 8, 9, 10)  # foundation:H, S, D, C (by suit index)
ANY_FOUNDATION = 11  # "foundation": the one of the moving card's suit

PILE_NAMES = (
    "stock", "waste", "reserve",
    "tableau:1", "tableau:2", "tableau:3", "tableau:4",
    "foundation:H", "foundation:S", "foundation:D", "foundation:C",
    "foundation",
)  # fmt: skip
PILES = {name: pile for pile, name in enumerate(PILE_NAMES)}

_FIELDS = {
    "move": {"type", "from", "to", "count"},
    "tap": {"type", "from", "count", "columns"},
    "draw": {"type"},
    "recycle": {"type"},
    "undo": {"type"},
    "resign": {"type"},
    "finish": {"type"},  # R20b
}
ACTION_TYPES = tuple(_FIELDS)
MAX_COUNT = 52


def pile_name(value: object, *, what: str) -> str:
    """`value` if it names a pile, else InvalidAction."""
    if not isinstance(value, str) or value not in PILES:
        known = ", ".join(PILE_NAMES)
        raise InvalidAction(
            f"{what} must be one of {known}; got {_shown(value)}",
            reason="invalid_value", params={"field": what, "allowed": known},
        )  # fmt: skip
    return value


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


@dataclass(frozen=True, slots=True)
class Action:
    """One player action. `src`/`dst` are pile names (docs/api.md "Pile names")."""

    type: str
    src: str | None = None
    dst: str | None = None
    count: int = 1
    columns: bool = True

    @classmethod
    def from_dict(cls, data: object) -> Action:
        """Parse the API's action object; InvalidAction names what is wrong."""
        if not isinstance(data, dict):
            raise InvalidAction("an action must be a JSON object", reason="not_an_object")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in _FIELDS:
            known = ", ".join(ACTION_TYPES)
            raise InvalidAction(
                f"type must be one of {known}; got {_shown(kind)}",
                reason="invalid_value", params={"field": "type", "allowed": known},
            )  # fmt: skip
        unknown = sorted(str(key) for key in data if key not in _FIELDS[kind])
        if unknown:
            raise InvalidAction(
                f"unknown field(s) for a {kind}: {', '.join(unknown)}",
                reason="unknown_fields", params={"fields": ", ".join(unknown)[:200]},
            )  # fmt: skip
        if kind not in ("move", "tap"):
            return cls(kind)
        src = pile_name(data.get("from"), what="from")
        if src == "foundation":
            raise InvalidAction(
                "from must name one pile: foundation:H, foundation:S, ...",
                reason="invalid_value",
                params={"field": "from", "allowed": ", ".join(p for p in PILE_NAMES if p != src)},
            )
        count = data.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise InvalidAction(
                f"count must be a whole number from 1 to 52; got {_shown(count)}",
                reason="invalid_value", params={"field": "count", "allowed": "1-52"},
            )  # fmt: skip
        if kind == "tap":
            columns = data.get("columns", True)
            if not isinstance(columns, bool):
                raise InvalidAction(
                    f"columns must be true or false; got {_shown(columns)}",
                    reason="invalid_value", params={"field": "columns", "allowed": "true, false"},
                )  # fmt: skip
            return cls(kind, src, None, count, columns)
        return cls(kind, src, pile_name(data.get("to"), what="to"), count)

    def as_dict(self) -> dict[str, Any]:
        if self.type == "move":
            return {"type": "move", "from": self.src, "to": self.dst, "count": self.count}
        if self.type == "tap":
            return {"type": "tap", "from": self.src, "count": self.count, "columns": self.columns}
        return {"type": self.type}


@dataclass(slots=True)
class ActionResult:
    """What one applied action did: the API's ACTION object without its time."""

    n: int
    type: str
    src: str | None = None
    dst: str | None = None
    count: int | None = None
    cards: list[str] | None = None
    score_delta: int = 0
    auto_fill: str | None = None
    undoes: int | None = None
    auto_finish: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "type": self.type,
            "from": self.src,
            "to": self.dst,
            "count": self.count,
            "cards": self.cards,
            "score_delta": self.score_delta,
            "auto_fill": self.auto_fill,
            "undoes": self.undoes,
            "auto_finish": self.auto_finish,
        }
