"""The all-time score boards' running totals: each player's games, wins, points and best total
for every combination of the boards' filters, kept as games are recorded.

A board used to group every counted result of the pool by player on each request: its cost grew
with the site's whole history (7.9 times slower at 100k games than at 10k). A board over all time
now reads the top rows of one index of `Standing`; a board over the last days still groups the
results, which are then only that window's. `record_game` adds each game's results (under the
recorders' lock, so increments never race) and `rebuild` computes them all again from the
results, so both agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db.models import Count, Max, Q, QuerySet, Sum

from records import places
from records.models import Pool, SeatResult, Standing

Cell = tuple[int, str, str, int, str]  # user, pool, side, players, spirits
BATCH = 5000


@dataclass
class Totals:
    games: int = 0
    wins: int = 0
    points: int = 0
    best: int = 0

    def add(self, games: int, wins: int, points: int, best: int) -> None:
        self.games += games
        self.wins += wins
        self.points += points
        self.best = max(self.best, best)


def spirits_value(spirits: bool) -> str:
    """The boards' filter value for a game with or without Nature's Spirits."""
    return "on" if spirits else "off"


def counted(result: SeatResult) -> bool:
    """Whether a result is on the score boards: a game that counts, in a pool with boards."""
    return result.counts and result.pool != Pool.SOLO


def cells_of(user_id: int, pool: str, side: str, players: int, spirits: bool) -> Iterator[Cell]:
    """The eight filter combinations a result belongs to: its own values, or any."""
    for s in (side, Standing.ANY_SIDE):
        for p in (players, Standing.ANY_PLAYERS):
            for sp in (spirits_value(spirits), Standing.ANY_SPIRITS):
                yield (user_id, pool, s, p, sp)


def add(results: Iterable[SeatResult]) -> None:
    """Adds one recorded game's results to its players' rows (the caller holds the lock)."""
    totals: dict[Cell, Totals] = {}
    for r in results:
        if counted(r):
            for cell in cells_of(r.user_id, r.pool, r.side, r.players, r.spirits):
                totals.setdefault(cell, Totals()).add(1, r.place == 1, r.total, r.total)
    if not totals:
        return
    users = {cell[0] for cell in totals}
    pools = {cell[1] for cell in totals}
    existing = {
        _cell_of(row): row for row in Standing.objects.filter(user_id__in=users, pool__in=pools)
    }
    changed, fresh = [], []
    moves = places.Moves()
    for cell, more in totals.items():
        row = existing.get(cell)
        if row is None:
            fresh.append(_row(cell, more))
            moves.standing(None, fresh[-1])
        else:
            before = places.standing_values(row)
            more.add(row.games, row.wins, row.points, row.best)
            changed.append(_fill(row, more))
            moves.standing(before, row)
    Standing.objects.bulk_create(fresh)
    Standing.objects.bulk_update(changed, ["games", "wins", "points", "average", "best"])
    moves.save()


def refresh_all() -> int:
    """Every row again from the results (the rebuild, the data growth bench); the row count.
    One read grouped by every filter; each group is added to its eight cells here."""
    grouped = (
        SeatResult.objects.filter(counts=True)
        .exclude(pool=Pool.SOLO)
        .values("user_id", "pool", "side", "players", "spirits")
        .annotate(
            n=Count("pk"), won=Count("pk", filter=Q(place=1)), points=Sum("total"), top=Max("total")
        )
        .order_by()
    )
    totals: dict[Cell, Totals] = {}
    for g in grouped.iterator(chunk_size=BATCH):
        for cell in cells_of(g["user_id"], g["pool"], g["side"], g["players"], g["spirits"]):
            totals.setdefault(cell, Totals()).add(g["n"], g["won"], g["points"], g["top"])
    Standing.objects.all().delete()
    Standing.objects.bulk_create(
        (_row(cell, more) for cell, more in totals.items()), batch_size=BATCH
    )
    places.refresh_standings()
    return len(totals)


def board_cell(pool: str, side: str, players: str, spirits: str) -> places.Cell:
    """The standing rows' cell of a board's filters as the form gives them ("" for any)."""
    return (pool, side, int(players or Standing.ANY_PLAYERS), spirits)


def standings(pool: str, side: str, players: int, spirits: str) -> QuerySet[Standing]:
    """The rows of one all-time board (its `board_cell`)."""
    return Standing.objects.filter(pool=pool, side=side, players=players, spirits=spirits)


def _cell_of(row: Standing) -> Cell:
    return (row.user_id, row.pool, row.side, row.players, row.spirits)


def _row(cell: Cell, totals: Totals) -> Standing:
    user_id, pool, side, players, spirits = cell
    row = Standing(user_id=user_id, pool=pool, side=side, players=players, spirits=spirits)
    return _fill(row, totals)


def _fill(row: Standing, totals: Totals) -> Standing:
    """The figures of `totals` on `row`; the average is derived here only (it is stored for
    the index the average board is read from)."""
    row.games = totals.games
    row.wins = totals.wins
    row.points = totals.points
    row.best = totals.best
    row.average = totals.points / totals.games
    return row
