"""A viewer's place on an all-time board, read without counting the players ahead of them.

The boards show the top rows and, below them, the viewer's own row with its place: one more than
the players whose value, as the board shows it, is higher. Counting those players read a share of
the pool's rows on every request (a newcomer is behind nearly everyone): 50 ms at 100k games and
growing with the site. `Tally` holds how many players stand at each shown value of each board, so
the place is a sum over the board's distinct values (a few hundred), whatever the players.

The tallies change where the rows they count change, under the recorders' lock: `Moves` gathers
one write's changes (a value left, a value reached) and saves them together. The rebuild counts
them all again (`refresh_standings`, `refresh_ratings`). No row leaves behind their back: an
account that has played cannot be deleted (its seats protect it), and so keeps its rows.
"""

from __future__ import annotations

import logging
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

from django.db import connection
from django.db.models import Sum

from records import ratings
from records.models import Rating, Standing, Tally

logger = logging.getLogger(__name__)

# An average over one or two games says little: the average board asks for a few.
AVERAGE_MIN_GAMES = 3
SCORE_BOARDS = ("wins", "average", "best")

Cell = tuple[str, str, int, str]  # pool, side (a rating's scope), players, spirits
Key = tuple[str, str, str, int, str, int]  # board, *cell, tenths
UNIQUE_COLUMNS = ("board", "pool", "side", "players", "spirits", "tenths")


def tenths(value: float) -> int:
    """A value as a board prints it, in tenths: the unit ties are decided in. Rounded as the
    page's `floatformat:1` rounds (half up, on the decimal digits), so two players printed
    alike share a place, and as the databases' ROUND does on the boards that still count."""
    return int((Decimal(str(value)) * 10).to_integral_value(ROUND_HALF_UP))


def standing_values(row: Standing) -> dict[str, float | None]:
    """What `row` shows on each score board (None: not on that board)."""
    return {
        "wins": row.wins,
        "average": row.average if row.games >= AVERAGE_MIN_GAMES else None,
        "best": row.best,
    }


def standing_cell(row: Standing) -> Cell:
    return (row.pool, row.side, row.players, row.spirits)


def rating_cell(pool: str, scope: str) -> Cell:
    return (pool, scope, Standing.ANY_PLAYERS, Standing.ANY_SPIRITS)


class Moves:
    """The tallies' changes of one write: each row that left a value or reached one."""

    def __init__(self) -> None:
        self.delta: Counter[Key] = Counter()

    def move(self, board: str, cell: Cell, before: float | None, after: float | None) -> None:
        if before is not None:
            self.delta[(board, *cell, tenths(before))] -= 1
        if after is not None:
            self.delta[(board, *cell, tenths(after))] += 1

    def standing(self, before: dict[str, float | None] | None, row: Standing) -> None:
        """`row`'s new figures, after `before` (its `standing_values` then; None if new)."""
        after = standing_values(row)
        for board in SCORE_BOARDS:
            self.move(board, standing_cell(row), (before or {}).get(board), after[board])

    def rating(self, before: float | None, row: Rating) -> None:
        """`row`'s new ordinal, after `before` (None for a rating it starts)."""
        shown_before = None if before is None else ratings.shown(before)
        cell = rating_cell(row.pool, row.scope)
        self.move("rating", cell, shown_before, ratings.shown(row.ordinal))

    def save(self) -> None:
        """One upsert adding each change to its value's count, then the values left empty
        removed. In SQL rather than the ORM: a game moves a few dozen counts, and reading
        them, then writing them back as objects cost more than the rest of recording it."""
        changes = sorted((key, n) for key, n in self.delta.items() if n)
        self.delta.clear()
        if not changes:
            return
        table = connection.ops.quote_name(Tally._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(c) for c in UNIQUE_COLUMNS)
        values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(changes))
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({columns}, count) VALUES {values}"
                f" ON CONFLICT ({columns}) DO UPDATE SET count = {table}.count + excluded.count"
                " RETURNING id, count",
                [part for key, n in changes for part in (*key, n)],
            )
            emptied = [(pk, count) for pk, count in cursor.fetchall() if count <= 0]
        if any(count < 0 for _, count in emptied):
            # Only rows changed behind the recorders' back (see the module's note) get here.
            logger.warning("a tally fell below zero; rebuild_records counts them again")
        if emptied:
            Tally.objects.filter(pk__in=[pk for pk, _ in emptied]).delete()


def place(board: str, cell: Cell, value: float) -> int:
    """The competition place of a player showing `value` on one board: one more than the
    players at a higher value."""
    ahead = Tally.objects.filter(
        board=board,
        pool=cell[0],
        side=cell[1],
        players=cell[2],
        spirits=cell[3],
        tenths__gt=tenths(value),
    ).aggregate(n=Sum("count"))["n"]
    return 1 + (ahead or 0)


def refresh_standings() -> None:
    """The score boards' tallies counted again from every standing row."""
    counted: Counter[Key] = Counter()
    rows = Standing.objects.only(
        "pool", "side", "players", "spirits", "games", "wins", "average", "best"
    )
    for row in rows.iterator(chunk_size=5000):
        for board, value in standing_values(row).items():
            if value is not None:
                counted[(board, *standing_cell(row), tenths(value))] += 1
    Tally.objects.filter(board__in=SCORE_BOARDS).delete()
    Tally.objects.bulk_create((_row(key, n) for key, n in counted.items()), batch_size=5000)


def refresh_ratings() -> None:
    """The rating boards' tallies counted again from every rating."""
    rows = Rating.objects.values_list("pool", "scope", "ordinal").iterator(chunk_size=5000)
    counted: Counter[Key] = Counter(
        ("rating", *rating_cell(pool, scope), tenths(ratings.shown(ordinal)))
        for pool, scope, ordinal in rows
    )
    Tally.objects.filter(board="rating").delete()
    Tally.objects.bulk_create((_row(key, n) for key, n in counted.items()), batch_size=5000)


def _row(key: Key, count: int) -> Tally:
    board, pool, side, players, spirits, value = key
    return Tally(
        board=board,
        pool=pool,
        side=side,
        players=players,
        spirits=spirits,
        tenths=value,
        count=count,
    )
