"""Rating arithmetic: openskill's Plackett-Luce model, one call per game.

Kept apart from the database so the incremental recorder and the rebuild run exactly the same
floating-point operations in the same order, and so get exactly the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)  # 25, 25/3: a player nobody knows anything about


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player from their (mu, sigma) and place (1 = first; equal
    places are a shared place, which the model treats as a draw between them)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in after]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate leaderboards sort by: a new player starts at 0."""
    return mu - 3 * sigma


# What players see: the estimate on a familiar scale, 1,000 for a newcomer, whole numbers, so a
# first lost game reads 928 rather than "-1.8" (the order is the estimate's own).
SHOWN_START, SHOWN_SCALE = 1000, 40


def shown(estimate: float) -> int:
    return round(SHOWN_START + SHOWN_SCALE * estimate)
