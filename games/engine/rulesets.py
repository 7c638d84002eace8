"""The three rule sets of docs/rules.md ("Rule sets")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    any_tail: bool  # R13: any valid tail moves; False: only a whole column (classic)
    foundation_to_tableau: bool  # R10
    empty_takes_any: bool  # R15: any card or sequence; False: only the waste's top (classic)
    draws: tuple[int, ...]
    undo_limit: int | None  # None: unlimited
    auto_finish: bool


RULESETS: dict[str, RuleSet] = {
    "app": RuleSet("app", True, True, True, (3, 1), 100, False),
    "cardgames": RuleSet("cardgames", True, True, True, (3, 1), None, True),
    "classic": RuleSet("classic", False, False, False, (3,), 100, False),
}
