"""Tokens, legal stacks and what a stack is (rules §2, §4.1, §4.2).

A stack is a tuple of colours, bottom to top; () is an empty hex. Everything here is a lookup in
tables built at import, because scoring and move generation ask these questions constantly.
"""

from __future__ import annotations

import enum

from .words import _

COLOURS = ("blue", "gray", "brown", "green", "yellow", "red")
TOKEN_SUPPLY = {"blue": 23, "gray": 23, "brown": 21, "green": 19, "yellow": 19, "red": 15}
MAX_HEIGHT = 3

Stack = tuple[str, ...]

# The 14 legal non-empty stacks of rules §4.1, bottom to top.
LEGAL_STACKS: frozenset[Stack] = frozenset(
    {
        ("blue",),
        ("yellow",),
        ("green",),
        ("brown",),
        ("brown", "green"),
        ("brown", "brown"),
        ("brown", "brown", "green"),
        ("gray",),
        ("gray", "gray"),
        ("gray", "gray", "gray"),
        ("red",),
        ("red", "red"),
        ("brown", "red"),
        ("gray", "red"),
    }
)

# The landscape word for each colour, the one name players use for it everywhere.
COLOUR_NAMES = {
    "blue": "water",
    "gray": "mountain",
    "brown": "trunk",
    "green": "foliage",
    "yellow": "field",
    "red": "building",
}
# What each colour is called in a sentence to a player.
TOKEN_NAMES = {colour: f"a {name} token" for colour, name in COLOUR_NAMES.items()}


class Landscape(enum.IntEnum):
    """What a stack is for scoring and habitat matching (rules §4.2)."""

    EMPTY = 0
    WATER = 1
    FIELD = 2
    TREE1 = 3
    TREE2 = 4
    TREE3 = 5
    MOUNTAIN1 = 6
    MOUNTAIN2 = 7
    MOUNTAIN3 = 8
    BUILDING = 9
    TRUNK = 10  # one or two brown tokens: not a tree, scores nothing
    LONE_RED = 11  # a single red token: not a building, but a red top for its neighbours


LANDSCAPES: dict[Stack, Landscape] = {
    (): Landscape.EMPTY,
    ("blue",): Landscape.WATER,
    ("yellow",): Landscape.FIELD,
    ("green",): Landscape.TREE1,
    ("brown", "green"): Landscape.TREE2,
    ("brown", "brown", "green"): Landscape.TREE3,
    ("gray",): Landscape.MOUNTAIN1,
    ("gray", "gray"): Landscape.MOUNTAIN2,
    ("gray", "gray", "gray"): Landscape.MOUNTAIN3,
    ("red", "red"): Landscape.BUILDING,
    ("brown", "red"): Landscape.BUILDING,
    ("gray", "red"): Landscape.BUILDING,
    ("brown",): Landscape.TRUNK,
    ("brown", "brown"): Landscape.TRUNK,
    ("red",): Landscape.LONE_RED,
}

# The colour of the top token of each landscape (None for an empty hex), rules §4.2.
LANDSCAPE_TOP: dict[Landscape, str | None] = {
    Landscape.EMPTY: None,
    Landscape.WATER: "blue",
    Landscape.FIELD: "yellow",
    Landscape.TREE1: "green",
    Landscape.TREE2: "green",
    Landscape.TREE3: "green",
    Landscape.MOUNTAIN1: "gray",
    Landscape.MOUNTAIN2: "gray",
    Landscape.MOUNTAIN3: "gray",
    Landscape.BUILDING: "red",
    Landscape.TRUNK: "brown",
    Landscape.LONE_RED: "red",
}

TREE_HEIGHT = {Landscape.TREE1: 1, Landscape.TREE2: 2, Landscape.TREE3: 3}
MOUNTAIN_HEIGHT = {Landscape.MOUNTAIN1: 1, Landscape.MOUNTAIN2: 2, Landscape.MOUNTAIN3: 3}

_LEGAL_ADDITIONS: frozenset[tuple[Stack, str]] = frozenset(
    (stack[:-1], stack[-1]) for stack in LEGAL_STACKS
)


def can_place(stack: Stack, colour: str) -> bool:
    """Whether `colour` may go on top of `stack` (ignores cubes: the board checks those)."""
    return (stack, colour) in _LEGAL_ADDITIONS


def placement_error(stack: Stack, colour: str) -> str | None:
    """None when `colour` may go on `stack`, else the reason in words a player understands."""
    if (stack, colour) in _LEGAL_ADDITIONS:
        return None
    if colour not in TOKEN_NAMES:
        return f"{colour!r} is not a token colour (expected one of {', '.join(COLOURS)})"
    if stack and stack not in LEGAL_STACKS:
        return f"{list(stack)} is not a legal stack"
    if len(stack) >= MAX_HEIGHT:
        return _("a stack is at most 3 tokens high")
    kind = LANDSCAPES[stack]
    if kind is Landscape.BUILDING:
        return _("nothing can be stacked on a building")
    if kind is Landscape.WATER:
        return _("nothing can be stacked on a water token")
    if kind is Landscape.FIELD:
        return _("nothing can be stacked on a field token")
    if kind in TREE_HEIGHT:
        return _("nothing can be stacked on a tree's foliage")
    if colour == "blue":
        return _("a water token can only go on an empty hex")
    if colour == "yellow":
        return _("a field token can only go on an empty hex")
    if colour == "green":
        return _("a foliage token can only go on an empty hex or on 1 or 2 brown tokens")
    if colour == "gray":
        return _("a mountain token can only go on an empty hex or on 1 or 2 gray tokens")
    if colour == "brown":
        if stack == ("brown", "brown"):
            return _("a trunk is at most 2 brown tokens high")
        return _("a trunk token can only go on an empty hex or on 1 brown token")
    # red: the only remaining illegal cases are a red on top of a 2-token stack.
    if len(stack) == 2:
        return _("a building is exactly 2 tokens high: red cannot go at level 3")
    return _("a building token can only go on an empty hex or on 1 red, brown or gray token")


def no_token_error(colour: str) -> str:
    """Why a player cannot place a `colour` token they do not have in hand."""
    return {
        "blue": _("you have no blue token to place"),
        "gray": _("you have no gray token to place"),
        "brown": _("you have no brown token to place"),
        "green": _("you have no green token to place"),
        "yellow": _("you have no yellow token to place"),
        "red": _("you have no red token to place"),
    }.get(colour) or f"you have no {colour} token to place"


def landscape(stack: Stack) -> Landscape:
    """What `stack` is (rules §4.2); ValueError for a stack that cannot occur."""
    try:
        return LANDSCAPES[stack]
    except (KeyError, TypeError):
        raise ValueError(f"{stack!r} is not a legal stack") from None


def top_colour(stack: Stack) -> str | None:
    """The colour of the top token, which is what "the colour of a hex" means (rules §4.2)."""
    return stack[-1] if stack else None
