"""Scoring by category (rules §9), spirits (§10) and solo suns (§11), on hand-made boards."""

import json
from pathlib import Path

import pytest

from games.engine.cards import UnknownCard
from games.engine.hexgrid import geometry
from games.engine.interchange import parse_board
from games.engine.river import river_points
from games.engine.scoring import score_board, solo_suns

FIXTURES = Path(__file__).parent / "fixtures"


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def board(side, spec="", fill=()):
    """Stacks from "c,r=colour+colour ..." (bottom to top); other hexes hold `fill`."""
    geo = geometry(side)
    stacks = [tuple(fill)] * geo.size
    for item in spec.split():
        name, colours = item.split("=")
        stacks[geo.index[name]] = tuple(colours.split("+"))
    return stacks


def score(side, spec="", fill=(), cards=()):
    return score_board(side, board(side, spec, fill), 0, cards)


def names(side, cells):
    return [geometry(side).names[i] for i in cells]


# --- the rulebook example (§9.9) -------------------------------------------------------------


def test_the_rulebook_example_scores_116():
    fixture = load("board_rulebook_example_expected.json")
    b = parse_board(load(fixture["board"]))
    sheet = score_board(b.side, b.stacks, b.cube_mask, b.cards)
    assert sheet.as_dict() == fixture["score"]
    assert len(sheet.river_path) == fixture["river_length"]
    assert dict(sheet.cards) == fixture["cards"]


def test_the_rulebook_example_shows_what_earned_the_points():
    fixture = load("board_rulebook_example_expected.json")
    b = parse_board(load(fixture["board"]))
    sheet = score_board(b.side, b.stacks, b.cube_mask, b.cards)
    assert sorted(names("A", sheet.scoring_mountains)) == ["3,2", "4,0", "4,1", "4,2"]
    assert sorted(names("A", sheet.qualifying_buildings)) == ["2,1", "3,1"]
    assert [sorted(names("A", g)) for g in sheet.field_groups] == [
        ["0,0", "0,1"],
        ["1,2", "2,2", "2,3"],
    ]
    assert names("A", sheet.trees_by_height[0]) == ["0,4"]
    assert names("A", sheet.trees_by_height[1]) == ["3,3"]
    assert sheet.islands == ()


# --- trees and mountains (§9.1, §9.2) ----------------------------------------------------------


def test_trees_score_1_3_7_by_height_and_trunks_score_nothing():
    sheet = score("A", "0,0=green 2,0=brown+green 4,0=brown+brown+green 0,4=brown 4,4=brown+brown")
    assert sheet.trees == 1 + 3 + 7


def test_an_isolated_mountain_scores_nothing():
    assert score("A", "0,0=gray+gray+gray 2,2=gray").mountains == 0


def test_adjacent_mountains_each_score_their_own_height():
    sheet = score("A", "2,1=gray 2,2=gray+gray 2,3=gray+gray+gray 0,0=gray")
    assert sheet.mountains == 1 + 3 + 7
    assert sorted(names("A", sheet.scoring_mountains)) == ["2,1", "2,2", "2,3"]


def test_a_gray_under_a_red_is_not_a_mountain_neighbour():
    assert score("A", "2,1=gray+red 2,2=gray+gray").mountains == 0


# --- fields (§9.3) ------------------------------------------------------------------------------


def test_each_group_of_two_or_more_fields_scores_5_whatever_its_size():
    sheet = score("A", "0,0=yellow 0,1=yellow 2,2=yellow 2,3=yellow 2,4=yellow 4,4=yellow")
    assert sheet.fields == 10
    assert len(sheet.field_groups) == 2


# --- buildings (§9.4) ---------------------------------------------------------------------------


def test_a_building_with_three_neighbour_colours_scores_5():
    assert score("A", "2,2=red+red 2,1=blue 3,1=gray 3,2=yellow").buildings == 5


def test_repeated_colours_and_empty_neighbours_count_once_or_not_at_all():
    assert score("A", "2,2=red+red 2,1=blue 3,1=blue 3,2=yellow").buildings == 0


def test_a_lone_red_is_not_a_building_but_is_a_red_neighbour():
    sheet = score("A", "2,2=gray+red 2,1=red 3,1=blue 3,2=yellow")
    assert sheet.buildings == 5
    assert names("A", sheet.qualifying_buildings) == ["2,2"]


def test_neighbour_colours_are_the_top_tokens():
    # A trunk is brown, a tree green, a mountain gray, a building red.
    assert score("A", "2,2=brown+red 2,1=brown+brown 3,1=brown+green").buildings == 0
    assert score("A", "2,2=brown+red 2,1=brown 3,1=green 3,2=gray+red").buildings == 5


