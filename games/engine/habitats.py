"""Where a card's next cube may go (rules §7.2).

Every placement of a card's pattern on a board side (6 rotations x every translation that keeps
the whole pattern on the board) is computed once; matching is then a few integer comparisons per
candidate cube hex.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .cards import card
from .hexgrid import geometry, rotate
from .tokens import Landscape

# One placement: ((cell index, required landscape), ...) with the cube cell first.
Placement = tuple[tuple[int, Landscape], ...]


@cache
def placements(side: str, card_id: str) -> tuple[tuple[int, ...], tuple[tuple[Placement, ...]]]:
    """The pattern placements of a card on a side, grouped by cube cell.

    Returns (cube cells, placements per cube cell in the same order). Rotations that land on
    the same cells with the same landscapes and the same cube hex are kept once.
    """
    geo = geometry(side)
    pattern = card(card_id).pattern
    by_cube: dict[int, list[Placement]] = {}
    seen: set[tuple[int, frozenset[tuple[int, Landscape]]]] = set()
    for cube_cell, (cq, cr) in enumerate(geo.axial):
        for turns in range(6):
            cells: list[tuple[int, Landscape]] = []
            for pc in pattern:
                dq, dr = rotate(pc.q, pc.r, turns)
                target = geo.axial_index.get((cq + dq, cr + dr))
                if target is None:
                    break
                cells.append((target, pc.landscape))
            else:
                # Symmetric patterns repeat under rotation; the cube hex is part of the identity
                # (a symmetric line gives two placements on the same cells, one per end).
                key = (cube_cell, frozenset(cells))
                if key not in seen:
                    seen.add(key)
                    by_cube.setdefault(cube_cell, []).append(tuple(cells))
    order = tuple(sorted(by_cube))
    return order, tuple(tuple(by_cube[c]) for c in order)


@cache
def _by_cube_cell(side: str, card_id: str) -> tuple[Landscape, tuple[tuple[int, tuple], ...]]:
    """(landscape of the cube hex, ((cube cell, its placements without the cube cell), ...))."""
    order, groups = placements(side, card_id)
    cube_landscape = card(card_id).pattern[0].landscape
    return cube_landscape, tuple(
        (cell, tuple(p[1:] for p in group)) for cell, group in zip(order, groups, strict=True)
    )


def cube_targets(
    side: str, landscapes: Sequence[Landscape], cube_mask: int, card_id: str
) -> dict[int, tuple[int, ...]]:
    """Each hex that may take this card's next cube now -> the cells of one matching habitat.

    The habitat's cells start with the cube hex. A hex qualifies when it carries no cube and the
    pattern, in one of its 6 rotations and entirely on the board, matches every landscape
    exactly (rules §7.2). Other pattern hexes may carry cubes.
    """
    cube_landscape, groups = _by_cube_cell(side, card_id)
    found: dict[int, tuple[int, ...]] = {}
    for cell, rest_options in groups:
        if landscapes[cell] != cube_landscape or cube_mask >> cell & 1:
            continue
        for rest in rest_options:
            for other, wanted in rest:
                if landscapes[other] != wanted:
                    break
            else:
                found[cell] = (cell, *(other for other, _ in rest))
                break
    return found


def habitat_at(
    side: str, landscapes: Sequence[Landscape], card_id: str, cube_cell: int
) -> tuple[int, ...] | None:
    """The cells of one habitat of this card with its cube hex on `cube_cell`, or None.

    Ignores cubes, so a caller can explain "that hex already has a cube" separately.
    """
    cube_landscape, groups = _by_cube_cell(side, card_id)
    if landscapes[cube_cell] != cube_landscape:
        return None
    for cell, rest_options in groups:
        if cell != cube_cell:
            continue
        for rest in rest_options:
            if all(landscapes[other] == wanted for other, wanted in rest):
                return (cell, *(other for other, _ in rest))
    return None
