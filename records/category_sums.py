"""The running sums behind the profile's "all players" averages by scoring category.

Averaging every counted result of the site on each profile view would cost what the history
costs (docs/performance.md, "Growth"); these few rows (one per pool) cost the same at any size.
`record_game` adds each game's seats under the recorders' lock, so the increments never race;
`rebuild` sums the results again. Integer sums, so the two agree exactly, whatever the order.

What is summed is what the player's own averages count (records.presenters.player_stats):
results of games that count, the spirit column only over games played with Nature's Spirits;
people only, since a bot's average is not a player's to compare with.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, F, Q, Sum

from records.models import CategorySums, Pool, SeatResult

CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit", "total")


def summed(result: SeatResult) -> bool:
    """Whether a result is in the sums: a person's, in a game that counts."""
    return result.counts and not result.is_bot


def add(results: Iterable[SeatResult]) -> None:
    """Adds one recorded game's seats to their pool's row (the caller holds the lock)."""
    by_pool: dict[str, dict[str, int]] = {}
    for result in results:
        if not summed(result):
            continue
        sums = by_pool.setdefault(
            result.pool, dict.fromkeys(("games", "spirit_games", *CATEGORIES), 0)
        )
        sums["games"] += 1
        sums["spirit_games"] += result.spirits
        for key in CATEGORIES:
            sums[key] += getattr(result, key)
    for pool, sums in by_pool.items():
        more = {key: F(key) + value for key, value in sums.items()}
        if not CategorySums.objects.filter(pool=pool).update(**more):
            CategorySums.objects.create(pool=pool, **sums)


def refresh_all() -> int:
    """Every row again from the results (the rebuild); the row count."""
    grouped = (
        SeatResult.objects.filter(counts=True, is_bot=False)
        .values("pool")
        .annotate(
            games=Count("pk"),
            spirit_games=Count("pk", filter=Q(spirits=True)),
            **{f"sum_{key}": Sum(key) for key in CATEGORIES},
        )
        .order_by()
    )
    rows = [
        CategorySums(
            pool=g["pool"],
            games=g["games"],
            spirit_games=g["spirit_games"],
            **{key: g[f"sum_{key}"] or 0 for key in CATEGORIES},
        )
        for g in grouped
    ]
    CategorySums.objects.all().delete()
    CategorySums.objects.bulk_create(rows)
    return len(rows)


def averages() -> dict[str, dict[str, float | None]]:
    """The people's average by category, over multiplayer games (both pools) and solo games:
    {"multi": {"trees": 7.4, ..., "total": 91.2}, "solo": {...}}, None where nothing counts yet
    (the spirit column before any game with the spirits). One query of at most three rows."""
    kinds = {"multi": dict.fromkeys(("games", "spirit_games", *CATEGORIES), 0)}
    kinds["solo"] = dict(kinds["multi"])
    for row in CategorySums.objects.all():
        sums = kinds["solo" if row.pool == Pool.SOLO else "multi"]
        for key in sums:
            sums[key] += getattr(row, key)
    return {
        kind: {
            key: (
                sums[key] / divisor
                if (divisor := sums["spirit_games" if key == "spirit" else "games"])
                else None
            )
            for key in CATEGORIES
        }
        for kind, sums in kinds.items()
    }
