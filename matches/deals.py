"""Match deals (R32): CF2 deals from MATCH_SECRET that the solver proved winnable (R29), made
ahead into a pool by the scheduler (`manage.py fill_match_deals`), so that opening a match
takes a ready deal and never waits for the solver."""

from __future__ import annotations

import hashlib
import hmac
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max

from games.engine import DealCode
from games.engine import Game as EngineGame
from games.solver import solve
from matches.models import MatchDeal

logger = logging.getLogger(__name__)

# R29: the solver's budget per deal when the pool is filled (seconds).
SOLVE_SECONDS = 10.0


class NoMatchSecret(RuntimeError):
    """MATCH_SECRET is not set outside debug: no match deal can be made."""


def match_deal_code(draw: int, index: int) -> DealCode:
    """The CF2 deal number `index` of the match pool in that draw mode.

    N = the first 16 bytes of HMAC-SHA256 under MATCH_SECRET (a key used for nothing else: not
    the dailies', so knowing one never tells the other) of the draw and index: without the
    secret no card of one match's deal tells anything about another's."""
    secret = settings.MATCH_SECRET
    if not secret:
        raise NoMatchSecret("MATCH_SECRET is not set: no match deal can be made")
    message = f"canfield-match-cf2:D{draw}:{index}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return DealCode(int.from_bytes(digest[:16], "big"), draw, version=2)


def match_deal_solve(*, draw: int, seconds: float = SOLVE_SECONDS) -> MatchDeal:
    """Add to the pool the next deal (by index) of that draw mode that the solver wins within
    `seconds`; unwinnable and undecided ones are skipped (R29)."""
    index = (MatchDeal.objects.filter(draw=draw).aggregate(top=Max("index"))["top"] or -1) + 1
    while True:
        code = match_deal_code(draw, index)
        game = EngineGame.deal(code.number, ruleset="app", draw=draw, version=code.version)
        solution = solve(game, seconds=seconds)
        if solution.verdict == "won":
            try:
                with transaction.atomic():
                    return MatchDeal.objects.create(
                        draw=draw,
                        index=index,
                        deal_code=str(code),
                        line=[action.as_dict() for action in solution.line],
                    )
            except IntegrityError:  # another filler took this index: go on after it
                pass
        else:
            logger.info("match deal D%d #%d skipped (%s)", draw, index, solution.verdict)
        index += 1


def match_deals_fill(*, draw: int, size: int, seconds: float = SOLVE_SECONDS) -> int:
    """Make unused deals of that draw mode up to `size`; returns how many were added."""
    free = MatchDeal.objects.filter(draw=draw, used_at=None).count()
    for _ in range(size - free):
        match_deal_solve(draw=draw, seconds=seconds)
    return max(size - free, 0)
