"""The state of one Canfield game and the actions on it (RULES R5-R27).

>>> game = Game.deal(75)
>>> game.public_view()["reserve"]
{'count': 13, 'top': 'KD'}
>>> game.apply(Action("draw")).cards
['KC', '10C', '5C']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from games.engine.actions import (
    ANY_FOUNDATION,
    FOUNDATION,
    MAX_COUNT,
    PILE_NAMES,
    PILES,
    RESERVE,
    STOCK,
    TABLEAU,
    WASTE,
    Action,
    ActionResult,
)
from games.engine.cards import FITTING, NAMES, RANKS, SUITS, fits_on, parse_card
from games.engine.deal import DealCode, shuffled_order
from games.engine.errors import (
    CannotFinish,
    GameOver,
    IllegalMove,
    InvalidAction,
    InvalidDeck,
    NoDestination,
    Params,
)
from games.engine.rulesets import RULESETS, RuleSet

POINTS = 5  # R22
SUIT_WORDS = ("hearts", "spades", "diamonds", "clubs")

# Storage: a pile is a string of letters, one per card (A..Z = 0..25, a..z = 26..51).
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_TO_LETTERS = bytes.maketrans(bytes(range(52)), _LETTERS)
_FROM_LETTERS = bytes.maketrans(_LETTERS, bytes(range(52)))
STORAGE_VERSION = 1


def _encode(pile: list[int]) -> str:
    return bytes(pile).translate(_TO_LETTERS).decode("ascii")


def _decode(text: str) -> list[int]:
    return list(text.encode("ascii").translate(_FROM_LETTERS))


@cache
def _talon_tops(size: int, draw: int) -> int:
    """R20a: the waste sizes at which drawing through a talon of `size` cards shows its top
    cards (every `draw`-th card and the last), as a bit mask."""
    return sum(
        1 << drawn for drawn in {min(drawn, size) for drawn in range(draw, size + draw, draw)}
    )


def without_counts(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored game (`Game.to_dict`) without R20a's seen waste sizes and R20c's passes: a game
    begun before those rules counts them from its first load after them, so only the rest
    compares with a replay."""

    def cut(snapshot: str) -> str:
        return ";".join(snapshot.split(";")[:6])

    return {**stored, "state": cut(stored["state"]), "history": list(map(cut, stored["history"]))}


# Why a pile gives no cards: (English message, reason, params); the caller adds the rule.
_Why = tuple[str, str, Params]


def _illegal(message: str, rule: str, reason: str, **params: str | int) -> IllegalMove:
    return IllegalMove(message, rule, reason=reason, params=params)


def _top_only(pile: str) -> _Why:
    where = "a foundation" if pile.startswith("foundation") else f"the {pile}"
    return f"only {where}'s top card can move", "top_card_only", {"pile": pile}


def _rules(ruleset: object, draw: object) -> RuleSet:
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise InvalidAction(
            f"ruleset must be one of {', '.join(RULESETS)}; got {ruleset!r:.40}",
            reason="invalid_value", params={"field": "ruleset", "allowed": ", ".join(RULESETS)},
        )  # fmt: skip
    rules = RULESETS[ruleset]
    if type(draw) is not int or draw not in rules.draws:  # 3.0 and True are not draw modes
        allowed = " or ".join(map(str, rules.draws))
        raise InvalidAction(
            f"draw must be {allowed} in the {ruleset} rules; got {draw!r:.40}",
            reason="invalid_value", params={"field": "draw", "allowed": allowed},
        )  # fmt: skip
    return rules


