"""Ratings (R33): Weng-Lin's Bayesian model, Plackett-Luce, as the `openskill` package computes
it, and the rating players see.

The displayed rating is the conservative ordinal mu - 3 sigma scaled to start at 1500:
`rating = 1500 + 20 * (mu - 3 sigma)`. A new player has openskill's mu 25, sigma 25/3, so an
ordinal of 0 and a rating of 1500; each match narrows sigma, so a player who holds their own
climbs as the system grows sure of them. A rating is provisional for its first 10 matches.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

START = 1500
SCALE = 20
PROVISIONAL_MATCHES = 10

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


def displayed(mu: float, sigma: float) -> int:
    """The rating shown for (mu, sigma): 1500 for a new player.

    >>> displayed(MU, SIGMA)
    1500
    """
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(3.0, SCALE, START))


def rate(
    players: Sequence[tuple[float, float]], places: Sequence[int]
) -> list[tuple[float, float]]:
    """Each player's (mu, sigma) after a match given as (mu, sigma) before and their places
    (1 = first), in the same order: one team of one per player, ranked by place."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]
