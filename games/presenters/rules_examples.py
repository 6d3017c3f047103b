"""The rules page's worked examples: small boards built here, scored by the engine
(`games.engine.score_board`) and drawn with the board picture the game page uses, so the page's
figures are the engine's and can never disagree with the rules the site plays. games.presenters
.rules puts them on the page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import card, geometry, score_board
from games.engine.habitats import cube_targets
from games.engine.names import card_name, spirit_title
from games.engine.river import components
from games.engine.scoring import (
    BUILDING_POINTS,
    FIELD_GROUP_POINTS,
    ISLAND_POINTS,
    MOUNTAIN_POINTS,
    TREE_POINTS,
    ScoreSheet,
)
from games.engine.tokens import (
    COLOUR_NAMES,
    COLOURS,
    LANDSCAPES,
    MOUNTAIN_HEIGHT,
    TREE_HEIGHT,
    Landscape,
    top_colour,
)
from games.narration import cell_words
from games.pictures.boards import board_svg
from games.pictures.sprite import sprite_url

Stacks = Mapping[str, tuple[str, ...]]

# The worked examples' boards, "col,row" -> stack bottom to top (rules §14). Each shows what its
# category counts and what it does not; the points next to them are the engine's.
TREES: Stacks = {
    "0,1": ("green",),
    "1,1": ("brown", "green"),
    "2,2": ("brown", "brown", "green"),
    "3,1": ("brown", "brown"),
}
MOUNTAINS: Stacks = {
    "1,1": ("gray", "gray"),
    "2,1": ("gray",),
    "2,2": ("gray", "gray", "gray"),
    "4,3": ("gray", "gray", "gray"),
}
FIELDS: Stacks = {
    "0,0": ("yellow",),
    "0,1": ("yellow",),
    "1,0": ("yellow",),
    "3,2": ("yellow",),
    "4,2": ("yellow",),
    "2,4": ("yellow",),
}
BUILDINGS: Stacks = {
    "2,2": ("red", "red"),
    "2,1": ("blue",),
    "3,1": ("green",),
    "3,2": ("yellow",),
    "0,3": ("brown", "red"),
    "0,2": ("blue",),
    "1,2": ("blue",),
    "4,0": ("red",),
}
RIVER: Stacks = {
    "0,0": ("blue",),
    "0,1": ("blue",),
    "1,1": ("blue",),
    "2,1": ("blue",),
    "3,1": ("blue",),
    "4,1": ("blue",),
    "2,2": ("blue",),
    "3,3": ("blue",),
    "4,4": ("blue",),
}
ISLANDS: Stacks = {
    **{f"2,{row}": ("blue",) for row in range(4)},
    **{f"5,{row}": ("blue",) for row in range(3)},
    "0,1": ("green",),
    "1,1": ("yellow",),
    "3,1": ("gray", "gray"),
    "4,2": ("brown", "green"),
    "6,2": ("yellow",),
}
# An animal card's habitat (Fennec Fox: a mountain of height 1, another beside it, then a
# field, in a line) with the first cube placed on its cube hex.
HABITAT_CARD = "animal_23"
HABITAT: Stacks = {"2,2": ("gray",), "1,1": ("gray",), "0,1": ("yellow",), "3,3": ("green",)}
HABITAT_CUBE = "2,2"
# The Lion's Spirit, the rulebook's own example: field groups of 1, 2 and 3 tokens.
SPIRIT_CARD = "spirit_lion"
SPIRIT: Stacks = {
    "2,2": ("yellow",),
    "3,2": ("yellow",),
    "4,2": ("yellow",),
    "1,1": ("brown", "green"),
    "0,0": ("yellow",),
    "0,3": ("yellow",),
    "0,4": ("yellow",),
}
SPIRIT_CUBE = "2,2"


@dataclass(frozen=True)
class Line:
    """One thing an example counts (or shows not counting), in words, with its points."""

    words: str
    points: int


@dataclass(frozen=True)
class Example:
    """A worked example: a board the engine scored, the lines that make its points, its picture.

    `category` names the ScoreSheet figure the example explains ("trees", "water", "spirit"...);
    `points` is that figure, as the engine computed it."""

    key: str
    side: str
    stacks: Stacks
    cube_hexes: tuple[str, ...]
    cards: tuple[tuple[str, int], ...]
    category: str
    points: int
    lines: tuple[Line, ...]
    board: SafeString


def _ordered(side: str, stacks: Stacks) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(stacks.get(name, ())) for name in geometry(side).names)


def board_sheet(
    side: str,
    stacks: Stacks,
    cube_hexes: Sequence[str] = (),
    cards: Sequence[tuple[str, int]] = (),
) -> ScoreSheet:
    """The engine's score of a board given as the interchange format's stacks (rules §14)."""
    geo = geometry(side)
    mask = sum(1 << geo.index[name] for name in cube_hexes)
    return score_board(side, _ordered(side, stacks), mask, cards)


def _at(side: str, cell: int) -> str:
    return cell_words(geometry(side).names[cell])


def _kind(side: str, stacks: Stacks, cell: int) -> Landscape:
    return LANDSCAPES[tuple(stacks.get(geometry(side).names[cell], ()))]


def _example(
    key: str,
    side: str,
    stacks: Stacks,
    category: str,
    lines: list[Line],
    *,
    sheet: ScoreSheet,
    emphasis: Sequence[int] = (),
    habitat: Sequence[int] = (),
    cube_hexes: tuple[str, ...] = (),
    cards: tuple[tuple[str, int], ...] = (),
    spirit_hex: str | None = None,
    title: str,
) -> Example:
    names = geometry(side).names
    picture = board_svg(
        side,
        stacks,
        () if spirit_hex else cube_hexes,
        spirit_hex=spirit_hex,
        emphasis=[names[i] for i in emphasis],
        habitat=[names[i] for i in habitat],
        title=title,
        sprite=sprite_url(),
    )
    return Example(
        key=key,
        side=side,
        stacks=stacks,
        cube_hexes=cube_hexes,
        cards=cards,
        category=category,
        points=getattr(sheet, category),
        lines=tuple(lines),
        board=picture,
    )


def _trees() -> Example:
    sheet = board_sheet("A", TREES)
    lines = []
    for cell in range(geometry("A").size):
        kind = _kind("A", TREES, cell)
        if kind in TREE_HEIGHT:
            height = TREE_HEIGHT[kind]
            words = _("A tree of height %(height)d, %(where)s") % {
                "height": height,
                "where": _at("A", cell),
            }
            lines.append(Line(words, TREE_POINTS[height - 1]))
        elif kind is Landscape.TRUNK:
            words = _("A trunk without foliage, %(where)s: no tree") % {"where": _at("A", cell)}
            lines.append(Line(words, 0))
    counted = [c for cells in sheet.trees_by_height for c in cells]
    return _example(
        "trees", "A", TREES, "trees", lines, sheet=sheet, emphasis=counted, title=_("Trees example")
    )


def _mountains() -> Example:
    sheet = board_sheet("A", MOUNTAINS)
    lines = []
    for cell in range(geometry("A").size):
        kind = _kind("A", MOUNTAINS, cell)
        if kind not in MOUNTAIN_HEIGHT:
            continue
        height = MOUNTAIN_HEIGHT[kind]
        where = {"height": height, "where": _at("A", cell)}
        if cell in sheet.scoring_mountains:
            words = _("A mountain of height %(height)d, %(where)s, next to another mountain")
            lines.append(Line(words % where, MOUNTAIN_POINTS[height - 1]))
        else:
            words = _("A mountain of height %(height)d, %(where)s, with no mountain next to it")
            lines.append(Line(words % where, 0))
    return _example(
        "mountains",
        "A",
        MOUNTAINS,
        "mountains",
        lines,
        sheet=sheet,
        emphasis=sheet.scoring_mountains,
        title=_("Mountains example"),
    )


def _fields() -> Example:
    sheet = board_sheet("A", FIELDS)
    lines = [
        Line(
            ngettext(
                "A group of %(num)d field token", "A group of %(num)d field tokens", len(group)
            )
            % {"num": len(group)},
            FIELD_GROUP_POINTS,
        )
        for group in sheet.field_groups
    ]
    grouped = {cell for group in sheet.field_groups for cell in group}
    lines += [
        Line(_("A lone field token, %(where)s") % {"where": _at("A", cell)}, 0)
        for cell in range(geometry("A").size)
        if _kind("A", FIELDS, cell) is Landscape.FIELD and cell not in grouped
    ]
    return _example(
        "fields",
        "A",
        FIELDS,
        "fields",
        lines,
        sheet=sheet,
        emphasis=sorted(grouped),
        title=_("Fields example"),
    )


def _buildings() -> Example:
    sheet = board_sheet("A", BUILDINGS)
    geo = geometry("A")
    lines = []
    for cell in range(geo.size):
        kind = _kind("A", BUILDINGS, cell)
        if kind is Landscape.LONE_RED:
            words = _("A lone red token, %(where)s: no building") % {"where": _at("A", cell)}
            lines.append(Line(words, 0))
        if kind is not Landscape.BUILDING:
            continue
        tops = [top_colour(tuple(BUILDINGS.get(geo.names[n], ()))) for n in geo.neighbours[cell]]
        seen = [_(COLOUR_NAMES[c]) for c in COLOURS if c in tops]
        words = ngettext(
            "A building, %(where)s, with %(num)d colour around it (%(colours)s)",
            "A building, %(where)s, with %(num)d colours around it (%(colours)s)",
            len(seen),
        ) % {"where": _at("A", cell), "num": len(seen), "colours": _(", ").join(seen)}
        points = BUILDING_POINTS if cell in sheet.qualifying_buildings else 0
        lines.append(Line(words, points))
    return _example(
        "buildings",
        "A",
        BUILDINGS,
        "buildings",
        lines,
        sheet=sheet,
        emphasis=sheet.qualifying_buildings,
        title=_("Buildings example"),
    )


def _river() -> Example:
    sheet = board_sheet("A", RIVER)
    geo = geometry("A")
    path = sheet.river_path
    lines = [
        Line(
            ngettext(
                "The longest river: %(num)d water token along the outlined path",
                "The longest river: %(num)d water tokens along the outlined path",
                len(path),
            )
            % {"num": len(path)},
            sheet.water,
        )
    ]
    water = sum(1 << geo.index[name] for name, stack in RIVER.items() if stack == ("blue",))
    on_path = sum(1 << cell for cell in path)
    for group in components("A", water):
        if not group & on_path:
            size = group.bit_count()
            words = ngettext(
                "Another river, of %(num)d water token",
                "Another river, of %(num)d water tokens",
                size,
            )
            lines.append(Line(words % {"num": size}, 0))
        elif off := (group & ~on_path).bit_count():
            words = ngettext(
                "%(num)d water token beside that path, not on it",
                "%(num)d water tokens beside that path, not on it",
                off,
            )
            lines.append(Line(words % {"num": off}, 0))
    return _example(
        "river", "A", RIVER, "water", lines, sheet=sheet, emphasis=path, title=_("River example")
    )


def _columns(side: str, cells: Sequence[int]) -> str:
    """Where a group of hexes lies, as a player counts columns: "in columns 1 and 2"."""
    names = geometry(side).names
    columns = sorted({int(names[cell].split(",")[0]) + 1 for cell in cells})
    if len(columns) == 1:
        return _("in column %(column)d") % {"column": columns[0]}
    listed = _(", ").join(str(c) for c in columns[:-1])
    return _("in columns %(columns)s and %(last)d") % {"columns": listed, "last": columns[-1]}


def _islands() -> Example:
    # The picture outlines nothing (every hex but the water would be): the words say where each
    # island lies, so that two of one size are told apart.
    sheet = board_sheet("B", ISLANDS)
    lines = [
        Line(
            ngettext(
                "An island of %(num)d hex, %(where)s",
                "An island of %(num)d hexes, %(where)s",
                len(cells),
            )
            % {"num": len(cells), "where": _columns("B", cells)},
            ISLAND_POINTS,
        )
        for cells in sheet.islands
    ]
    return _example(
        "islands", "B", ISLANDS, "water", lines, sheet=sheet, title=_("Islands example")
    )


def _habitat_cells(stacks: Stacks, card_id: str, cube_hex: str) -> tuple[int, ...]:
    """The habitat the engine finds for the card's cube on `cube_hex` of a side-A board: the
    cube is only drawn where the rules would let a player put it."""
    geo = geometry("A")
    landscapes = [LANDSCAPES[stack] for stack in _ordered("A", stacks)]
    found = cube_targets("A", landscapes, 0, card_id).get(geo.index[cube_hex])
    if found is None:
        raise ValueError(
            f"the example board has no habitat of {card_id} with its cube on {cube_hex}"
        )
    return found


def _habitat() -> Example:
    """An animal card with its first cube placed: the engine finds the habitat on the board."""
    cells = _habitat_cells(HABITAT, HABITAT_CARD, HABITAT_CUBE)
    cards = ((HABITAT_CARD, 1),)
    sheet = board_sheet("A", HABITAT, (HABITAT_CUBE,), cards)
    c = card(HABITAT_CARD)
    name = card_name(HABITAT_CARD)
    words = _("%(card)s, 1 of its %(num)d cubes placed") % {"card": name, "num": c.cube_count}
    lines = [Line(words, sheet.animals)]
    return _example(
        "cards",
        "A",
        HABITAT,
        "animals",
        lines,
        sheet=sheet,
        habitat=cells,
        cube_hexes=(HABITAT_CUBE,),
        cards=cards,
        title=_("A %(card)s habitat with its first cube") % {"card": name},
    )


def _spirit() -> Example:
    """The Lion's Spirit scoring each field group; each group's points are the engine's too."""
    geo = geometry("A")
    cells = _habitat_cells(SPIRIT, SPIRIT_CARD, SPIRIT_CUBE)
    cards = ((SPIRIT_CARD, 1),)
    sheet = board_sheet("A", SPIRIT, (SPIRIT_CUBE,), cards)
    field = sum(1 << geo.index[name] for name, stack in SPIRIT.items() if stack == ("yellow",))
    lines = []
    for group in components("A", field):
        alone = {geo.names[i]: ("yellow",) for i in range(geo.size) if group >> i & 1}
        points = board_sheet("A", alone, (), cards).spirit
        size = group.bit_count()
        words = ngettext(
            "A group of %(num)d field token", "A group of %(num)d field tokens", size
        ) % {"num": size}
        lines.append(Line(words, points))
    return _example(
        "spirits",
        "A",
        SPIRIT,
        "spirit",
        lines,
        sheet=sheet,
        habitat=cells,
        cube_hexes=(SPIRIT_CUBE,),
        cards=cards,
        spirit_hex=SPIRIT_CUBE,
        title=_("%(spirit)s example") % {"spirit": spirit_title(SPIRIT_CARD)},
    )


def examples() -> dict[str, Example]:
    """Every worked example of the page, by its key (the id of its section on the page)."""
    built = (
        _trees(),
        _mountains(),
        _fields(),
        _buildings(),
        _river(),
        _islands(),
        _habitat(),
        _spirit(),
    )
    return {example.key: example for example in built}
