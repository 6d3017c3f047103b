"""The rules in words (games/engine/explain.py): cards explain themselves, and every score
explanation adds up to the engine's figure, on worked boards and on random legal ones."""

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameConfig, score_sheets, view_for
from games.engine.cards import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS, UnknownCard, card
from games.engine.explain import (
    TIMES,
    card_help,
    explain_board,
    explain_view,
    sum_words,
)
from games.engine.hexgrid import geometry
from games.engine.interchange import parse_board
from games.engine.policies import random_policy
from games.engine.scoring import score_board
from games.engine.simulate import play
from games.engine.tokens import Landscape
from tests.engine.test_scoring_properties import SETTINGS, boards, hands

FIXTURES = Path(__file__).parent / "fixtures"
# How each pattern hex may be named in a habitat sentence.
STEMS = {
    Landscape.WATER: r"water",
    Landscape.FIELD: r"fields?\b",
    Landscape.BUILDING: r"buildings?\b",
    **{Landscape[f"TREE{h}"]: rf"trees? of height {h}" for h in (1, 2, 3)},
    **{Landscape[f"MOUNTAIN{h}"]: rf"mountains? of height {h}" for h in (1, 2, 3)},
}
CATEGORIES = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")


def board(side, spec=""):
    """Stacks from "c,r=colour+colour ..." (bottom to top); other hexes are empty."""
    geo = geometry(side)
    stacks = [()] * geo.size
    for item in spec.split():
        name, colours = item.split("=")
        stacks[geo.index[name]] = tuple(colours.split("+"))
    return stacks


def explained(side, spec="", cards=()):
    return {line.category: line for line in explain_board(side, board(side, spec), cards)}


def assert_adds_up(lines, sheet):
    assert [line.category for line in lines] == list(CATEGORIES)
    for line in lines:
        assert line.total == sum(line.parts) == getattr(sheet, line.category), line
        assert all(part >= 0 for part in line.parts)
        # The sentence ends its sum on the figure (notes of what scored nothing come after).
        assert f": {sum_words(line.parts)}" in line.text or line.category == "animals"
        assert str(line.total) in line.text


# --- cards -----------------------------------------------------------------------------------


def test_the_crocodile_says_its_habitat_its_cube_and_its_points():
    help = card_help("animal_01")
    assert help.name == "Crocodile" and help.kind == "animal"
    assert help.habitat.startswith(
        "Habitat of 3 hexes in a line: water, water, then a tree of height 3."
    )
    assert help.cube == "The cube goes on the water at the end away from the tree of height 3."
    assert help.points.startswith("Its 3 cubes uncover 4, 9, then 15 points")
    assert help.progress == ""  # nobody holds a card of the display
    assert help.rules_anchor == "cards"
    assert help.lines == (help.habitat, help.cube, help.points)


def test_a_held_card_says_how_many_cubes_are_left_and_what_the_next_earns():
    assert card_help("animal_01", 0).progress == (
        "No cube placed yet (worth 0): 3 cubes left; the next makes it worth 4 (4 more)."
    )
    assert card_help("animal_01", 1).progress == (
        "1 of 3 cubes placed (worth 4): 2 cubes left; the next makes it worth 9 (5 more)."
    )
    assert card_help("animal_01", 2).progress.endswith(
        "1 cube left; the next makes it worth 15 (6 more)."
    )
    assert card_help("animal_01", 3).progress == (
        "Completed: all 3 cubes are placed, worth 15 points."
    )


def test_each_shape_is_put_in_words():
    assert card_help("animal_10").habitat.startswith(  # Peacock
        "Habitat of 3 hexes in a bent line (the ends do not touch): water, a building, then water."
    )
    assert card_help("animal_10").cube == "The cube goes on the building at the bend."
    assert card_help("animal_14").habitat.startswith(  # Bear
        "Habitat of 3 hexes that all touch: a tree of height 1 and two mountains of height 2."
    )
    assert card_help("animal_13").habitat.startswith(  # Bee
        "Habitat of 4 hexes in a diamond: a tree of height 2 and a field in the middle,"
        " a field at each tip."
    )
    assert card_help("animal_13").cube == "The cube goes on the tree of height 2 in the middle."
    assert card_help("animal_31").habitat.startswith(  # Ladybug
        "Habitat of 2 touching hexes: a field and a tree of height 1."
    )


