# Types of the C core (games/solver/_core.c).
from typing import Any

def solve(
    position: tuple[Any, ...],
    reduce: bool,
    narrow: int,
    seconds: float,
    max_nodes: int,
    max_bytes: int,
    /,
) -> tuple[int, list[tuple[int, int, int, int]], int]: ...
def successors(
    position: tuple[Any, ...], /
) -> list[tuple[tuple[int, int, int, int], tuple[Any, ...]]]: ...