# --- river, side A (§9.5, §0 D1) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "points"),
    [(0, 0), (1, 0), (2, 2), (3, 5), (4, 8), (5, 11), (6, 15), (7, 19), (8, 23), (12, 39)],
)
def test_river_points_by_length(length, points):
    assert river_points(length) == points


def test_a_straight_river_counts_every_token():
    sheet = score("A", "0,0=blue 0,1=blue 0,2=blue 0,3=blue 0,4=blue")
    assert sheet.water == 11
    assert names("A", sheet.river_path) == ["0,0", "0,1", "0,2", "0,3", "0,4"]


def test_a_ring_of_six_is_a_river_of_four():
    ring = " ".join(f"{n}=blue" for n in ("2,1", "3,1", "3,2", "2,3", "1,2", "1,1"))
    sheet = score("A", ring)
    assert len(sheet.river_path) == 4 and sheet.water == 8


def test_three_mutually_adjacent_water_tokens_are_a_river_of_two():
    sheet = score("A", "2,2=blue 2,3=blue 3,2=blue")
    assert len(sheet.river_path) == 2 and sheet.water == 2


def test_branches_off_the_counted_path_do_not_count():
    # A line of 4 with a branch of 1 from its second token: the longest shortest path is 4.
    sheet = score("A", "0,0=blue 0,1=blue 0,2=blue 0,3=blue 1,0=blue")
    assert len(sheet.river_path) == 4


def test_only_the_best_group_scores():
    sheet = score("A", "0,0=blue 0,1=blue 0,2=blue 4,0=blue 4,1=blue 4,2=blue 4,3=blue")
    assert sheet.water == 8
    assert names("A", sheet.river_path) == ["4,0", "4,1", "4,2", "4,3"]


def test_a_lone_water_token_scores_nothing_and_no_water_scores_nothing():
    assert score("A", "2,2=blue").water == 0
    assert score("A").water == 0
    assert score("A").river_path == ()


def test_a_board_full_of_water_on_side_a_is_a_river_of_seven():
    sheet = score("A", fill=("blue",))
    assert len(sheet.river_path) == 7 and sheet.water == 19


# --- islands, side B (§9.6) --------------------------------------------------------------------


def test_a_side_b_board_without_water_is_one_island():
    sheet = score("B")
    assert sheet.water == 5 and len(sheet.islands) == 1
    assert sheet.river_path == ()


def test_a_board_full_of_water_on_side_b_has_no_island():
    assert score("B", fill=("blue",)).water == 0


def test_water_splits_the_board_into_islands_empty_hexes_included():
    column = " ".join(f"3,{r}=blue" for r in range(3))
    sheet = score("B", column)
    assert sheet.water == 10
    assert [len(i) for i in sheet.islands] == [11, 11]


def test_a_water_token_cut_off_by_the_edge_is_not_an_island():
    sheet = score("B", "0,1=blue 1,0=blue")  # (0,0) becomes an island on its own
    assert sorted(len(i) for i in sheet.islands) == [1, 22]
    assert sheet.water == 10


# --- animal cards (§9.7) -----------------------------------------------------------------------


def test_an_animal_card_is_worth_its_value_after_the_cubes_placed():
    # Frog 15/10/6/4/2: 0 cubes -> 0, 1 -> 2, 3 -> 6, all 5 -> 15.
    values = [score("A", cards=[("animal_05", k)]).animals for k in range(6)]
    assert values == [0, 2, 4, 6, 10, 15]


def test_more_cubes_than_slots_is_refused():
    with pytest.raises(ValueError, match="2 cube slot"):
        score("A", cards=[("animal_25", 3)])


def test_an_unknown_card_is_refused():
    with pytest.raises(UnknownCard):
        score("A", cards=[("animal_99", 0)])


# --- Nature's Spirit cards (§9.8, §10) ---------------------------------------------------------


def spirit(side, spec, card_id, placed=1):
    return score(side, spec, cards=[(card_id, placed)]).spirit


def test_a_spirit_scores_nothing_without_its_cube():
    assert spirit("A", "0,0=yellow 0,1=yellow", "spirit_butterfly", placed=0) == 0


def test_the_lion_example_of_the_rulebook_scores_14():
    spec = "0,0=yellow 0,1=yellow 4,4=yellow 2,1=yellow 2,2=yellow 2,3=yellow"
    assert spirit("A", spec, "spirit_lion") == 2 + 2 + 10


def test_the_butterfly_scores_5_per_field_group_lone_tokens_included():
    assert spirit("A", "0,0=yellow 0,1=yellow 4,4=yellow", "spirit_butterfly") == 10


def test_the_deer_scores_4_per_tree_of_height_2_or_3():
    spec = "0,0=green 1,0=brown+green 2,0=brown+brown+green 4,4=brown"
    assert spirit("A", spec, "spirit_deer") == 8