def test_heights_are_mentioned_only_where_a_pattern_has_them():
    assert card_help("animal_01").habitat.endswith("counts; heights must match exactly.")
    assert card_help("animal_07").habitat.endswith("two fields. Any rotation counts.")  # Flamingo


def test_a_spirit_says_how_it_scores_and_whether_its_cube_is_placed():
    help = card_help("spirit_lion")
    assert help.kind == "spirit" and help.rules_anchor == "spirits"
    assert help.cube == "Its one cube, the Nature's Spirit cube, goes on the field in the middle."
    assert card("spirit_lion").scoring_text in help.points
    assert help.progress == ""
    assert "still on the card" in card_help("spirit_lion", 0).progress
    assert card_help("spirit_lion", 1).progress == "Its cube is placed, so the card will score."


@pytest.mark.parametrize("card_id", ANIMAL_CARD_IDS + SPIRIT_CARD_IDS)
def test_every_card_names_each_hex_of_its_habitat_and_every_cube_state(card_id):
    c = card(card_id)
    for placed in (None, *range(c.cube_count + 1)):
        help = card_help(card_id, placed)
        assert help.habitat and help.cube and help.points
        assert bool(help.progress) == (placed is not None)
        assert help.text == " ".join(help.lines)
    words = card_help(card_id).habitat
    for cell in c.pattern:
        assert re.search(STEMS[cell.landscape], words), (cell, words)
    if c.kind == "animal":
        assert all(str(v) in card_help(card_id).points for v in c.points_top_to_bottom)


def test_impossible_cube_counts_and_unknown_cards_are_refused():
    with pytest.raises(ValueError, match="Crocodile has 3 cube"):
        card_help("animal_01", 4)
    with pytest.raises(ValueError):
        card_help("animal_01", -1)
    with pytest.raises(ValueError):
        card_help("spirit_lion", 2)
    with pytest.raises(ValueError):
        card_help("animal_01", "1")
    with pytest.raises(UnknownCard):
        card_help("animal_99")


# --- sums ------------------------------------------------------------------------------------


def test_sums_are_written_out_and_long_ones_grouped():
    assert sum_words([]) == "0"
    assert sum_words([5]) == "5"
    assert sum_words([1, 3, 7]) == "1 + 3 + 7 = 11"
    assert sum_words([1] * 6 + [3]) == f"6 {TIMES} 1 + 3 = 9"
    assert sum_words([7, 1, 1, 3, 3, 1, 1]) == f"4 {TIMES} 1 + 2 {TIMES} 3 + 7 = 17"


# --- worked boards ---------------------------------------------------------------------------


def test_trees_read_like_the_issue_says():
    lines = explained("A", "0,0=green 2,0=brown+green 4,0=brown+brown+green 0,4=brown")
    assert lines["trees"].parts == (1, 3, 7)
    assert lines["trees"].text == (
        "3 trees: 1 + 3 + 7 = 11; 1 trunk without foliage scores nothing"
    )
    assert explained("A")["trees"].text == "No trees: 0"


def test_mountains_alone_are_said_to_score_nothing():
    lines = explained("A", "0,0=gray 0,1=gray+gray+gray 4,4=gray+gray")
    assert lines["mountains"].text == (
        "2 mountains next to another mountain: 1 + 7 = 8; 1 mountain alone scores nothing"
    )


