"""What happened to a game, told to the apps that listen: one typed bus.

`games` never imports what listens to it: the daily boards (leaderboard), matches and the
fair-play review subscribe from their AppConfig's `ready` (`game_changed_subscribe`), each
naming the kinds of game it hears of and what it runs in each phase, given the `GameChanged`:

- `in_transaction`: inside the write's transaction, so that what it writes commits or rolls back
  with the game; its error is the write's error.
- `in_statement` (PostgreSQL): that same write as a `Clause` of the action's one statement, so
  that a ranked action is one round trip as a practice one is. An action takes that path only
  when every subscription of its game's kind has one (else it is a transaction).
- `after_commit`: once the write committed, robustly (core.commits.after_commit: an error is
  logged and counted, never the request's).

A plain list rather than Django signals: who listens is explicit (one call in an AppConfig) and
the order is the registration order (INSTALLED_APPS': fair play queues a match game's review
before its match hears of the game's end).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial

from core.commits import after_commit
from games.engine import ActionResult
from games.models import Game
from games.seats import game_match_id


class GameKind(StrEnum):
    """What a game counts for."""

    DAILY = "daily"  # on a daily challenge: ranked on its board
    MATCH = "match"  # a seat of a match (R32)
    PRACTICE = "practice"  # ranked nowhere: a random deal or one the player chose (R19)


def game_kind(game: Game) -> GameKind:
    if game.challenge_id is not None:
        return GameKind.DAILY
    return GameKind.PRACTICE if game_match_id(game) is None else GameKind.MATCH


@dataclass(frozen=True, slots=True)
class GameChanged:
    """A game's change, told in the write that made it: the game as written, the moment of the
    change, the game's kind, the action the engine applied (None when the server ended the game:
    its day or its match was over) and how many cards its foundations hold now (the base cards
    included), read from the engine the action already had."""

    game: Game
    at: datetime.datetime
    kind: GameKind
    action: ActionResult | None
    home: int

    @property
    def finished(self) -> bool:
        return self.game.status != Game.Status.PLAYING


# The action's one statement (games.services) names the written game's row `CHANGED`: a
# clause reads the written game's id as `CHANGED_GAME_ID` (no row when the version check
# failed, so the clause writes nothing either).
CHANGED = "updated"
CHANGED_GAME_ID = f"(SELECT id FROM {CHANGED})"


@dataclass(frozen=True, slots=True)
class Clause:
    """One data-modifying clause of the action's statement, `name AS (sql)`, and its
    parameters (PostgreSQL)."""

    name: str
    sql: str
    params: tuple[str | int | datetime.datetime | None, ...]

    def as_sql(self) -> str:
        return f"{self.name} AS ({self.sql})"


@dataclass(frozen=True, slots=True)
class GameChangedSubscription:
    kinds: frozenset[GameKind]
    in_transaction: Callable[[GameChanged], None] | None = None
    in_statement: Callable[[GameChanged], Clause | None] | None = None
    after_commit: Callable[[GameChanged], None] | None = None


_subscriptions: list[GameChangedSubscription] = []


def game_changed_subscribe(
    *,
    kinds: frozenset[GameKind],
    in_transaction: Callable[[GameChanged], None] | None = None,
    in_statement: Callable[[GameChanged], Clause | None] | None = None,
    after_commit: Callable[[GameChanged], None] | None = None,
) -> None:
    """Hear of every change of a game of `kinds` (called once, from an AppConfig's `ready`)."""
    subscription = GameChangedSubscription(kinds, in_transaction, in_statement, after_commit)
    if subscription not in _subscriptions:
        _subscriptions.append(subscription)


def game_changed_heard(kind: GameKind) -> list[GameChangedSubscription]:
    """The subscriptions that hear of a change of a game of `kind`, in their order."""
    return [each for each in _subscriptions if kind in each.kinds]


def game_changed_clauses(
    change: GameChanged, heard: list[GameChangedSubscription]
) -> list[Clause] | None:
    """The subscriptions' writes as clauses of the action's one statement, or None when one of
    them has no `in_statement` (then the action is a transaction: `game_changed_in_transaction`)."""
    if not all(each.in_statement for each in heard):
        return None
    clauses = (each.in_statement(change) for each in heard if each.in_statement)
    return [clause for clause in clauses if clause is not None]


def game_changed_in_transaction(change: GameChanged, heard: list[GameChangedSubscription]) -> None:
    """Inside the transaction that made `change`: tell `heard`, now and after the commit."""
    for each in heard:
        if each.in_transaction:
            each.in_transaction(change)
    game_changed_after_commit(change, heard)


def game_changed_after_commit(change: GameChanged, heard: list[GameChangedSubscription]) -> None:
    """Tell `heard` of `change` once it has committed (at once outside a transaction)."""
    for each in heard:
        if each.after_commit:
            after_commit(partial(each.after_commit, change))
