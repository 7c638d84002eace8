"""R30 hints at a bounded cost: each answer cached per position, each search in one of the
host's SOLVER_CONCURRENCY slots (core/slots.py).

The cache key is the whole position the solver reads (games.solver.position: rules, draw,
every card where it lies, hidden ones included), so the same position is never searched
twice while its answer is kept (HINT_CACHE_SECONDS), whoever asks. An undecided answer is kept
too: asking again at a position the solver could not decide must not cost another search.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

from core import metrics
from core.slots import slot
from games import solver
from games.engine import Game

Hint = tuple[dict[str, Any] | None, bool | None]


def hint_key(game: Game) -> str:
    return "hint:" + hashlib.sha256(repr(solver.position(game)).encode()).hexdigest()


def hint(game: Game) -> Hint:
    """games.solver.hint's answer for `game`'s position, from the cache or from a search in a
    slot; raises core.slots.Busy when no slot came free in time."""
    key = hint_key(game)
    answer: Hint | None = cache.get(key)
    source = "cache"
    if answer is None:
        with slot("solver", settings.SOLVER_CONCURRENCY):
            answer = cache.get(key)  # found by another request while this one waited
            if answer is None:
                started = time.perf_counter()
                answer = solver.hint(game)
                metrics.SOLVER_SECONDS.observe(time.perf_counter() - started)
                source = "solver"
                cache.set(key, answer, settings.HINT_CACHE_SECONDS)
    metrics.HINTS.labels(source).inc()
    return answer
