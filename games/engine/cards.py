"""Cards (R1-R2): a card is an int 0..51, index in the ordered deck H, S, D, C x A..K.

>>> NAMES[0], NAMES[12], NAMES[13], NAMES[51]
('AH', 'KH', 'AS', 'KC')
>>> parse_card("10h")
9
"""

from __future__ import annotations

SUITS = "HSDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
NAMES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
_BY_NAME = {name: card for card, name in enumerate(NAMES)}


def parse_card(text: str) -> int:
    """The card for `text` (rank then suit, case-insensitive); KeyError if it is not one."""
    return _BY_NAME[text.upper()]


def is_red(card: int) -> bool:
    """Hearts (0) and diamonds (2) are red."""
    return card // 13 % 2 == 0


def fits_on(card: int, below: int) -> bool:
    """R12: `card` goes on `below` if one rank lower (K on A wraps) and of the other colour."""
    return (below % 13 - card % 13) % 13 == 1 and (card // 13 - below // 13) % 2 == 1


# The cards that go on each card by R12 (`fits_on`), two each: FITTING[below].
FITTING: tuple[tuple[int, ...], ...] = tuple(
    tuple(card for card in range(52) if fits_on(card, below)) for below in range(52)
)
