"""Cards loaded from data/cards.json, checked against the tables of rules §7.3 and §10."""

import json
import re

import pytest

from games.engine.cards import (
    ANIMAL_CARD_IDS,
    CARDS,
    DATA_FILE,
    SPIRIT_CARD_IDS,
    UnknownCard,
    card,
)
from games.engine.hexgrid import DIRECTIONS, rotate
from games.engine.tokens import Landscape

RAW = json.loads(DATA_FILE.read_text(encoding="utf-8"))

# Rules §7.3: number -> (name, stripe, shape, pattern, points top to bottom).
RULES_ANIMALS = """
1 Crocodile blue line Water(0,0)* Water(-1,0) Tree3(-2,0) 15/9/4
2 Ray blue triangle Water(0,0)* Mtn1(-1,0) Mtn1(-1,1) 16/10/4
3 Fish blue pair Water(0,0)* Mtn3(-1,0) 16/10/6/3
4 Otter blue line Water(0,0)* Tree1(-1,0) Tree1(-2,0) 16/10/5
5 Frog blue pair Water(0,0)* Tree1(-1,0) 15/10/6/4/2
6 Duck blue pair Water(0,0)* Bldg(-1,0) 13/8/4/2
7 Flamingo blue triangle Water(0,0)* Field(-1,0) Field(-1,1) 16/10/4
8 Gecko red line Bldg(0,0)* Field(-1,0) Field(-2,0) 16/10/5
9 Shrew red bent Bldg(0,0)* Field(-1,1) Field(1,0) 17/10/5
10 Peacock red bent Bldg(0,0)* Water(-1,1) Water(1,0) 17/10/5
11 Squirrel red pair Bldg(0,0)* Tree3(-1,0) 15/9/4
12 Hedgehog red triangle Bldg(0,0)* Tree2(-1,0) Tree2(-1,1) 12/5
13 Bee green rhombus Tree2(0,0)* Field(-1,1) Field(0,1) Field(1,0) 18/8
14 Bear green triangle Tree1(0,0)* Mtn2(-1,0) Mtn2(-1,1) 11/5
15 Rabbit green line Tree1(0,0)* Tree1(-1,0) Bldg(-2,0) 17/10/5
16 Parrot green triangle Tree2(0,0)* Water(-1,0) Water(-1,1) 14/9/4
17 Boar green pair Tree2(0,0)* Bldg(-1,0) 13/8/4
18 Koala green pair Tree2(0,0)* Tree1(-1,0) 15/10/6/3
19 Wolf green triangle Tree3(0,0)* Field(-1,0) Field(-1,1) 16/10/4
20 Kingfisher green bent Tree3(0,0)* Water(-1,1) Water(1,0) 18/11/5
21 Penguin gray bent Mtn1(0,0)* Water(-1,1) Water(1,0) 16/10/4
22 Bat gray pair Mtn1(0,0)* Tree3(-1,0) 15/10/6/3
23 Fennec_Fox gray line Mtn1(0,0)* Mtn1(-1,0) Field(-2,0) 16/9/4
24 Macaque gray triangle Mtn2(0,0)* Water(-1,0) Water(-1,1) 11/5
25 Eagle gray pair Mtn3(0,0)* Field(-1,0) 11/5
26 Meerkat gray pair Mtn1(0,0)* Field(-1,0) 14/9/5/2
27 Raven yellow bent Field(0,0)* Bldg(-1,1) Bldg(1,0) 9/4
28 Llama yellow line Field(0,0)* Field(-1,0) Mtn2(-2,0) 12/5
29 Arctic_Fox yellow bent Field(0,0)* Tree2(-1,1) Tree2(1,0) 17/10/5
30 Raccoon yellow rhombus Field(0,0)* Water(-1,1) Water(0,1) Water(1,0) 12/6
31 Ladybug yellow pair Field(0,0)* Tree1(-1,0) 17/12/8/5/2
32 Panther yellow line Field(0,0)* Tree2(-1,0) Tree2(-2,0) 11/5
"""

# Rules §10: number -> (name, stripe, shape, pattern, family, solo sun bonus).
RULES_SPIRITS = """
33 Lion yellow line Field(0,0)* Tree2(-1,0) Field(1,0) groups 1
34 Butterfly yellow rhombus Field(0,0)* Water(-1,0) Water(-1,1) Field(-2,1) groups 1
35 Deer green line Tree2(0,0)* Tree3(-1,0) Tree1(1,0) count 0
36 Owl green triangle Tree3(0,0)* Tree1(-1,0) Tree1(-1,1) count 0
37 Cat red line Bldg(0,0)* Tree1(-1,0) Bldg(-2,0) groups 1
38 Stork red line Bldg(0,0)* Bldg(-1,0) Field(-2,0) groups 1
39 Ram gray pair Mtn3(0,0)* Mtn2(-1,0) count 0
40 Marmot gray bent Mtn2(0,0)* Mtn1(-1,1) Mtn1(1,0) count 0
41 Dragonfly blue line Water(0,0)* Tree2(-1,0) Tree2(1,0) groups 1
42 Tortoise blue line Water(0,0)* Mtn2(-1,0) Water(1,0) count 0
"""

NAMES = {
    "Water": Landscape.WATER,
    "Field": Landscape.FIELD,
    "Bldg": Landscape.BUILDING,
    **{f"Tree{h}": Landscape[f"TREE{h}"] for h in (1, 2, 3)},
    **{f"Mtn{h}": Landscape[f"MOUNTAIN{h}"] for h in (1, 2, 3)},
}


