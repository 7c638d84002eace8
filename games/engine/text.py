"""R28: the game in words, for screen readers and logs, in Hungarian, English and Polish.

The Hungarian form is seed 000's, character for character. Forms the seed does not show,
decided here: a waste with cards `dobópakli: N lap, felül: <card>`; an empty stock
`Húzópakli üres`; an empty reserve `tartalék üres`; an empty column `N. oszlop: üres`; a
foundation with n cards up to card X `<suit> a <X>ig (n)`, the rank taking the suffix as
Hungarian does (`kőr a kőr 7-ig`, `ászig`, `bubiig`, `dámáig`, `királyig`, R28); the starting
rank by its name (`kezdő rang 7`, `kezdő rang dáma`). English and Polish follow the same
structure; Polish names the card after `do` in the genitive (`do króla kier`, `do damy`).

    >>> from games.engine.game import Game
    >>> describe(Game.deal(0), "en")[:60]
    'Stock: 34 cards; waste empty; reserve: 13 cards, top: 9 of d'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.game import Game

LANGUAGES = ("hu", "en", "pl")


@dataclass(frozen=True)
class _Words:
    suits: tuple[str, str, str, str]
    ranks: tuple[str, ...]
    ranks_up_to: tuple[str, ...]  # a rank as the foundation's "up to <card>" needs it
    card: Callable[[str, str], str]  # (suit word, rank word) -> card words
    cards: Callable[[int], str]  # a count of cards
    stock: str  # "{n}" or "empty"
    stock_empty: str
    waste: str
    waste_empty: str
    reserve: str
    reserve_empty: str
    foundations: str
    foundation: str  # {suit} {card} {n}
    foundation_empty: str
    column: str  # {i} {cards}
    column_empty: str


def _plural_pl(n: int) -> str:
    if n == 1:
        return "1 karta"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} karty"
    return f"{n} kart"


_NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")

WORDS = {
    "hu": _Words(
        suits=("kőr", "pikk", "káró", "treff"),
        ranks=("ász", *_NUMBERS, "bubi", "dáma", "király"),
        ranks_up_to=("ászig", *(f"{n}-ig" for n in _NUMBERS), "bubiig", "dámáig", "királyig"),
        card=lambda suit, rank: f"{suit} {rank}",
        cards=lambda n: f"{n} lap",
        stock="Húzópakli: {n}",
        stock_empty="Húzópakli üres",
        waste="dobópakli: {n}, felül: {top}",
        waste_empty="dobópakli üres",
        reserve="tartalék: {n}, felül: {top}",
        reserve_empty="tartalék üres",
        foundations="Alapok, kezdő rang {rank}: ",
        foundation="{suit} a {card} ({n})",
        foundation_empty="{suit} üres",
        column="{i}. oszlop: {cards}",
        column_empty="{i}. oszlop: üres",
    ),
    "en": _Words(
        suits=("hearts", "spades", "diamonds", "clubs"),
        ranks=("ace", *_NUMBERS, "jack", "queen", "king"),
        ranks_up_to=("ace", *_NUMBERS, "jack", "queen", "king"),
        card=lambda suit, rank: f"{rank} of {suit}",
        cards=lambda n: "1 card" if n == 1 else f"{n} cards",
        stock="Stock: {n}",
        stock_empty="Stock empty",
        waste="waste: {n}, top: {top}",
        waste_empty="waste empty",
        reserve="reserve: {n}, top: {top}",
        reserve_empty="reserve empty",
        foundations="Foundations, starting rank {rank}: ",
        foundation="{suit} up to {card} ({n})",
        foundation_empty="{suit} empty",
        column="column {i}: {cards}",
        column_empty="column {i}: empty",
    ),
    "pl": _Words(
        suits=("kier", "pik", "karo", "trefl"),
        ranks=("as", *_NUMBERS, "walet", "dama", "król"),
        ranks_up_to=("asa", *_NUMBERS, "waleta", "damy", "króla"),
        card=lambda suit, rank: f"{rank} {suit}",
        cards=_plural_pl,
        stock="Zapas: {n}",
        stock_empty="Zapas pusty",
        waste="odrzuty: {n}, na wierzchu: {top}",
        waste_empty="odrzuty puste",
        reserve="rezerwa: {n}, na wierzchu: {top}",
        reserve_empty="rezerwa pusta",
        foundations="Bazy, ranga początkowa {rank}: ",
        foundation="{suit} do {card} ({n})",
        foundation_empty="{suit} pusta",
        column="kolumna {i}: {cards}",
        column_empty="kolumna {i}: pusta",
    ),
}


_SUITS = "HSDC"
_RANKS = ("A", *_NUMBERS[:-1], "10", "J", "Q", "K")


def card_words(name: str, lang: str = "hu") -> str:
    """A card of the API (`10H`, `QS`) in words, as the description names it: the one name the
    server's messages and the pages use for it (KeyError/ValueError for no such card).

    >>> card_words("10C", "hu"), card_words("QS", "en"), card_words("AH", "pl")
    ('treff 10', 'queen of spades', 'as kier')
    """
    w = WORDS[lang]
    return w.card(w.suits[_SUITS.index(name[-1])], w.ranks[_RANKS.index(name[:-1])])


def describe(game: Game, lang: str = "hu") -> str:
    """The whole visible table in one paragraph (R28); ValueError for an unknown language."""
    if lang not in WORDS:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}; got {lang!r:.20}")
    w = WORDS[lang]

    def card(c: int) -> str:
        return w.card(w.suits[c // 13], w.ranks[c % 13])

    parts = [
        w.stock.format(n=w.cards(len(game.stock))) if game.stock else w.stock_empty,
        w.waste.format(n=w.cards(len(game.waste)), top=card(game.waste[-1]))
        if game.waste
        else w.waste_empty,
        w.reserve.format(n=w.cards(len(game.reserve)), top=card(game.reserve[-1]))
        if game.reserve
        else w.reserve_empty,
    ]
    foundations = []
    for suit in game.slot_suits:
        top = game.foundation_top(suit)
        if top is None:
            foundations.append(w.foundation_empty.format(suit=w.suits[suit]))
        else:
            up_to = w.card(w.suits[suit], w.ranks_up_to[top % 13])
            foundations.append(
                w.foundation.format(suit=w.suits[suit], card=up_to, n=game.found[suit])
            )
    columns = [
        w.column.format(i=i, cards=", ".join(card(c) for c in column))
        if column
        else w.column_empty.format(i=i)
        for i, column in enumerate(game.tableau, start=1)
    ]
    head = w.foundations.format(rank=w.ranks[game.start_rank])
    sentences = ("; ".join(parts), head + ", ".join(foundations), "; ".join(columns))
    return " ".join(sentence[0].upper() + sentence[1:] + "." for sentence in sentences)