def test_the_owl_scores_3_per_short_tree_and_1_per_tall_tree():
    spec = "0,0=green 1,0=brown+green 2,0=brown+brown+green"
    assert spirit("A", spec, "spirit_owl") == 3 + 3 + 1


def test_the_cat_scores_4_per_building_group_and_a_lone_red_does_not_connect():
    # Two buildings joined only through a lone red: two groups. A third building alone.
    spec = "0,0=red+red 0,1=red 0,2=gray+red 4,4=brown+red"
    assert spirit("A", spec, "spirit_cat") == 12


def test_the_stork_scores_6_per_group_of_two_or_more_buildings():
    spec = "0,0=red+red 0,1=gray+red 0,2=brown+red 4,4=brown+red 2,2=red 2,3=red+red"
    assert spirit("A", spec, "spirit_stork") == 6


def test_the_ram_scores_4_per_tall_mountain_isolated_included():
    spec = "0,0=gray 2,2=gray+gray 4,4=gray+gray+gray"
    assert spirit("A", spec, "spirit_ram") == 8


def test_the_marmot_scores_3_per_short_mountain_and_1_per_tall_one():
    spec = "0,0=gray 2,2=gray+gray 4,4=gray+gray+gray 3,3=gray+red"
    assert spirit("A", spec, "spirit_marmot") == 3 + 3 + 1


def test_the_dragonfly_scores_7_per_group_of_two_or_more_water_tokens():
    spec = "0,0=blue 0,1=blue 4,4=blue 2,2=blue 2,3=blue 2,4=blue"
    assert spirit("B", spec.replace("2,4", "2,1").replace("4,4", "6,3"), "spirit_dragonfly") == 14


def test_the_tortoise_scores_2_per_water_token():
    assert spirit("B", "0,0=blue 0,1=blue 6,3=blue", "spirit_tortoise") == 6


def test_spirit_points_are_added_to_the_total():
    sheet = score("A", "0,0=blue 0,1=blue", cards=[("spirit_tortoise", 1), ("animal_05", 1)])
    assert (sheet.water, sheet.spirit, sheet.animals) == (2, 4, 2)
    assert sheet.total == 8
    assert sheet.cards == (("spirit_tortoise", 4), ("animal_05", 2))


# --- adversarial boards --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side", "fill", "expected"),
    [
        ("A", ("blue",), {"water": 19, "total": 19}),
        ("B", ("blue",), {}),
        ("A", ("gray", "gray", "gray"), {"mountains": 161, "total": 161}),
        ("B", ("gray", "gray", "gray"), {"mountains": 175, "water": 5, "total": 180}),
        ("A", ("brown", "brown", "green"), {"trees": 161, "total": 161}),
        ("B", ("brown", "brown", "green"), {"trees": 175, "water": 5, "total": 180}),
        ("A", ("red", "red"), {}),
        ("B", ("gray", "red"), {"water": 5, "total": 5}),
        ("A", ("yellow",), {"fields": 5, "total": 5}),
        ("A", ("brown", "brown"), {}),
    ],
)
def test_uniform_boards(side, fill, expected):
    sheet = score(side, fill=fill).as_dict()
    assert {k: v for k, v in sheet.items() if v} == expected


def test_a_wrong_number_of_stacks_is_refused():
    with pytest.raises(ValueError, match="23 hexes"):
        score_board("A", [()] * 25, 0)


def test_an_illegal_stack_is_refused():
    stacks = board("A")
    stacks[3] = ("blue", "gray")
    with pytest.raises(ValueError, match="not a legal stack"):
        score_board("A", stacks, 0)


# --- solo suns (§11) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "side", "spirit_id", "suns"),
    [
        (130, "A", "spirit_lion", 7),  # the rulebook example
        (0, "B", "spirit_deer", 0),
        (39, "B", "spirit_deer", 0),
        (40, "B", "spirit_deer", 1),
        (69, "B", "spirit_owl", 1),
        (70, "B", "spirit_owl", 2),
        (90, "B", "spirit_ram", 3),
        (110, "B", "spirit_ram", 4),
        (139, "B", "spirit_ram", 5),
        (140, "B", "spirit_ram", 6),
        (150, "B", "spirit_ram", 7),
        (160, "B", "spirit_ram", 8),
        (400, "A", None, 11),  # the maximum
        (100, "A", "spirit_tortoise", 4),
        (100, "B", "spirit_dragonfly", 4),
        (100, "B", None, 5),
    ],
)
def test_solo_suns(total, side, spirit_id, suns):
    assert solo_suns(total, side, spirit_id) == suns


def test_solo_suns_refuse_an_animal_card_as_spirit():
    with pytest.raises(ValueError, match="not a Nature's Spirit"):
        solo_suns(100, "A", "animal_01")
