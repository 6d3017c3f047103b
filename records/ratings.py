"""Rating arithmetic: openskill's Plackett-Luce model, one call per game.

Kept apart from the database so the incremental recorder and the rebuild run exactly the same
floating-point operations in the same order, and so get exactly the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)  # 25, 25/3: a player nobody knows anything about

# An account is new for this long after it was made. Sock puppets are made in minutes; a week is
# long enough that a circle of them is seen (and the site's addresses rule is met) before it can
# lift one of them up a leaderboard, and short enough that a real newcomer is hardly held back.
NEW_ACCOUNT_AGE = timedelta(days=7)


def is_new(joined: datetime, finished_at: datetime) -> bool:
    """Whether an account was still new when a game ended (a game is measured when it ends, a
    date every way of recording reads the same)."""
    return finished_at - joined < NEW_ACCOUNT_AGE


def rate(
    before: Sequence[tuple[float, float]],
    places: Sequence[int],
    new: Sequence[bool] = (),
) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player from their (mu, sigma) and place (1 = first; equal
    places are a shared place, which the model treats as a draw between them).

    `new` marks the people whose accounts were new (bots are never new). A new account's
    rating cannot rise from a game against another new account: it keeps its old (mu, sigma)
    where the model's estimate (the ordinal) would go up, and takes the model's where it goes
    down. Not a small allowed gain: puppets are free, so any gain per game adds up with the number
    of games; nothing at all cannot be farmed. Losses still count, and games against established
    accounts (and everything once a week old) count in full, so real newcomers are rated."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=list(places))]
    if sum(new) < 2:
        return after
    return [
        old if is_newcomer and ordinal(*moved) > ordinal(*old) else moved
        for old, moved, is_newcomer in zip(before, after, new, strict=True)
    ]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate leaderboards sort by: a new player starts at 0."""
    return mu - 3 * sigma


# What players see: the estimate on a familiar scale, 1,000 for a newcomer, whole numbers, so a
# first lost game reads 928 rather than "-1.8" (the order is the estimate's own).
SHOWN_START, SHOWN_SCALE = 1000, 40


def shown(estimate: float) -> int:
    return round(SHOWN_START + SHOWN_SCALE * estimate)
