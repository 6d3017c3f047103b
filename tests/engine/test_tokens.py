"""Stacking (rules §4.1) and what a stack is (rules §4.2)."""

import itertools

import pytest

from games.engine.tokens import (
    COLOURS,
    LANDSCAPES,
    LEGAL_STACKS,
    TOKEN_SUPPLY,
    Landscape,
    can_place,
    landscape,
    placement_error,
    top_colour,
)

# Rules §4.1, the complete list, bottom to top.
RULES_LEGAL_STACKS = """blue · yellow · green · brown · brown,green · brown,brown ·
brown,brown,green · gray · gray,gray · gray,gray,gray · red · red,red · brown,red · gray,red"""

# Rules §4.1 table of additions on a non-empty stack.
RULES_ADDITIONS = {
    (("brown",), "brown"),
    (("brown",), "green"),
    (("brown",), "red"),
    (("brown", "brown"), "green"),
    (("gray",), "gray"),
    (("gray",), "red"),
    (("gray", "gray"), "gray"),
    (("red",), "red"),
}


def all_stacks(max_height: int = 4):
    for height in range(max_height + 1):
        yield from itertools.product(COLOURS, repeat=height)


def test_there_are_120_tokens_in_six_colours():
    assert set(TOKEN_SUPPLY) == set(COLOURS)
    assert sum(TOKEN_SUPPLY.values()) == 120
    assert TOKEN_SUPPLY["blue"] == 23


def test_the_legal_stacks_are_exactly_the_14_of_the_rules():
    printed = {tuple(s.split(",")) for s in RULES_LEGAL_STACKS.replace("\n", " ").split(" · ")}
    printed = {tuple(c.strip() for c in s) for s in printed}
    assert len(printed) == 14
    assert printed == LEGAL_STACKS


def test_any_colour_may_go_on_an_empty_hex():
    for colour in COLOURS:
        assert can_place((), colour)
        assert placement_error((), colour) is None


def test_only_the_additions_of_the_rules_table_are_legal_on_a_non_empty_stack():
    allowed = {
        (stack, colour) for stack in LEGAL_STACKS for colour in COLOURS if can_place(stack, colour)
    }
    assert allowed == RULES_ADDITIONS


def test_can_place_and_placement_error_always_agree():
    for stack in all_stacks(3):
        for colour in (*COLOURS, "purple"):
            error = placement_error(stack, colour)
            assert (error is None) == can_place(stack, colour), (stack, colour)
            if error is not None:
                assert isinstance(error, str) and error


@pytest.mark.parametrize(
    ("stack", "colour", "reason"),
    [
        (("brown",), "yellow", "a field token can only go on an empty hex"),
        (("gray",), "blue", "a water token can only go on an empty hex"),
        (("red", "red"), "red", "nothing can be stacked on a building"),
        (("brown", "red"), "gray", "nothing can be stacked on a building"),
        (("gray", "gray", "gray"), "gray", "a stack is at most 3 tokens high"),
        (("brown", "brown", "green"), "green", "a stack is at most 3 tokens high"),
        (("blue",), "blue", "nothing can be stacked on a water token"),
        (("yellow",), "green", "nothing can be stacked on a field token"),
        (("green",), "green", "nothing can be stacked on a tree's foliage"),
        (("brown", "brown"), "brown", "a trunk is at most 2 brown tokens high"),
        (("brown", "brown"), "red", "red cannot go at level 3"),
        (("gray", "gray"), "red", "red cannot go at level 3"),
        (("brown",), "gray", "a mountain token can only go on an empty hex or on 1 or 2 gray"),
        (("red",), "green", "foliage token can only go on an empty hex or on 1 or 2 brown"),
        (("gray",), "brown", "a trunk token can only go on an empty hex or on 1 brown token"),
        (("red",), "gray", "a mountain token can only go"),
        ((), "purple", "'purple' is not a token colour"),
        (("blue", "gray"), "gray", "is not a legal stack"),
    ],
)
def test_an_illegal_placement_is_explained(stack, colour, reason):
    assert reason in placement_error(stack, colour)


def test_a_field_token_cannot_go_on_a_tree():
    assert not can_place(("brown", "green"), "yellow")
    assert placement_error(("brown", "green"), "yellow") == (
        "nothing can be stacked on a tree's foliage"
    )


def test_every_legal_stack_and_the_empty_hex_have_a_landscape():
    assert set(LANDSCAPES) == LEGAL_STACKS | {()}


@pytest.mark.parametrize(
    ("stack", "expected"),
    [
        ((), Landscape.EMPTY),
        (("blue",), Landscape.WATER),
        (("yellow",), Landscape.FIELD),
        (("green",), Landscape.TREE1),
        (("brown", "green"), Landscape.TREE2),
        (("brown", "brown", "green"), Landscape.TREE3),
        (("brown",), Landscape.TRUNK),
        (("brown", "brown"), Landscape.TRUNK),
        (("gray",), Landscape.MOUNTAIN1),
        (("gray", "gray"), Landscape.MOUNTAIN2),
        (("gray", "gray", "gray"), Landscape.MOUNTAIN3),
        (("red", "red"), Landscape.BUILDING),
        (("brown", "red"), Landscape.BUILDING),
        (("gray", "red"), Landscape.BUILDING),
        (("red",), Landscape.LONE_RED),
    ],
)
def test_each_stack_is_the_landscape_of_rules_4_2(stack, expected):
    assert landscape(stack) is expected


def test_an_impossible_stack_has_no_landscape():
    with pytest.raises(ValueError, match="not a legal stack"):
        landscape(("blue", "blue"))
    with pytest.raises(ValueError, match="not a legal stack"):
        landscape(["blue"])


def test_the_colour_of_a_hex_is_its_top_token():
    assert top_colour(()) is None
    assert top_colour(("gray", "red")) == "red"
    assert top_colour(("brown", "brown", "green")) == "green"
