"""The rules page's worked examples and tables are the engine's: each example, scored again
through the engine's board interchange format (rules §14), gives the figure the page prints, and
the tables agree with scoring boards built for them."""

import pytest

from games.engine import SPIRIT_CARD_IDS, card, geometry, solo_suns
from games.engine.interchange import score_json
from games.engine.tokens import COLOURS, LEGAL_STACKS, placement_error
from games.presenters.rules import rules_page, stack_rows, sun_bands, sun_bonuses
from games.presenters.rules_examples import examples


def _engine_score(example) -> dict[str, int]:
    return score_json(
        {
            "side": example.side,
            "stacks": {name: list(stack) for name, stack in example.stacks.items()},
            "cube_hexes": list(example.cube_hexes),
            "cards": [{"id": c, "cubes_placed": n} for c, n in example.cards],
        }
    )


@pytest.mark.parametrize("key", sorted(examples()))
def test_each_example_prints_the_engines_figure_and_its_lines_add_up_to_it(key):
    example = examples()[key]
    assert example.points == _engine_score(example)[example.category]
    assert sum(line.points for line in example.lines) == example.points
    assert example.points > 0, "an example that scores nothing explains nothing"


def test_the_examples_come_to_the_figures_the_rules_give():
    figures = {key: example.points for key, example in examples().items()}
    assert figures == {
        "trees": 1 + 3 + 7,  # heights 1, 2 and 3; the bare trunk scores nothing
        "mountains": 3 + 1 + 7,  # the lone mountain of height 3 scores nothing
        "fields": 5 + 5,  # groups of 3 and 2; the lone field token scores nothing
        "buildings": 5,  # one building sees 3 colours, the other only water
        "river": 15,  # 6 tokens long: the branch and the shorter river do not count
        "islands": 3 * 5,
        "cards": 4,  # Fennec Fox with 1 of its 3 cubes placed
        "spirits": 2 + 2 + 10,  # the rulebook's Lion example
    }


@pytest.mark.parametrize("key", sorted(examples()))
def test_each_board_picture_draws_the_example_and_says_what_every_hex_holds(key):
    example = examples()[key]
    svg = str(example.board)
    assert f"board-{example.side}" in svg and 'aria-label="' in svg
    for name in geometry(example.side).names:
        assert f'data-cell="{name}"' in svg
    for name in example.cube_hexes:
        cell = svg.split(f'data-cell="{name}"', 1)[1].split("</title>", 1)[0]
        assert "cube" in cell, f"{key}: the cube on {name} is not told"


def test_the_habitat_example_outlines_the_habitat_the_engine_found():
    example = examples()["cards"]
    assert str(example.board).count("hex-habitat") == len(card(example.cards[0][0]).pattern)


def test_the_point_tables_agree_with_scoring_boards_built_for_them():
    page = rules_page()
    for height, points in page["tree_points"]:
        stack = ["brown"] * (height - 1) + ["green"]
        assert score_json({"side": "A", "stacks": {"0,0": stack}})["trees"] == points
    for height, points in page["mountain_points"]:
        # Beside a mountain of height 1, which scores its own 1 point.
        stacks = {"0,0": ["gray"] * height, "0,1": ["gray"]}
        assert score_json({"side": "A", "stacks": stacks})["mountains"] == points + 1
    for length, points in page["river_points"][:5]:  # a straight river down the first column
        stacks = {f"0,{row}": ["blue"] for row in range(length)}
        assert score_json({"side": "A", "stacks": stacks})["water"] == points
    assert page["ring_length"] == 4  # rules §0 D1: a ring of 6 water tokens is 4 long


def test_the_stack_table_lists_every_legal_stack_with_what_the_engine_lets_on_it():
    rows = stack_rows()
    assert {row["stack"] for row in rows} == {*LEGAL_STACKS, ()}
    for row in rows:
        allowed = [c for c in COLOURS if placement_error(row["stack"], c) is None]
        assert row["takes"] == allowed


def test_the_sun_table_gives_every_score_the_engines_suns():
    bands = sun_bands()
    plain = next(s for s in SPIRIT_CARD_IDS if card(s).scoring_family == "count")
    for score in range(0, 400):
        band = next(
            b for b in bands if b["low"] <= score and (b["high"] is None or score <= b["high"])
        )
        assert band["suns"] == solo_suns(score, "B", plain)
    assert sun_bonuses() == {"side_a": 1, "no_spirit": 2, "groups_spirit": 1, "count_spirit": 0}
    assert rules_page()["solo_example"]["suns"] == 7  # the rulebook's: 130 on side A with Lion


def test_each_island_of_the_example_says_where_it_lies():
    # Two islands of the same size are told apart by where they are, since the picture does not
    # outline islands (every hex but the water would be outlined).
    words = [line.words for line in examples()["islands"].lines]
    assert words == [
        "An island of 7 hexes, in columns 1 and 2",
        "An island of 7 hexes, in columns 4 and 5",
        "An island of 4 hexes, in column 7",
    ]