def test_fields_buildings_and_the_river():
    lines = explained(
        "A",
        "0,0=yellow 0,1=yellow 0,2=yellow 4,4=yellow 2,2=red+red 2,1=blue 3,1=green "
        "1,1=yellow 4,0=gray+red 1,3=blue 2,3=blue 3,3=blue",
    )
    assert lines["fields"].text == (
        "1 group of 2 or more fields (4 fields): 5; 1 field alone scores nothing"
    )
    assert lines["buildings"].text == (
        "1 building with 3 or more colours around: 5; 1 building with fewer colours scores nothing"
    )
    assert lines["water"].label == "River"
    assert lines["water"].text == "Longest river, 3 tokens: 5"


def test_islands_on_side_b():
    lines = explained("B", "1,0=blue 1,1=blue 1,2=blue")
    assert lines["water"].label == "Islands" and lines["water"].rules_anchor == "islands"
    assert lines["water"].text == "2 islands: 5 + 5 = 10"


def test_animal_cards_are_named_with_their_points():
    lines = explained("A", cards=[("animal_01", 2), ("animal_14", 0)])
    assert lines["animals"].text == "2 cards: Crocodile 9 + Bear 0 = 9"
    assert explained("A", cards=[("animal_01", 3)])["animals"].text == "1 card: Crocodile 15"
    assert explained("A")["animals"].text == "No animal cards: 0"


def test_the_lion_counts_the_rulebook_example_and_an_unplaced_spirit_scores_nothing():
    spec = "0,0=yellow 2,0=yellow 4,0=yellow 4,1=yellow 4,2=yellow"
    lines = explained("A", spec, cards=[("spirit_lion", 1)])
    assert lines["spirit"].text == "Lion, 3 scoring groups of fields: 2 + 2 + 10 = 14"
    unplaced = explained("A", spec, cards=[("spirit_lion", 0)])
    assert unplaced["spirit"].text == "Lion (cube not placed): 0"
    assert explained("A")["spirit"].text == "No Nature's Spirit card: 0"


def test_a_counting_spirit_lists_what_it_counts():
    spec = "0,0=brown+green 2,0=brown+brown+green 4,0=green"
    lines = explained("A", spec, cards=[("spirit_deer", 1)])
    assert lines["spirit"].text == "Deer, 2 scoring trees: 4 + 4 = 8"


def test_the_rulebook_example_adds_up_line_by_line():
    fixture = json.loads((FIXTURES / "board_rulebook_example_expected.json").read_text())
    b = parse_board(json.loads((FIXTURES / fixture["board"]).read_text()))
    sheet = score_board(b.side, b.stacks, b.cube_mask, b.cards)
    lines = explain_board(b.side, b.stacks, b.cards, sheet)
    assert_adds_up(lines, sheet)
    by_category = {line.category: line for line in lines}
    assert by_category["water"].text == "Longest river, 7 tokens: 19"
    assert by_category["buildings"].parts == (5, 5)
    assert by_category["animals"].total == 63


def test_a_board_the_engine_refuses_is_refused_here_too():
    with pytest.raises(ValueError):
        explain_board("A", [("blue", "blue")] + [()] * 22)
    with pytest.raises(ValueError):
        explain_board("C", [])


# --- properties ------------------------------------------------------------------------------


@SETTINGS
@given(boards(), hands())
def test_every_explanation_adds_up_to_the_score_sheet_on_random_boards(board, hand):
    side, stacks = board
    sheet = score_board(side, stacks, 0, hand)
    assert_adds_up(explain_board(side, stacks, hand), sheet)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 4),
    side=st.sampled_from("AB"),
    spirits=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_every_explanation_adds_up_in_random_legal_games(players, side, spirits, seed):
    config = GameConfig(players=players, side=side, spirits=spirits)
    state, _ = play(config, seed, (random_policy,) * players, random.Random(seed))
    view = view_for(state, None)
    for player, sheet in zip(view["players"], score_sheets(state), strict=True):
        assert_adds_up(explain_view(side, player), sheet)
        assert_adds_up(explain_view(side, player, sheet), sheet)
