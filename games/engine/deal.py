"""Deal codes and the portable shuffles (R3-R4a).

>>> code = DealCode.parse("cf1-d3-aaaaacl")
>>> code.number, code.draw, code.version, str(code)
(75, 3, 1, 'CF1-D3-AAAAACL')
>>> shuffled_deck(0)[:3]
['8C', 'JD', '9H']
>>> DealCode.parse("CF2-D1-AAAAAAAAAAAAAAAAAAAAAAAAAB").number
1
>>> shuffled_deck(0, version=2)[:3]
['QS', '9D', '6S']
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from games.engine.cards import NAMES
from games.engine.errors import InvalidCode

MASK64 = (1 << 64) - 1
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
# Per deal format (CF1, CF2): how many base-32 characters a code has, and the rule it follows.
LENGTHS = {1: 7, 2: 26}
RULE = {1: "R3", 2: "R4a"}
# How many deal numbers each format has: CF1 2^35 (exactly 7 characters), CF2 2^128.
DEAL_NUMBERS = {1: 1 << 35, 2: 1 << 128}
EXAMPLE = {1: "CF1-D3-AAAAACL", 2: "CF2-D3-ABENCWPCNLZXXQCI2FM6E2XTPP"}
_CODE = re.compile(r"CF([12])-D([13])-(.*)", re.DOTALL)


class SplitMix64:
    """CF1's PRNG (R4 step 2)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def sha256_words(number: int) -> Iterator[int]:
    """CF2's PRNG (R4a): the 64-bit big-endian words of SHA-256(N as 16 bytes, i as 8 bytes)
    for i = 0, 1, 2, ..., four words per block."""
    seed = number.to_bytes(16, "big")
    block = 0
    while True:
        digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
        for start in range(0, 32, 8):
            yield int.from_bytes(digest[start : start + 8], "big")
        block += 1


def _below(words: Callable[[], int], n: int) -> int:
    """An unbiased integer in [0, n): rejection sampling on 2^64 - (2^64 mod n) (R4 step 3)."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        x = words()
        if x < limit:
            return x % n


def shuffled_order(number: int, version: int = 1) -> list[int]:
    """d[0..51] as card ints for deal number `number` of format CF`version` (Fisher-Yates,
    i = 51 down to 1). The number must be in range: DealCode checks it."""
    words = SplitMix64(number).next if version == 1 else sha256_words(number).__next__
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = _below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(number: int, version: int = 1) -> list[str]:
    """d[0..51] as card names for deal number `number` of format CF`version`."""
    return [NAMES[card] for card in shuffled_order(number, version)]


@dataclass(frozen=True, slots=True)
class DealCode:
    """A deal code: `CF1-D<draw>-` and 7 base-32 characters (R3), or `CF2-D<draw>-` and 26
    (R4a, for deals whose cards must stay secret: the daily challenges, random games)."""

    number: int
    draw: int = 3
    version: int = 1

    def __post_init__(self) -> None:
        if self.version not in DEAL_NUMBERS:
            raise InvalidCode(f"deal format must be CF1 or CF2, got CF{self.version}", "R4a")
        rule, size = RULE[self.version], DEAL_NUMBERS[self.version]
        if type(self.number) is not int or not 0 <= self.number < size:
            raise InvalidCode(
                f"a CF{self.version} deal number must be in 0..2^{size.bit_length() - 1}-1, "
                f"got {self.number}",
                rule,
            )
        if self.draw not in (1, 3):
            raise InvalidCode(f"draw must be 1 or 3, got {self.draw}", rule)

    @classmethod
    def parse(cls, text: object) -> DealCode:
        """The code `text` stands for, case-insensitive; InvalidCode with the reason if none."""
        if not isinstance(text, str):
            raise InvalidCode(f"a deal code must be a string like {EXAMPLE[1]}", "R3")
        shown = repr(text if len(text) <= 40 else text[:40] + "...")
        match = _CODE.fullmatch(text.upper())
        if match is None:
            raise InvalidCode(
                f"{shown} is not a deal code: expected CF1-D3- or CF1-D1- then 7 characters "
                "of A-Z and 2-7, like CF1-D3-AAAAACL, or CF2-D3- or CF2-D1- then 26",
                "R3",
            )
        version, draw, digits = int(match.group(1)), int(match.group(2)), match.group(3)
        rule, length, like = RULE[version], LENGTHS[version], f"like {EXAMPLE[version]}"
        wrong = sorted({char for char in digits if char not in BASE32})
        if wrong:
            listed = ", ".join(repr(char) for char in wrong[:5])
            raise InvalidCode(
                f"{shown} is not a deal code: {listed} not in the code alphabet A-Z, 2-7 ({like})",
                rule,
                reason="code_characters",
                params={"characters": listed},
            )
        if len(digits) != length:
            raise InvalidCode(
                f"{shown} is not a deal code: a CF{version} code has {length} characters after "
                f"CF{version}-D{draw}-, not {len(digits)} ({like})",
                rule,
                reason="code_length",
                params={"format": f"CF{version}", "length": length, "got": len(digits)},
            )
        number = 0
        for char in digits:
            number = number * 32 + BASE32.index(char)
        if number >= DEAL_NUMBERS[version]:
            raise InvalidCode(
                f"{shown} is not a deal code: a CF2 code starts with A-H after CF2-D{draw}- "
                f"(its number is below 2^128), {like}",
                rule,
                reason="code_range",
            )
        return cls(number, draw, version)

    def __str__(self) -> str:
        chars = []
        number = self.number
        for _ in range(LENGTHS[self.version]):
            chars.append(BASE32[number % 32])
            number //= 32
        return f"CF{self.version}-D{self.draw}-{''.join(reversed(chars))}"
