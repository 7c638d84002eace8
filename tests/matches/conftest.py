"""Fixtures of the matches tests: a pool of deals made without the solver (the matchmaking
tests need deals, not proofs; tests/matches/test_deals.py proves the pool's)."""

import pytest

from matches.deals import match_deal_code
from matches.models import MatchDeal


@pytest.fixture
def pool(db):
    """Make `n` unused deals of a draw mode in the pool (indexes after those it has)."""

    def make(n: int = 20, draw: int = 3) -> list[MatchDeal]:
        start = MatchDeal.objects.filter(draw=draw).count()
        return MatchDeal.objects.bulk_create(
            MatchDeal(draw=draw, index=i, deal_code=str(match_deal_code(draw, i)))
            for i in range(start, start + n)
        )

    return make


@pytest.fixture
def players(make_user, client_for):
    """`n` accounts with their API clients, each from an address of its own (R32 never seats
    two accounts of one address together): [(user, client), ...]."""

    def make(n: int, prefix: str = "p") -> list:
        made = []
        for i in range(n):
            user = make_user(f"{prefix}{i}")
            client = client_for(user)
            client.defaults["REMOTE_ADDR"] = f"10.{len(prefix)}.{i // 250}.{i % 250 + 1}"
            made.append((user, client))
        return made

    return make
