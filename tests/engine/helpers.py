"""Positions for engine tests: custom decks (public path) and arranged mid-game tables."""

from __future__ import annotations

from games.engine import Game
from games.engine.cards import NAMES, parse_card


def seed_deck(
    reserve_top: list[str], base: str, columns: list[str], stock: list[str] = ()
) -> list[str]:
    """d[0..51] whose reserve ends (top last) with `reserve_top`, whose stock draws `stock`
    first; every other card fills the rest of the reserve (below) and of the stock (after)."""
    named = [*reserve_top, base, *columns, *stock]
    assert len(set(named)) == len(named)
    rest = [name for name in NAMES if name not in named]
    below = 13 - len(reserve_top)
    return [*rest[:below], *reserve_top, base, *columns, *stock, *rest[below:]]


def arrange(
    *,
    base: str = "7H",
    found: dict[str, int] | None = None,
    tableau: list[list[str]] = ([], [], [], []),
    reserve: list[str] = (),
    waste: list[str] = (),
    stock: list[str] = (),
    rest: str = "stock",
    ruleset: str = "app",
    draw: int = 3,
    fan: int = 0,
) -> Game:
    """A game mid-play: piles are listed bottom to top (stock: first drawn first); foundation
    suits hold `found[suit]` cards from the starting rank up; unnamed cards go under `rest`.
    Foundation cards count as already scored (R22)."""
    game = Game.deal(0, ruleset=ruleset, draw=draw)
    game.base = parse_card(base)
    counts = {"H": 0, "S": 0, "D": 0, "C": 0, **(found or {})}
    counts[base[-1]] = max(counts[base[-1]], 1)
    on_foundations = {
        suit * 13 + (game.base % 13 + i) % 13
        for suit, letter in enumerate("HSDC")
        for i in range(counts[letter])
    }
    piles = {
        "stock": [parse_card(c) for c in stock],
        "waste": [parse_card(c) for c in waste],
        "reserve": [parse_card(c) for c in reserve],
    }
    columns = [[parse_card(c) for c in column] for column in tableau]
    placed = [*piles["stock"], *piles["waste"], *piles["reserve"], *sum(columns, [])]
    assert len(set(placed)) == len(placed), "a card is named twice"
    assert not on_foundations & set(placed), "a named card is on a foundation"
    leftover = [c for c in range(52) if c not in on_foundations and c not in placed]
    piles[rest] = (leftover + piles[rest]) if rest != "stock" else piles[rest] + leftover
    game.stock = piles["stock"][::-1]
    game.waste = piles["waste"]
    game.reserve = piles["reserve"]
    game.tableau = columns
    game.found = [counts[letter] for letter in "HSDC"]
    game.scored = sum(1 << card for card in on_foundations)
    game.score = 5 * (len(on_foundations) - 1)
    game.fan = fan
    return game


def all_cards(game: Game) -> list[int]:
    """Every card on the table, foundations included."""
    found = [
        suit * 13 + (game.start_rank + i) % 13 for suit in range(4) for i in range(game.found[suit])
    ]
    return [*game.stock, *game.waste, *game.reserve, *sum(game.tableau, []), *found]


def core(game: Game) -> tuple[object, ...]:
    """Everything undo restores (R24): cards, fan, score and which cards have scored."""
    return (
        game.stock[:], game.waste[:], game.reserve[:], [c[:] for c in game.tableau],
        game.found[:], game.fan, game.score, game.scored,
    )  # fmt: skip


def names(cards: list[int]) -> list[str]:
    return [NAMES[c] for c in cards]