def parse_pattern(words):
    cells = set()
    for word in words:
        m = re.fullmatch(r"(\w+)\((-?\d),(-?\d)\)(\*?)", word)
        cells.add((int(m.group(2)), int(m.group(3)), NAMES[m.group(1)], m.group(4) == "*"))
    return cells


def by_number():
    return {c.number: c for c in CARDS.values()}


def test_there_are_32_animal_cards_and_10_spirit_cards_with_sorted_ids():
    assert len(ANIMAL_CARD_IDS) == 32 and len(SPIRIT_CARD_IDS) == 10
    assert list(ANIMAL_CARD_IDS) == sorted(ANIMAL_CARD_IDS)
    assert list(SPIRIT_CARD_IDS) == sorted(SPIRIT_CARD_IDS)
    assert ANIMAL_CARD_IDS[0] == "animal_01" and "spirit_lion" in SPIRIT_CARD_IDS


def test_every_card_of_the_data_file_is_loaded():
    ids = [c["id"] for c in RAW["animal_cards"] + RAW["spirit_cards"]]
    assert sorted(ids) == sorted(CARDS)
    for raw in RAW["animal_cards"] + RAW["spirit_cards"]:
        loaded = card(raw["id"])
        assert loaded.number == raw["bga_type_arg"]
        assert loaded.name == raw["name"]
        assert {(p.q, p.r, p.is_cube) for p in loaded.pattern} == {
            (p["q"], p["r"], p["cube"]) for p in raw["pattern"]
        }


def test_the_animal_cards_have_the_patterns_and_points_of_the_rules_table():
    cards = by_number()
    for line in RULES_ANIMALS.strip().splitlines():
        number, name, stripe, shape, *pattern, points = line.split()
        c = cards[int(number)]
        assert c.kind == "animal"
        assert c.name == name.replace("_", " ")
        assert (c.stripe, c.shape) == (stripe, shape)
        assert {(p.q, p.r, p.landscape, p.is_cube) for p in c.pattern} == parse_pattern(pattern)
        top_to_bottom = tuple(int(p) for p in points.split("/"))
        assert c.points_top_to_bottom == top_to_bottom
        assert c.cube_count == len(top_to_bottom)
        assert c.score_by_cubes_placed == (0, *reversed(top_to_bottom))


def test_the_spirit_cards_have_the_patterns_of_the_rules_table():
    cards = by_number()
    for line in RULES_SPIRITS.strip().splitlines():
        number, name, stripe, shape, *pattern, family, bonus = line.split()
        c = cards[int(number)]
        assert c.kind == "spirit" and c.id == f"spirit_{name.lower()}"
        assert (c.name, c.stripe, c.shape) == (name, stripe, shape)
        assert {(p.q, p.r, p.landscape, p.is_cube) for p in c.pattern} == parse_pattern(pattern)
        assert c.scoring_family == family
        assert c.solo_sun_bonus == int(bonus)
        assert c.cube_count == 1
        assert c.spirit_rule is not None


def test_the_animal_cards_hold_96_cube_slots_in_total():
    assert sum(card(i).cube_count for i in ANIMAL_CARD_IDS) == 96


def test_stripe_counts_match_the_rules():
    stripes = [card(i).stripe for i in ANIMAL_CARD_IDS]
    counts = {c: stripes.count(c) for c in set(stripes)}
    assert counts == {"blue": 7, "red": 5, "green": 8, "gray": 6, "yellow": 6}


def test_the_cube_hex_is_first_at_the_origin_and_matches_the_stripe():
    stripe_of = {
        Landscape.WATER: "blue",
        Landscape.FIELD: "yellow",
        Landscape.BUILDING: "red",
        **{Landscape[f"TREE{h}"]: "green" for h in (1, 2, 3)},
        **{Landscape[f"MOUNTAIN{h}"]: "gray" for h in (1, 2, 3)},
    }
    for c in CARDS.values():
        first = c.pattern[0]
        assert (first.q, first.r, first.is_cube) == (0, 0, True)
        assert sum(p.is_cube for p in c.pattern) == 1
        assert stripe_of[first.landscape] == c.stripe


def _shape_of(cells):
    cells = set(cells)
    adjacent = sum(
        1 for a in cells for b in cells if a < b and (b[0] - a[0], b[1] - a[1]) in DIRECTIONS
    )
    return {(2, 1): "pair", (3, 2): "line or bent", (3, 3): "triangle", (4, 5): "rhombus"}[
        (len(cells), adjacent)
    ]


def test_every_pattern_is_connected_and_has_its_named_shape():
    for c in CARDS.values():
        shape = _shape_of((p.q, p.r) for p in c.pattern)
        assert c.shape in shape


def test_no_pattern_is_chiral_so_rotations_are_enough():
    # Rules §0 D2: the mirror image of each pattern equals one of its 6 rotations.
    for c in CARDS.values():
        cells = {(p.q, p.r, p.landscape) for p in c.pattern}
        # Mirror across the N-S axis in axial coordinates: (q, r) -> (-q, r + q).
        mirrored = {(-q, r + q, kind) for q, r, kind in cells}
        rotations = [{(*rotate(q, r, turns), kind) for q, r, kind in cells} for turns in range(6)]
        assert mirrored in rotations, c.id


def test_an_unknown_card_is_a_key_error_with_a_readable_message():
    with pytest.raises(UnknownCard) as caught:
        card("animal_99")
    assert isinstance(caught.value, KeyError)
    assert str(caught.value) == "unknown card 'animal_99'"
