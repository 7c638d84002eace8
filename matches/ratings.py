"""Ratings (R33): Weng-Lin's Bayesian model, Plackett-Luce, as the `openskill` package computes
it, and the rating players see.

The displayed rating is the conservative ordinal mu - 3 sigma scaled to start at 1500:
`rating = 1500 + 20 * (mu - 3 sigma)`. A new player has openskill's mu 25, sigma 25/3, so an
ordinal of 0 and a rating of 1500; each match narrows sigma, so a player who holds their own
climbs as the system grows sure of them. A rating is provisional for its first 10 matches.

R33a: a provisional rating moves an established one at most half as far as an established one
would. An established player's openskill change (mu and sigma alike, so the displayed rating's
too) is scaled by `1 - PROVISIONAL_DAMPING * share`, `share` being the part of their opponents
that are provisional: half against provisional opponents only, three quarters when half of them
are. openskill's change against a provisional opponent is already no larger than against an
established one of the same mu (a wider sigma makes the result less telling), so the scaled
change is at most half of what an established opponent with the same result would give.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

START = 1500
SCALE = 20
PROVISIONAL_MATCHES = 10
# R33a: how much of an established player's change provisional opponents take away (half: fresh
# accounts are cheap to make, and an established rating must not be farmed from them).
PROVISIONAL_DAMPING = 0.5

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


def displayed(mu: float, sigma: float) -> int:
    """The rating shown for (mu, sigma): 1500 for a new player.

    >>> displayed(MU, SIGMA)
    1500
    """
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(3.0, SCALE, START))


def provisional(matches: int) -> bool:
    """R33: a rating of fewer than 10 rated matches.

    >>> provisional(9), provisional(10)
    (True, False)
    """
    return matches < PROVISIONAL_MATCHES


def rate(
    players: Sequence[tuple[float, float]],
    places: Sequence[int],
    provisionals: Sequence[bool] | None = None,
) -> list[tuple[float, float]]:
    """Each player's (mu, sigma) after a match given as (mu, sigma) before and their places
    (1 = first), in the same order: one team of one per player, ranked by place; an established
    player's change damped by their provisional opponents' share (R33a; `provisionals`, in the
    same order, None: every player established)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=list(places))]
    if provisionals is None:
        return rated
    count = sum(provisionals)
    damped = []
    for (mu0, sigma0), (mu1, sigma1), fresh in zip(players, rated, provisionals, strict=True):
        # A provisional player's own change is openskill's: only established ratings are kept
        # from being moved by accounts the system knows little about.
        share = 0.0 if fresh else count / (len(players) - 1)
        keep = 1.0 - PROVISIONAL_DAMPING * share
        damped.append((mu0 + keep * (mu1 - mu0), sigma0 + keep * (sigma1 - sigma0)))
    return damped
