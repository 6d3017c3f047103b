"""Personal-board geometry (rules §3): flat-top hexes, odd-q offset columns.

Cells are indexed in (col, row) order so a board is a plain tuple and a set of cells is an int
bitmask; every rule that talks about adjacency works on those masks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

SIDES = ("A", "B")

# Column heights of each side, left to right (rules §3.2 and §3.3).
_COLUMN_HEIGHTS = {"A": (5, 4, 5, 4, 5), "B": (4, 3, 4, 3, 4, 3, 4)}

# Axial neighbour directions N, NE, SE, S, SW, NW (rules §3.1).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    """Offset (col,row) to axial (q,r): q = col, r = row - floor(col/2)."""
    return col, row - (col >> 1)


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    """Axial (q,r) to offset (col,row): col = q, row = r + floor(q/2)."""
    return q, r + (q >> 1)


def rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    """Rotate an axial vector by `turns` sixths of a turn clockwise (N -> NE -> SE ...)."""
    for _ in range(turns % 6):
        # In cube coordinates (x=q, z=r, y=-q-r) a clockwise 60° turn is (x,y,z) -> (-z,-x,-y).
        q, r = -r, q + r
    return q, r


@dataclass(frozen=True)
class Geometry:
    """The cells of one board side and their adjacency, precomputed once."""

    side: str
    cells: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    index: Mapping[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    neighbour_mask: tuple[int, ...]
    size: int
    full_mask: int
    axial: tuple[tuple[int, int], ...]
    axial_index: Mapping[tuple[int, int], int]

    def name(self, index: int) -> str:
        """The interchange name "col,row" of a cell index."""
        return self.names[index]

    def cells_of(self, mask: int) -> tuple[int, ...]:
        """The cell indices whose bit is set in `mask`, ascending."""
        return tuple(i for i in range(self.size) if mask >> i & 1)


@cache
def geometry(side: str) -> Geometry:
    """The geometry of board side "A" or "B" (cached: one instance per side)."""
    if side not in _COLUMN_HEIGHTS:
        raise ValueError(f"unknown board side {side!r}: expected 'A' or 'B'")
    cells = tuple(
        (col, row) for col, height in enumerate(_COLUMN_HEIGHTS[side]) for row in range(height)
    )
    axial = tuple(offset_to_axial(c, r) for c, r in cells)
    axial_index = {a: i for i, a in enumerate(axial)}
    neighbours = tuple(
        tuple(
            axial_index[(q + dq, r + dr)]
            for dq, dr in DIRECTIONS
            if (q + dq, r + dr) in axial_index
        )
        for q, r in axial
    )
    names = tuple(f"{c},{r}" for c, r in cells)
    return Geometry(
        side=side,
        cells=cells,
        names=names,
        index=MappingProxyType({n: i for i, n in enumerate(names)}),
        neighbours=neighbours,
        neighbour_mask=tuple(sum(1 << j for j in ns) for ns in neighbours),
        size=len(cells),
        full_mask=(1 << len(cells)) - 1,
        axial=axial,
        axial_index=MappingProxyType(axial_index),
    )


# Masks are split in two chunks of 13 bits (boards have at most 25 cells) so that "every
# neighbour of a set of cells" is two table lookups instead of a loop over the set.
CHUNK_BITS = 13
CHUNK_MASK = (1 << CHUNK_BITS) - 1


@cache
def spread_tables(side: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tables t0, t1 with t0[m & CHUNK_MASK] | t1[m >> CHUNK_BITS] = neighbours of mask m."""
    geo = geometry(side)
    tables = []
    for chunk in range(2):
        table = [0] * (1 << CHUNK_BITS)
        for m in range(1, 1 << CHUNK_BITS):
            low = m & -m
            cell = low.bit_length() - 1 + chunk * CHUNK_BITS
            extra = geo.neighbour_mask[cell] if cell < geo.size else 0
            table[m] = table[m ^ low] | extra
        tables.append(tuple(table))
    return tables[0], tables[1]