class Game:
    """A game in progress or finished. `apply` checks and applies one action."""

    __slots__ = (
        "rules", "draw", "base", "stock", "waste", "reserve", "tableau", "found",
        "fan", "score", "scored", "moves", "n", "status", "history", "seen", "passes",
    )  # fmt: skip

    def __init__(self, rules: RuleSet, draw: int, base: int) -> None:
        self.rules = rules
        self.draw = draw
        self.base = base  # the base card (R6): its rank starts every foundation
        self.stock: list[int] = []  # top (next drawn) last
        self.waste: list[int] = []  # top last
        self.reserve: list[int] = []  # top last
        self.tableau: list[list[int]] = [[], [], [], []]
        self.found = [0, 0, 0, 0]  # cards on each suit's foundation, by suit index
        self.fan = 0  # cards of the latest draw still on the waste
        self.score = 0
        self.scored = 0  # bit per card that has reached a foundation (R22)
        self.moves = 0  # R25
        self.n = 0  # actions in the log
        self.status = "playing"
        self.history: list[str] = []  # undo snapshots, oldest first (R24)
        # R20a: bit per waste size the player has seen since the last action other than draw,
        # recycle, undo or a move from a foundation (so the talon has not changed since).
        self.seen = 0
        # R20c: whole passes through the talon since the last progress (a card reaching a
        # foundation, or leaving the reserve or the waste); -1 while the pass under way began
        # after that progress with the talon part drawn (it is not a whole pass).
        self.passes = 0

    # -- creating ---------------------------------------------------------------------------

    @classmethod
    def deal(cls, number: int, *, ruleset: str = "app", draw: int = 3, version: int = 1) -> Game:
        """The game for deal number `number` of format CF`version` (R4-R5, R4a)."""
        rules = _rules(ruleset, draw)
        DealCode(number, draw, version)  # validates the number
        return cls._dealt(shuffled_order(number, version), rules, draw)

    @classmethod
    def new(cls, deck: Sequence[str], *, ruleset: str = "app", draw: int = 3) -> Game:
        """The game dealt by R5 from `deck` = d[0..51], 52 distinct card names."""
        rules = _rules(ruleset, draw)
        if not isinstance(deck, list | tuple) or len(deck) != 52:
            raise InvalidDeck("deck must be a list of the 52 cards, each once", reason="deck_size")
        cards = []
        for i, name in enumerate(deck):
            try:
                cards.append(parse_card(name))
            except (KeyError, AttributeError, TypeError):
                raise InvalidDeck(
                    f"deck[{i}] is not a card: {name!r:.20}", reason="deck_card",
                    params={"index": i},
                ) from None  # fmt: skip
        if len(set(cards)) != 52:
            twice = sorted(NAMES[card] for card, n in Counter(cards).items() if n > 1)
            raise InvalidDeck(
                f"deck must hold each card once; repeated: {', '.join(twice)}",
                reason="deck_repeats", params={"cards": ", ".join(twice)},
            )  # fmt: skip
        return cls._dealt(cards, rules, draw)

    @classmethod
    def _dealt(cls, d: list[int], rules: RuleSet, draw: int) -> Game:
        game = cls(rules, draw, d[13])
        game.reserve = d[0:13]
        game.tableau = [[d[14]], [d[15]], [d[16]], [d[17]]]
        game.stock = d[51:17:-1]  # d[18] is drawn first
        game.found[d[13] // 13] = 1
        game.scored = 1 << d[13]  # the base card counts as placed and never scores
        return game

    # -- facts ------------------------------------------------------------------------------

    @property
    def start_rank(self) -> int:
        return self.base % 13

    @property
    def slot_suits(self) -> tuple[int, ...]:
        """R7: the base card's suit first, then the other suits in canonical order."""
        first = self.base // 13
        return (first, *(s for s in range(4) if s != first))

    @property
    def is_over(self) -> bool:
        return self.status != "playing"

    def foundation_top(self, suit: int) -> int | None:
        count = self.found[suit]
        return suit * 13 + (self.start_rank + count - 1) % 13 if count else None

    def foundation_next(self, suit: int) -> int | None:
        """The only card the suit's foundation takes now (R8), None once it is complete."""
        count = self.found[suit]
        return suit * 13 + (self.start_rank + count) % 13 if count < 13 else None

    @property
    def undo_available(self) -> int:
        return 0 if self.is_over else len(self.history)

    @property
    def stuck(self) -> bool:
        """R20a, to the letter: in progress, no action other than draw, recycle, undo and moves
        from a foundation is legal now, and since the last other action the player has drawn
        through the whole talon (every card that drawing can bring to the waste's top has been
        there). Decided from seen cards only. A talon card that would fit, drawn past without
        being played, does not count: the rule asks what is legal now."""
        if self.is_over:
            return False
        mask = _talon_tops(len(self.waste) + len(self.stock), self.draw)
        if self.seen & mask != mask:
            return False
        if any(self._fits(pile[-1]) for pile in (self.waste, self.reserve) if pile):
            return False  # cheap checks first: the rules' own check below is slow
        # `_fits` lets through every move the rules allow from the waste and the reserve: none
        # does, so the first legal move from a column decides. The rules' check runs only on
        # the column moves whose first card could go somewhere (a foundation's next card, or
        # onto a column's top; every move when a column is empty): a few of the hundred.
        sources = self._column_sources()
        if all(self.tableau):
            goes: set[int | None] = {c for column in self.tableau for c in FITTING[column[-1]]}
            goes.update(self.foundation_next(suit) for suit in range(4))
            sources = [(src, n) for src, n in sources if self.tableau[src - 3][-n] in goes]
        return next(self._legal_moves(sources), None) is None

    @property
    def no_progress(self) -> bool:
        """R20c: in progress, and two whole passes through the talon went by with no card
        reaching a foundation and none leaving the reserve or the waste."""
        return not self.is_over and self.passes >= 2

    def _fits(self, card: int) -> bool:
        """Whether `card`, on top of the waste or the reserve, could go to a foundation or a
        column."""
        if self.foundation_next(card // 13) == card:
            return True
        return any(
            fits_on(card, column[-1]) if column else not self.reserve for column in self.tableau
        )

    # -- checking ---------------------------------------------------------------------------

    def _moving(self, src: int, count: int) -> list[int] | _Why:
        """The cards a move of `count` from `src` takes, or why it takes none."""
        pile = PILE_NAMES[src]
        if src == WASTE:
            if not self.waste:
                return "the waste is empty", "pile_empty", {"pile": pile}
            return self.waste[-1:] if count == 1 else _top_only(pile)
        if src == RESERVE:
            if not self.reserve:
                return "the reserve is empty", "pile_empty", {"pile": pile}
            return self.reserve[-1:] if count == 1 else _top_only(pile)
        if src in TABLEAU:
            column = self.tableau[src - 3]
            if count > len(column):
                return (
                    f"{pile} holds {len(column)} card(s), not {count}",
                    "column_too_short",
                    {"pile": pile, "holds": len(column), "count": count},
                )
            return column[-count:]
        if src in FOUNDATION:
            top = self.foundation_top(src - 7)
            if top is None:
                return (
                    f"the {SUIT_WORDS[src - 7]} foundation is empty",
                    "pile_empty",
                    {"pile": pile},
                )
            return [top] if count == 1 else _top_only(pile)
        return "cards leave the stock only by drawing", "stock_draws_only", {}

    def _problem(self, src: int, dst: int, count: int) -> IllegalMove | None:
        """Why moving `count` cards from `src` to `dst` is illegal (the error, not raised); None
        if legal."""
        if src == STOCK:
            return _illegal("cards leave the stock only by drawing", "R17", "stock_draws_only")
        moving = self._moving(src, count)
        if not isinstance(moving, list):
            rule = {WASTE: "R17", RESERVE: "R16"}.get(src, "R10" if src in FOUNDATION else "R13")
            message, reason, params = moving
            return _illegal(message, rule, reason, **params)
        head = moving[0]
        card = NAMES[head]
        if dst == src or (dst == ANY_FOUNDATION and src in FOUNDATION):
            return _illegal("a card cannot move onto its own pile", "R9", "same_pile")
        if dst in (STOCK, WASTE):
            return _illegal(
                f"nothing is placed on the {PILE_NAMES[dst]}", "R17", "takes_nothing",
                pile=PILE_NAMES[dst],
            )  # fmt: skip
        if dst == RESERVE:
            return _illegal(
                "nothing is ever placed on the reserve", "R16", "takes_nothing", pile="reserve"
            )
        if src in FOUNDATION:
            if not self.rules.foundation_to_tableau:
                return _illegal(
                    "cards never leave a foundation in the classic rules", "R10",
                    "foundation_keeps_cards",
                )  # fmt: skip
            if dst not in TABLEAU:
                return _illegal(
                    "a foundation's top card can only go back to a column", "R10",
                    "foundation_to_column_only",
                )  # fmt: skip
        if dst in FOUNDATION or dst == ANY_FOUNDATION:
            if count != 1:
                return _illegal(
                    "only single cards go to a foundation", "R9", "one_card_to_foundation",
                    count=count,
                )  # fmt: skip
            suit = head // 13
            if dst != ANY_FOUNDATION and dst - 7 != suit:
                return _illegal(
                    f"{card} cannot go on the {SUIT_WORDS[dst - 7]} foundation: "
                    "each foundation holds one suit",
                    "R7", "wrong_suit", card=card, foundation=PILE_NAMES[dst],
                )  # fmt: skip
            foundation = PILE_NAMES[FOUNDATION[suit]]
            wanted = self.foundation_next(suit)
            if wanted == head:
                return None
            if wanted is None:
                return _illegal(
                    f"the {SUIT_WORDS[suit]} foundation is complete", "R8",
                    "foundation_complete", card=card, foundation=foundation,
                )  # fmt: skip
            top = self.foundation_top(suit)
            if top is None:
                return _illegal(
                    f"{card} cannot start the {SUIT_WORDS[suit]} foundation: "
                    f"it starts with {NAMES[wanted]} (starting rank {RANKS[self.start_rank]})",
                    "R8", "foundation_start", card=card, foundation=foundation,
                    next=NAMES[wanted],
                )  # fmt: skip
            return _illegal(
                f"{card} cannot go on {NAMES[top]}: next is {NAMES[wanted]}", "R8",
                "foundation_next", card=card, onto=NAMES[top], next=NAMES[wanted],
            )  # fmt: skip
        # dst is a column
        if src in TABLEAU:
            problem = self._tail_problem(moving)
            if problem is not None:
                return problem
            if not self.rules.any_tail and count != len(self.tableau[src - 3]):
                return _illegal(
                    "only a whole column moves in the classic rules", "R13", "whole_column_only"
                )
        column = self.tableau[dst - 3]
        if not column:
            if self.reserve:
                return _illegal(
                    "an empty column is filled from the reserve", "R14", "filled_from_reserve"
                )
            if not self.rules.empty_takes_any and src != WASTE:
                return _illegal(
                    "an empty column takes only the waste's top card in the classic rules",
                    "R15", "empty_column_waste_only",
                )  # fmt: skip
            return None
        below = column[-1]
        if fits_on(head, below):
            return None
        if (head // 13 - below // 13) % 2 == 0:
            return _illegal(
                f"{card} cannot go on {NAMES[below]}: same colour", "R12", "same_colour",
                card=card, onto=NAMES[below],
            )  # fmt: skip
        return _illegal(
            f"{card} cannot go on {NAMES[below]}: it must be one rank lower", "R12",
            "not_one_lower", card=card, onto=NAMES[below],
        )  # fmt: skip

    @staticmethod
    def _tail_problem(cards: list[int]) -> IllegalMove | None:
        """R13: each card one rank lower than, and of the other colour from, the one above."""
        for upper, lower in zip(cards, cards[1:], strict=False):
            if not fits_on(lower, upper):
                return _illegal(
                    f"{NAMES[lower]} does not follow {NAMES[upper]}: only a valid sequence "
                    "moves as a unit",
                    "R13", "not_a_sequence", card=NAMES[lower], onto=NAMES[upper],
                )  # fmt: skip
        return None

    def _check(self, src: int, dst: int, count: int) -> None:
        problem = self._problem(src, dst, count)
        if problem is not None:
            raise problem

    # -- applying ---------------------------------------------------------------------------

    def apply(self, action: Action) -> ActionResult:
        """Check and apply one action. Raises an EngineError and changes nothing if illegal."""
        if self.status != "playing":
            raise GameOver(f"the game is over ({self.status})", params={"status": self.status})
        kind = action.type
        if kind in ("move", "tap") and not (
            action.src in PILES
            and (kind == "tap" or action.dst in PILES)
            and 1 <= action.count <= MAX_COUNT
        ):
            raise InvalidAction(
                f"malformed {kind}: use Action.from_dict to parse API input",
                reason="invalid_value", params={"field": "type"},
            )  # fmt: skip
        if kind == "move":
            src, dst = PILES[action.src or ""], PILES[action.dst or ""]
            self._check(src, dst, action.count)
            return self._move(src, dst, action.count)
        if kind == "tap":
            src = PILES[action.src or ""]
            dst = self._tap_target(src, action.count, action.columns)
            return self._move(src, dst, action.count)
        if kind == "draw":
            return self._draw()
        if kind == "recycle":
            return self._recycle()
        if kind == "undo":
            return self._undo()
        if kind == "finish":
            return self._finish()
        if kind == "resign":
            self.n += 1
            self.status = "resigned"
            return ActionResult(self.n, "resign")
        raise InvalidAction(
            f"unknown action type {kind!r:.40}", reason="invalid_value", params={"field": "type"}
        )

    def _remember(self) -> None:
        """Push the state before an undoable action (R24)."""
        self.history.append(self._snapshot(self.n + 1))
        limit = self.rules.undo_limit
        if limit is not None and len(self.history) > limit:
            del self.history[0]

    def _move(self, src: int, dst: int, count: int) -> ActionResult:
        moving = self._moving(src, count)
        assert isinstance(moving, list)
        self._remember()
        if src == WASTE:
            self.waste.pop()
            self.fan = max(0, self.fan - 1)
        elif src == RESERVE:
            self.reserve.pop()
        elif src in FOUNDATION:
            self.found[src - 7] -= 1
        else:
            del self.tableau[src - 3][-count:]
        delta = 0
        if dst in TABLEAU:
            self.tableau[dst - 3].extend(moving)
        else:
            dst = FOUNDATION[moving[0] // 13]
            delta = self._to_foundation(moving[0])
        auto_fill = None
        if src in TABLEAU and not self.tableau[src - 3] and self.reserve:  # R14
            card = self.reserve.pop()
            self.tableau[src - 3].append(card)
            auto_fill = NAMES[card]
        if src not in FOUNDATION:
            self.seen = 1 << len(self.waste)  # R20a: the talon may have changed
        if src in (RESERVE, WASTE) or dst in FOUNDATION or auto_fill is not None:
            self._progressed()
        self.moves += 1
        self.n += 1
        result = ActionResult(
            self.n, "move", PILE_NAMES[src], PILE_NAMES[dst], count,
            [NAMES[c] for c in moving], delta, auto_fill,
        )  # fmt: skip
        if self.rules.auto_finish and not (self.stock or self.waste or self.reserve):
            before = self.score
            result.auto_finish = self._auto_finish()
            result.score_delta += self.score - before
        if sum(self.found) == 52:
            self.status = "won"
        return result

    def _progressed(self) -> None:
        """R20c: a card reached a foundation or left the reserve or the waste. The pass under
        way counts as whole only if it starts now: the waste is empty (drawing goes through
        the whole talon from here) or the stock is (the next recycle starts one)."""
        self.passes = 0 if not (self.waste and self.stock) else -1

    def _to_foundation(self, card: int) -> int:
        """Place `card` on its foundation; the points it earns (R22: once per card per game)."""
        self.found[card // 13] += 1
        bit = 1 << card
        if self.scored & bit:
            return 0
        self.scored |= bit
        self.score += POINTS
        return POINTS

    def _auto_finish(self) -> list[str]:
        """`cardgames`: once only columns hold cards and all of them can be played up, play them."""
        found = self.found[:]
        columns = [column[:] for column in self.tableau]
        progress = True
        while progress:
            progress = False
            for column in columns:
                while column and self._next_with(found, column[-1]):
                    found[column[-1] // 13] += 1
                    column.pop()
                    progress = True
        if any(columns):
            return []
        played = []
        while any(self.tableau):
            for column in self.tableau:
                if column and self.foundation_next(column[-1] // 13) == column[-1]:
                    card = column.pop()
                    self._to_foundation(card)
                    played.append(NAMES[card])
        return played

    def _next_with(self, found: list[int], card: int) -> bool:
        suit = card // 13
        return found[suit] < 13 and card == suit * 13 + (self.start_rank + found[suit]) % 13

    def _finishing(self) -> list[int] | _Why:
        """R20b: the piles (waste, reserve, columns) whose top cards go home one after another,
        in that order, until every card out of the foundations is home; or why not. A sweep
        takes at most one card from each pile, as the table's Finish button shows it."""
        visible_waste = max(self.fan, 1)  # the fan, or the waste's top alone (public_view)
        if self.stock or len(self.reserve) > 1 or len(self.waste) > visible_waste:
            return (
                "cards are still hidden: finish once the stock is empty and every card is face up",
                "finish_hidden",
                {},
            )
        found = self.found[:]
        piles = [self.waste[:], self.reserve[:], *(column[:] for column in self.tableau)]
        order: list[int] = []
        progress = True
        while progress:
            progress = False
            for index, pile in enumerate(piles):
                if pile and self._next_with(found, pile[-1]):
                    found[pile.pop() // 13] += 1
                    order.append(index)
                    progress = True
        if any(piles):
            return "not every card left can go home one after another", "finish_blocked", {}
        return order

    def _finish(self) -> ActionResult:
        """R20b: every card left goes home as one action, counted as the moves it makes."""
        order = self._finishing()
        if not isinstance(order, list):
            message, reason, params = order
            raise CannotFinish(message, "R20b", reason=reason, params=params)
        self._remember()
        before = self.score
        piles = [self.waste, self.reserve, *self.tableau]
        cards = [piles[index].pop() for index in order]
        for card in cards:
            self._to_foundation(card)
        self.fan = 0
        self.seen = 1 << len(self.waste)
        self._progressed()
        self.moves += len(cards)  # R25: the moves it makes
        self.n += 1
        self.status = "won"  # every card is home
        names = [NAMES[card] for card in cards]
        return ActionResult(
            self.n, "finish", count=len(cards), cards=names, score_delta=self.score - before
        )

    def _tap_target(self, src: int, count: int, columns: bool) -> int:
        """R27: the foundation if the single card fits, else the longest accepting column."""
        if src in FOUNDATION:
            raise NoDestination(
                "a foundation card cannot be tapped", "R27", reason="foundation_tap"
            )
        if src == STOCK:
            raise _illegal(
                "tap the waste, the reserve or a column card, not the stock", "R27", "stock_tap"
            )
        moving = self._moving(src, count)
        if not isinstance(moving, list):
            message, reason, params = moving
            raise _illegal(message, "R27", reason, **params)
        problem = self._tail_problem(moving)
        if problem is not None:
            raise problem
        if count == 1 and self._problem(src, ANY_FOUNDATION, 1) is None:
            return ANY_FOUNDATION
        if columns:
            fitting = [d for d in TABLEAU if d != src and self._problem(src, d, count) is None]
            filled = [d for d in fitting if self.tableau[d - 3]]
            if filled:
                return max(filled, key=lambda d: (len(self.tableau[d - 3]), -d))
            if fitting:
                return fitting[0]
        card = NAMES[moving[0]]
        raise NoDestination(f"{card} has nowhere to go", "R27", params={"card": card})

    def _draw(self) -> ActionResult:
        if not self.stock:
            raise _illegal("the stock is empty: recycle the waste", "R18", "stock_empty")
        self._remember()
        drawn = [self.stock.pop() for _ in range(min(self.draw, len(self.stock)))]
        self.waste.extend(drawn)
        self.fan = len(drawn)
        self.seen |= 1 << len(self.waste)
        if not self.stock:
            self.passes += 1  # R20c: drawn to the end of the talon
        self.moves += 1
        self.n += 1
        return ActionResult(self.n, "draw", "stock", "waste", len(drawn), [NAMES[c] for c in drawn])

    def _recycle(self) -> ActionResult:
        if self.stock:
            raise _illegal("recycle only when the stock is empty", "R18", "stock_not_empty")
        if not self.waste:
            raise _illegal("the waste is empty: nothing to recycle", "R18", "nothing_to_recycle")
        self._remember()
        self.stock = self.waste[::-1]
        self.waste = []
        self.fan = 0
        self.moves += 1
        self.n += 1
        return ActionResult(self.n, "recycle", "waste", "stock", len(self.stock))

    def _undo(self) -> ActionResult:
        if not self.history:
            raise _illegal("nothing to undo", "R24", "nothing_to_undo")
        before = self.score
        undone = self._restore(self.history.pop())
        self.moves += 1
        self.n += 1
        return ActionResult(self.n, "undo", score_delta=self.score - before, undoes=undone)

    # -- storing ----------------------------------------------------------------------------

    def _snapshot(self, n: int) -> str:
        """Everything undo restores, tagged with the number of the action it precedes."""
        piles = ",".join(
            _encode(pile) for pile in (self.stock, self.waste, self.reserve, *self.tableau)
        )
        found = "".join(chr(97 + count) for count in self.found)
        counts = f"{self.seen:x};{self.passes}"
        return f"{n};{self.fan};{self.score};{self.scored:x};{found};{piles};{counts}"

    def _restore(self, snapshot: str) -> int:
        n, fan, score, scored, found, piles, *counts = snapshot.split(";")
        self.fan, self.score, self.scored = int(fan), int(score), int(scored, 16)
        self.seen = int(counts[0], 16) if counts else 0  # stored before R20a: not drawn through
        # Stored before R20c: the pass under way may have begun part drawn, so it is not whole.
        self.passes = int(counts[1]) if len(counts) > 1 else -1
        self.found = [ord(char) - 97 for char in found]
        stock, waste, reserve, *tableau = (_decode(pile) for pile in piles.split(","))
        self.stock, self.waste, self.reserve, self.tableau = stock, waste, reserve, tableau
        return int(n)

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-able form; `Game.from_dict` restores it, undo history included."""
        return {
            "v": STORAGE_VERSION,
            "ruleset": self.rules.name,
            "draw": self.draw,
            "base": NAMES[self.base],
            "moves": self.moves,
            "status": self.status,
            "state": self._snapshot(self.n),
            "history": self.history[:],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        if data.get("v") != STORAGE_VERSION:
            raise ValueError(f"unknown storage version {data.get('v')!r}")
        game = cls(RULESETS[data["ruleset"]], data["draw"], parse_card(data["base"]))
        game.n = game._restore(data["state"])
        game.moves = data["moves"]
        game.status = data["status"]
        game.history = list(data["history"])
        return game

    # -- views ------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        """The engine's GAME fields of docs/api.md; nothing hidden by R19 (stock, reserve below
        its top)."""
        if self.fan:
            fan = [NAMES[c] for c in self.waste[-self.fan :]]
        else:
            fan = [NAMES[self.waste[-1]]] if self.waste else []
        return {
            "ruleset": self.rules.name,
            "draw": self.draw,
            "status": self.status,
            "score": self.score,
            "moves": self.moves,
            "starting_rank": RANKS[self.start_rank],
            "stock": {"count": len(self.stock)},
            "waste": {"count": len(self.waste), "fan": fan},
            "reserve": {
                "count": len(self.reserve),
                "top": NAMES[self.reserve[-1]] if self.reserve else None,
            },
            "foundations": [
                {"suit": SUITS[suit], "count": self.found[suit], "top": self._top_name(suit)}
                for suit in self.slot_suits
            ],
            "tableau": [[NAMES[c] for c in column] for column in self.tableau],
            "undo_available": self.undo_available,
            "stuck": self.stuck,
            "no_progress": self.no_progress,
        }

    def _top_name(self, suit: int) -> str | None:
        top = self.foundation_top(suit)
        return None if top is None else NAMES[top]

    def _column_sources(self) -> list[tuple[int, int]]:
        """Every (column, count) a move may take cards from."""
        return [
            (src, count)
            for src, column in zip(TABLEAU, self.tableau, strict=True)
            for count in range(1, len(column) + 1)
        ]

    def _legal_moves(self, sources: list[tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
        """Each legal move from `sources` as (from, to, count), `to` a concrete pile; lazily,
        so that `stuck` stops at the first."""
        for src, count in sources:
            moving = self._moving(src, count)
            if not isinstance(moving, list):
                continue
            for dst in (ANY_FOUNDATION, *TABLEAU):
                if self._problem(src, dst, count) is None:
                    yield src, FOUNDATION[moving[0] // 13] if dst == ANY_FOUNDATION else dst, count

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal action now: each move with concrete piles and count, then finish (R20b),
        then draw or recycle, then undo. Empty once the game is over."""
        if self.is_over:
            return []
        sources = [(WASTE, 1), (RESERVE, 1), *self._column_sources()]
        if self.rules.foundation_to_tableau:
            sources.extend((src, 1) for src in FOUNDATION)
        legal: list[dict[str, Any]] = [
            {"type": "move", "from": PILE_NAMES[src], "to": PILE_NAMES[to], "count": count}
            for src, to, count in self._legal_moves(sources)
        ]
        if isinstance(self._finishing(), list):
            legal.append({"type": "finish"})
        if self.stock:
            legal.append({"type": "draw"})
        elif self.waste:
            legal.append({"type": "recycle"})
        if self.history:
            legal.append({"type": "undo"})
        return legal
