"""Connected groups of cells, the side-A river and the side-B islands (rules §9.3, §9.5, §9.6).

Sets of cells are int bitmasks over the geometry's cell indices. "Every neighbour of a set" is two
table lookups (hexgrid.spread_tables), so a flood fill costs one lookup pair per BFS layer. The
results are pure functions of (side, mask) and are memoised: boards repeat their water and field
shapes a lot during a game and across simulated games.
"""

from __future__ import annotations

from functools import cache, lru_cache

from .hexgrid import CHUNK_BITS, CHUNK_MASK, geometry, spread_tables

_CACHE_SIZE = 1 << 16


@cache
def _bit_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    low = tuple(tuple(i for i in range(CHUNK_BITS) if m >> i & 1) for m in range(1 << CHUNK_BITS))
    high = tuple(tuple(i + CHUNK_BITS for i in cells) for cells in low)
    return low, high


def cells_of(mask: int) -> tuple[int, ...]:
    """The indices of the set bits of a board mask (< 2**26), ascending."""
    low, high = _bit_tables()
    return low[mask & CHUNK_MASK] + high[mask >> CHUNK_BITS]


@lru_cache(maxsize=_CACHE_SIZE)
def components(side: str, mask: int) -> tuple[int, ...]:
    """The connected groups of the cells in `mask`, as masks, ordered by their lowest cell."""
    t0, t1 = spread_tables(side)
    groups = []
    while mask:
        group = frontier = mask & -mask
        while frontier:
            frontier = (t0[frontier & CHUNK_MASK] | t1[frontier >> CHUNK_BITS]) & mask & ~group
            group |= frontier
        groups.append(group)
        mask ^= group
    return tuple(groups)


def _layers(side: str, group: int, source: int) -> list[int]:
    """BFS layers (masks) from the single-cell mask `source`, staying inside `group`."""
    t0, t1 = spread_tables(side)
    layers = [source]
    seen = frontier = source
    while True:
        frontier = (t0[frontier & CHUNK_MASK] | t1[frontier >> CHUNK_BITS]) & group & ~seen
        if not frontier:
            return layers
        layers.append(frontier)
        seen |= frontier


def _eccentricity(t0: tuple[int, ...], t1: tuple[int, ...], group: int, source: int) -> int:
    """The number of BFS steps from `source` until `group` is covered."""
    steps = 0
    seen = frontier = source
    while True:
        frontier = (t0[frontier & CHUNK_MASK] | t1[frontier >> CHUNK_BITS]) & group & ~seen
        if not frontier:
            return steps
        seen |= frontier
        steps += 1


def _diameter_path(side: str, group: int) -> tuple[int, ...]:
    """A longest shortest path of a connected group, as cell indices (rules §0 D1).

    The path starts at its lower-index end so the same group always shows the same path.
    For a group without cycles two sweeps suffice (the farthest cell from anywhere is an end of
    a diameter); otherwise every cell is tried as a source, which is n BFS on n <= 25 cells.
    """
    geo = geometry(side)
    size = group.bit_count()
    if size <= 2:
        return cells_of(group)
    nbr = geo.neighbour_mask
    members = cells_of(group)
    edges = sum((nbr[i] & group).bit_count() for i in members) // 2
    if edges == size - 1:
        first = _layers(side, group, 1 << members[0])[-1]
        source = first & -first
    else:
        t0, t1 = spread_tables(side)
        best = -1
        source = 0
        for i in members:
            ecc = _eccentricity(t0, t1, group, 1 << i)
            if ecc > best:
                best, source = ecc, 1 << i
                if ecc == size - 1:
                    break
    layers = _layers(side, group, source)
    # Walk back from the lowest cell of the last layer through one neighbour per layer.
    end = layers[-1] & -layers[-1]
    cell = end.bit_length() - 1
    path = [cell]
    for layer in reversed(layers[:-1]):
        step = nbr[cell] & layer
        cell = (step & -step).bit_length() - 1
        path.append(cell)
    # The walk ran from the far end back to the source; present it from the lower-index end.
    if path[0] > path[-1]:
        path.reverse()
    return tuple(path)


@lru_cache(maxsize=_CACHE_SIZE)
def river(side: str, water: int) -> tuple[int, ...]:
    """The counted path of the best blue group (side A): its length in tokens is len(path).

    The length of a group is the largest number of tokens on a shortest path between two of its
    tokens (rules §9.5, §0 D1). Ties keep the group holding the lowest cell index.
    """
    best: tuple[int, ...] = ()
    for group in components(side, water):
        if group.bit_count() > len(best):
            path = _diameter_path(side, group)
            if len(path) > len(best):
                best = path
    return best


def river_points(length: int) -> int:
    """Points of a river of `length` tokens: 1->0, 2->2, 3->5, 4->8, 5->11, 6->15, +4 beyond."""
    if length <= 1:
        return 0
    if length <= 6:
        return (0, 0, 2, 5, 8, 11, 15)[length]
    return 15 + 4 * (length - 6)


def islands(side: str, water: int) -> tuple[int, ...]:
    """The side-B islands: connected groups of every non-blue hex, empty ones included (§9.6)."""
    return components(side, geometry(side).full_mask & ~water)


def clear_caches() -> None:
    """Forget memoised groups and rivers (used by the bench to measure cold figures)."""
    components.cache_clear()
    river.cache_clear()
