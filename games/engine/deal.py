"""Deal codes and the portable shuffle (R3-R4).

>>> code = DealCode.parse("cf1-d3-aaaaacl")
>>> code.number, code.draw, str(code)
(75, 3, 'CF1-D3-AAAAACL')
>>> shuffled_deck(0)[:3]
['8C', 'JD', '9H']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.engine.cards import NAMES
from games.engine.errors import InvalidCode

MASK64 = (1 << 64) - 1
DEAL_NUMBERS = 1 << 35
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_CODE = re.compile(r"CF1-D([13])-([A-Z2-7]{7})")


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An unbiased integer in [0, n): rejection sampling on 2^64 - (2^64 mod n)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled_order(number: int) -> list[int]:
    """d[0..51] as card ints for deal number `number` (Fisher-Yates, i = 51 down to 1)."""
    rng = SplitMix64(number)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(number: int) -> list[str]:
    """d[0..51] as card names for deal number `number`."""
    return [NAMES[card] for card in shuffled_order(number)]


@dataclass(frozen=True, slots=True)
class DealCode:
    """A `CF1-D<draw>-<7 base-32 chars>` deal code (R3)."""

    number: int
    draw: int = 3

    def __post_init__(self) -> None:
        if type(self.number) is not int or not 0 <= self.number < DEAL_NUMBERS:
            raise InvalidCode(f"deal number must be in 0..2^35-1, got {self.number}", "R3")
        if self.draw not in (1, 3):
            raise InvalidCode(f"draw must be 1 or 3, got {self.draw}", "R3")

    @classmethod
    def parse(cls, text: object) -> DealCode:
        if not isinstance(text, str):
            raise InvalidCode("a deal code must be a string like CF1-D3-AAAAACL", "R3")
        match = _CODE.fullmatch(text.upper())
        if match is None:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise InvalidCode(
                f"{shown!r} is not a deal code: expected CF1-D3- or CF1-D1- then 7 characters "
                "of A-Z and 2-7, like CF1-D3-AAAAACL",
                "R3",
            )
        number = 0
        for char in match.group(2):
            number = number * 32 + BASE32.index(char)
        return cls(number, int(match.group(1)))

    def __str__(self) -> str:
        chars = []
        number = self.number
        for _ in range(7):
            chars.append(BASE32[number % 32])
            number //= 32
        return f"CF1-D{self.draw}-{''.join(reversed(chars))}"
