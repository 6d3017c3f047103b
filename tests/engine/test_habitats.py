"""Habitat matching and cube targets (rules §7.2)."""

import random

import pytest

from games.engine.cards import ANIMAL_CARD_IDS, CARDS, SPIRIT_CARD_IDS, card
from games.engine.habitats import cube_targets, habitat_at, placements
from games.engine.hexgrid import SIDES, geometry, rotate
from games.engine.tokens import LANDSCAPES, LEGAL_STACKS, Landscape

L = Landscape


def board_of(side, **stacks):
    """Landscapes of a board with the given {"c_r": stack} hexes, the rest empty."""
    geo = geometry(side)
    lands = [L.EMPTY] * geo.size
    for name, stack in stacks.items():
        lands[geo.index[name.replace("_", ",")]] = LANDSCAPES[stack]
    return lands


def reference_targets(side, lands, cube_mask, card_id):
    """Brute force in offset coordinates: every anchor, every rotation, every cell checked."""
    geo = geometry(side)
    found = set()
    for anchor, (col, row) in enumerate(geo.cells):
        q0, r0 = col, row - col // 2
        if cube_mask >> anchor & 1:
            continue
        for turns in range(6):
            ok = True
            for p in card(card_id).pattern:
                dq, dr = rotate(p.q, p.r, turns)
                q, r = q0 + dq, r0 + dr
                name = f"{q},{r + q // 2}"
                if name not in geo.index or lands[geo.index[name]] != p.landscape:
                    ok = False
                    break
            if ok:
                found.add(anchor)
    return found


def test_a_pair_pattern_has_one_placement_per_ordered_pair_of_adjacent_hexes():
    for side in SIDES:
        geo = geometry(side)
        _, groups = placements(side, "animal_03")  # Fish: Water* + Mountain3
        assert sum(len(g) for g in groups) == sum(len(ns) for ns in geo.neighbours)


def test_a_pattern_must_lie_entirely_on_the_board():
    # Crocodile: Water* Water Tree3 in a line; a corner hex has only 2 straight lines inward.
    _, groups = placements("A", "animal_01")
    order, _ = placements("A", "animal_01")
    corner = geometry("A").index["0,0"]
    assert len(groups[order.index(corner)]) == 2


def test_the_pattern_is_found_in_each_of_its_six_rotations():
    # Frog: Water* next to a height-1 tree; put the tree on each side of a central water hex.
    geo = geometry("A")
    centre = geo.index["2,2"]
    for neighbour in geo.neighbours[centre]:
        lands = [L.EMPTY] * geo.size
        lands[centre] = L.WATER
        lands[neighbour] = L.TREE1
        assert cube_targets("A", lands, 0, "animal_05") == {centre: (centre, neighbour)}


def test_heights_must_match_exactly():
    # Frog needs a height-1 tree: a height-2 tree does not do.
    lands = board_of("A", **{"2_2": ("blue",), "2_1": ("brown", "green")})
    assert cube_targets("A", lands, 0, "animal_05") == {}
    lands = board_of("A", **{"2_2": ("blue",), "2_1": ("green",)})
    assert set(cube_targets("A", lands, 0, "animal_05")) == {geometry("A").index["2,2"]}


def test_a_mountain_of_the_wrong_height_does_not_match():
    # Fish needs a height-3 mountain beside the water.
    lands = board_of("A", **{"2_2": ("blue",), "2_1": ("gray", "gray")})
    assert cube_targets("A", lands, 0, "animal_03") == {}


@pytest.mark.parametrize("building", [("red", "red"), ("brown", "red"), ("gray", "red")])
def test_any_building_matches_a_building_hex(building):
    lands = board_of("A", **{"2_2": ("blue",), "2_1": building})  # Duck: Water* + Building
    assert list(cube_targets("A", lands, 0, "animal_06")) == [geometry("A").index["2,2"]]


def test_a_lone_red_token_is_not_a_building():
    lands = board_of("A", **{"2_2": ("blue",), "2_1": ("red",)})
    assert cube_targets("A", lands, 0, "animal_06") == {}


def test_a_gray_under_red_is_not_a_mountain():
    lands = board_of("A", **{"2_2": ("blue",), "2_1": ("gray", "red"), "2_3": ("gray", "red")})
    assert cube_targets("A", lands, 0, "animal_02") == {}  # Ray: Water* + two Mountain1


def test_the_cube_hex_must_not_carry_a_cube_but_other_hexes_may():
    geo = geometry("A")
    water, tree = geo.index["2,2"], geo.index["2,1"]
    lands = board_of("A", **{"2_2": ("blue",), "2_1": ("green",)})
    assert cube_targets("A", lands, 1 << water, "animal_05") == {}
    assert cube_targets("A", lands, 1 << tree, "animal_05") == {water: (water, tree)}


def test_a_habitat_lists_the_cube_hex_first_then_the_other_pattern_hexes():
    geo = geometry("B")
    lands = [L.WATER] * geo.size
    field = geo.index["3,1"]
    lands[field] = L.FIELD
    targets = cube_targets("B", lands, 0, "animal_30")  # Raccoon: Field* + 3 Water
    habitat = targets[field]
    assert list(targets) == [field]
    assert habitat[0] == field and len(set(habitat)) == 4
    assert all(lands[i] == L.WATER and i in geo.neighbours[field] for i in habitat[1:])


def test_a_symmetric_pattern_offers_both_of_its_ends_as_cube_hex():
    # Cat: Building* - Tree1 - Building in a line; either building may take the cube.
    geo = geometry("B")
    lands = board_of("B", **{"2_0": ("red", "red"), "2_1": ("green",), "2_2": ("gray", "red")})
    targets = cube_targets("B", lands, 0, "spirit_cat")
    assert set(targets) == {geo.index["2,0"], geo.index["2,2"]}


def test_habitat_at_ignores_cubes_and_answers_for_one_hex():
    geo = geometry("A")
    water, tree = geo.index["2,2"], geo.index["2,1"]
    lands = board_of("A", **{"2_2": ("blue",), "2_1": ("green",)})
    assert habitat_at("A", lands, "animal_05", water) == (water, tree)
    assert habitat_at("A", lands, "animal_05", tree) is None


@pytest.mark.parametrize("side", SIDES)
def test_cube_targets_agree_with_a_brute_force_search_on_random_boards(side):
    rng = random.Random(7)
    geo = geometry(side)
    # Few landscapes per board so that patterns actually occur.
    stacks = sorted(LEGAL_STACKS)
    for _ in range(150):
        palette = rng.sample(stacks, 3)
        lands = [LANDSCAPES[rng.choice(palette)] for _ in range(geo.size)]
        cube_mask = rng.getrandbits(geo.size) & rng.getrandbits(geo.size)
        for card_id in rng.sample(ANIMAL_CARD_IDS + SPIRIT_CARD_IDS, 6):
            got = cube_targets(side, lands, cube_mask, card_id)
            assert set(got) == reference_targets(side, lands, cube_mask, card_id)
            for cube_cell, habitat in got.items():
                pattern = sorted(p.landscape for p in CARDS[card_id].pattern)
                assert sorted(lands[i] for i in habitat) == pattern
                assert habitat[0] == cube_cell


def test_every_card_has_placements_on_both_sides():
    for side in SIDES:
        for card_id in CARDS:
            order, groups = placements(side, card_id)
            assert order and all(groups)
