"""Board geometry, checked against the adjacency lists printed in rules §3.2 and §3.3."""

import re

import pytest

from games.engine.hexgrid import (
    CHUNK_BITS,
    CHUNK_MASK,
    DIRECTIONS,
    SIDES,
    axial_to_offset,
    geometry,
    offset_to_axial,
    rotate,
    spread_tables,
)

# Transcribed verbatim from rules §3.2 (side A) and §3.3 (side B).
SIDE_A_ADJACENCY = """
(0,0): 1,0 0,1                (2,0): 3,0 2,1 1,0            (4,0): 4,1 3,0
(0,1): 0,0 1,0 1,1 0,2        (2,1): 2,0 3,0 3,1 2,2 1,1 1,0 (4,1): 4,0 4,2 3,1 3,0
(0,2): 0,1 1,1 1,2 0,3        (2,2): 2,1 3,1 3,2 2,3 1,2 1,1 (4,2): 4,1 4,3 3,2 3,1
(0,3): 0,2 1,2 1,3 0,4        (2,3): 2,2 3,2 3,3 2,4 1,3 1,2 (4,3): 4,2 4,4 3,3 3,2
(0,4): 0,3 1,3                (2,4): 2,3 3,3 1,3            (4,4): 4,3 3,3
(1,0): 2,0 2,1 1,1 0,1 0,0    (3,0): 4,0 4,1 3,1 2,1 2,0
(1,1): 1,0 2,1 2,2 1,2 0,2 0,1 (3,1): 3,0 4,1 4,2 3,2 2,2 2,1
(1,2): 1,1 2,2 2,3 1,3 0,3 0,2 (3,2): 3,1 4,2 4,3 3,3 2,3 2,2
(1,3): 1,2 2,3 2,4 0,4 0,3    (3,3): 3,2 4,3 4,4 2,4 2,3
"""

SIDE_B_ADJACENCY = """
(0,0): 1,0 0,1           (2,0): 3,0 2,1 1,0            (4,0): 5,0 4,1 3,0            (6,0): 6,1 5,0
(0,1): 0,0 1,0 1,1 0,2   (2,1): 2,0 3,0 3,1 2,2 1,1 1,0 (4,1): 4,0 5,0 5,1 4,2 3,1 3,0 (6,1): 6,0 6,2 5,1 5,0
(0,2): 0,1 1,1 1,2 0,3   (2,2): 2,1 3,1 3,2 2,3 1,2 1,1 (4,2): 4,1 5,1 5,2 4,3 3,2 3,1 (6,2): 6,1 6,3 5,2 5,1
(0,3): 0,2 1,2           (2,3): 2,2 3,2 1,2            (4,3): 4,2 5,2 3,2            (6,3): 6,2 5,2
(1,0): 2,0 2,1 1,1 0,1 0,0       (3,0): 4,0 4,1 3,1 2,1 2,0       (5,0): 6,0 6,1 5,1 4,1 4,0
(1,1): 1,0 2,1 2,2 1,2 0,2 0,1   (3,1): 3,0 4,1 4,2 3,2 2,2 2,1   (5,1): 5,0 6,1 6,2 5,2 4,2 4,1
(1,2): 1,1 2,2 2,3 0,3 0,2       (3,2): 3,1 4,2 4,3 2,3 2,2       (5,2): 5,1 6,2 6,3 4,3 4,2
"""  # noqa: E501 (verbatim from the rules)

# Rules §3.2/§3.3: axial r ranges per column q.
AXIAL_RANGES = {
    "A": {0: (0, 4), 1: (0, 3), 2: (-1, 3), 3: (-1, 2), 4: (-2, 2)},
    "B": {0: (0, 3), 1: (0, 2), 2: (-1, 2), 3: (-1, 1), 4: (-2, 1), 5: (-2, 0), 6: (-3, 0)},
}


def parse_adjacency(text: str) -> dict[str, set[str]]:
    """{"col,row": {"col,row", ...}} from the printed lists."""
    table = {}
    for match in re.finditer(r"\((\d,\d)\):((?:\s+\d,\d)+)", text):
        table[match.group(1)] = set(match.group(2).split())
    return table


@pytest.mark.parametrize(("side", "text"), [("A", SIDE_A_ADJACENCY), ("B", SIDE_B_ADJACENCY)])
def test_the_neighbours_of_every_hex_are_those_printed_in_the_rules(side, text):
    geo = geometry(side)
    printed = parse_adjacency(text)
    assert set(printed) == set(geo.names)
    computed = {geo.names[i]: {geo.names[j] for j in geo.neighbours[i]} for i in range(geo.size)}
    assert computed == printed


def test_side_a_has_23_hexes_in_columns_of_5_4_5_4_5():
    geo = geometry("A")
    assert geo.size == 23
    assert [sum(1 for c, _ in geo.cells if c == col) for col in range(5)] == [5, 4, 5, 4, 5]


def test_side_b_has_25_hexes_in_columns_of_4_3_4_3_4_3_4():
    geo = geometry("B")
    assert geo.size == 25
    heights = [sum(1 for c, _ in geo.cells if c == col) for col in range(7)]
    assert heights == [4, 3, 4, 3, 4, 3, 4]


@pytest.mark.parametrize("side", SIDES)
def test_cells_are_sorted_by_column_then_row_and_named_col_comma_row(side):
    geo = geometry(side)
    assert list(geo.cells) == sorted(geo.cells)
    assert geo.names == tuple(f"{c},{r}" for c, r in geo.cells)
    assert all(geo.index[name] == i for i, name in enumerate(geo.names))
    assert geo.full_mask == (1 << geo.size) - 1


@pytest.mark.parametrize("side", SIDES)
def test_axial_coordinates_match_the_ranges_of_the_rules(side):
    geo = geometry(side)
    for q, (low, high) in AXIAL_RANGES[side].items():
        assert sorted(r for qq, r in geo.axial if qq == q) == list(range(low, high + 1))
    for (col, row), (q, r) in zip(geo.cells, geo.axial, strict=True):
        assert offset_to_axial(col, row) == (q, r)
        assert axial_to_offset(q, r) == (col, row)
        assert geo.axial_index[(q, r)] == geo.index[f"{col},{row}"]


@pytest.mark.parametrize("side", SIDES)
def test_neighbour_masks_and_adjacency_are_symmetric(side):
    geo = geometry(side)
    for i, ns in enumerate(geo.neighbours):
        assert geo.neighbour_mask[i] == sum(1 << j for j in ns)
        assert not geo.neighbour_mask[i] >> i & 1
        for j in ns:
            assert i in geo.neighbours[j]


@pytest.mark.parametrize("side", SIDES)
def test_the_spread_tables_give_the_neighbours_of_any_set_of_cells(side):
    geo = geometry(side)
    t0, t1 = spread_tables(side)
    for mask in (1, 0b101, geo.full_mask, 0x15555 & geo.full_mask, 1 << (geo.size - 1)):
        expected = 0
        for i in range(geo.size):
            if mask >> i & 1:
                expected |= geo.neighbour_mask[i]
        assert t0[mask & CHUNK_MASK] | t1[mask >> CHUNK_BITS] == expected


def test_rotating_a_direction_six_times_visits_all_six_directions_clockwise():
    for turns, direction in enumerate(DIRECTIONS):
        assert rotate(0, -1, turns) == direction
    assert rotate(2, -1, 6) == (2, -1)


def test_an_unknown_side_is_refused():
    with pytest.raises(ValueError, match="unknown board side"):
        geometry("C")


def test_the_geometry_of_a_side_is_built_once():
    assert geometry("A") is geometry("A")
