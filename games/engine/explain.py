"""The rules in words: what a card asks for and pays, and how a board's points add up.

Pure functions of the card data (data/cards.json) and a board, so the game page, emails, the
rules page and a later translation all say the same thing. Every score explanation is built from
the parts that make its figure, and the parts always add up to the engine's ScoreSheet (a
property test checks it on random boards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, PatternCell, card
from .hexgrid import DIRECTIONS, geometry
from .river import components, river_points
from .scoring import ScoreSheet, score_board
from .tokens import MOUNTAIN_HEIGHT, TREE_HEIGHT, Landscape, Stack, landscape

L = Landscape
# What a pattern hex asks for, as a player reads it; water is a mass noun, the others take "a".
_HEIGHTS = (1, 2, 3)
_ONE = {
    L.WATER: "water",
    L.FIELD: "a field",
    L.BUILDING: "a building",
    **{L[f"TREE{h}"]: f"a tree of height {h}" for h in _HEIGHTS},
    **{L[f"MOUNTAIN{h}"]: f"a mountain of height {h}" for h in _HEIGHTS},
}
_MANY = {
    L.WATER: "water hexes",
    L.FIELD: "fields",
    L.BUILDING: "buildings",
    **{L[f"TREE{h}"]: f"trees of height {h}" for h in _HEIGHTS},
    **{L[f"MOUNTAIN{h}"]: f"mountains of height {h}" for h in _HEIGHTS},
}
# Past this many parts a sum is written by value ("12 x 1 + 3 x 3", with a multiplication sign),
# so it stays one short line.
LONG_SUM = 6
TIMES = "\u00d7"


# --- cards -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardHelp:
    """One card explained: its habitat, where the cube goes, what it pays and, for a card a player
    holds, how far along it is. `rules_anchor` names the rules page's section."""

    card_id: str
    name: str
    kind: str  # "animal" | "spirit"
    habitat: str
    cube: str
    points: str
    progress: str  # "" for a card nobody holds (the display, a spirit still to choose)
    rules_anchor: str

    @property
    def lines(self) -> tuple[str, ...]:
        """The sentences in reading order, without the empty ones."""
        return tuple(s for s in (self.habitat, self.cube, self.points, self.progress) if s)

    @property
    def text(self) -> str:
        return " ".join(self.lines)


def _touching(a: PatternCell, b: PatternCell) -> bool:
    return (b.q - a.q, b.r - a.r) in DIRECTIONS


def _one(cell: PatternCell) -> str:
    return _ONE[cell.landscape]


def _the(cell: PatternCell) -> str:
    """ "the field", "the water"."""
    return "the " + _one(cell).removeprefix("a ")


def _both(a: PatternCell, b: PatternCell) -> str:
    """ "two fields", or "a field and water"."""
    if a.landscape is b.landscape:
        return f"two {_MANY[a.landscape]}"
    return f"{_one(a)} and {_one(b)}"


def _path_order(cells: Sequence[PatternCell]) -> list[PatternCell]:
    """A line or bent line from one end to the other, from the cube's end when it is an end."""
    ends = [c for c in cells if sum(_touching(c, o) for o in cells if o is not c) == 1]
    start = next((c for c in ends if c.is_cube), ends[0])
    order = [start]
    while len(order) < len(cells):
        order.append(next(c for c in cells if c not in order and _touching(order[-1], c)))
    return order


def _habitat_words(c: Card) -> tuple[str, str]:
    """(the habitat sentence, where the cube goes) for the card's printed pattern."""
    cells = c.pattern
    cube = cells[0]  # cards.py puts the cube hex first
    others = cells[1:]
    if c.shape == "pair":
        return (
            f"Habitat of 2 touching hexes: {_one(cube)} and {_one(others[0])}.",
            f"The cube goes on {_the(cube)}.",
        )
    if c.shape in ("line", "bent") and len(cells) == 3:
        order = _path_order(cells)
        how = "in a bent line (the ends do not touch)" if c.shape == "bent" else "in a line"
        if order[1] is cube:
            where = "at the bend" if c.shape == "bent" else "in the middle"
        elif order[2].landscape is not cube.landscape:
            where = f"at the end away from {_the(order[2])}"
        else:
            where = "at either end"
        return (
            f"Habitat of 3 hexes {how}: {_one(order[0])}, {_one(order[1])}, then {_one(order[2])}.",
            f"The cube goes on {_the(cube)} {where}.",
        )
    if c.shape == "triangle":
        return (
            f"Habitat of 3 hexes that all touch: {_one(cube)} and {_both(*others)}.",
            f"The cube goes on {_the(cube)}.",
        )
    if c.shape == "rhombus" and len(cells) == 4:
        # Two triangles side by side: the two middle hexes touch all three others.
        middle = [x for x in cells if sum(_touching(x, o) for o in cells if o is not x) == 3]
        tips = [x for x in cells if x not in middle]
        tip_words = (
            f"{_one(tips[0])} at each tip"
            if tips[0].landscape is tips[1].landscape
            else f"{_one(tips[0])} at one tip and {_one(tips[1])} at the other"
        )
        where = "in the middle" if cube in middle else "at a tip"
        return (
            f"Habitat of 4 hexes in a diamond: {_both(*middle)} in the middle, {tip_words}.",
            f"The cube goes on {_the(cube)} {where}.",
        )
    listed = ", ".join(_one(x) for x in cells)
    return (
        f"Habitat of {len(cells)} touching hexes: {listed}.",
        f"The cube goes on {_the(cube)}.",
    )


def card_help(card_id: str, cubes_placed: int | None = None) -> CardHelp:
    """A card in words. `cubes_placed` is for a card someone holds (how many of its cubes are on
    their board; for a spirit 0 or 1); None for a card in the display or a spirit on offer.

    UnknownCard for an id that is not a card, ValueError for an impossible cube count."""
    c = card(card_id)
    if cubes_placed is not None and (
        type(cubes_placed) is not int or not 0 <= cubes_placed <= c.cube_count
    ):
        raise ValueError(
            f"{c.name} has {c.cube_count} cube(s): {cubes_placed!r} placed is impossible"
        )
    habitat, cube = _habitat_words(c)
    heights = any(p.landscape in TREE_HEIGHT or p.landscape in MOUNTAIN_HEIGHT for p in c.pattern)
    rotation = " Any rotation counts" + ("; heights must match exactly." if heights else ".")
    if c.kind == "spirit":
        return CardHelp(
            card_id=c.id,
            name=c.name,
            kind=c.kind,
            habitat=habitat + rotation,
            cube=cube.replace("The cube", "Its one cube, the Nature's Spirit cube,"),
            points=f"It scores at the end of the game once its cube is placed. {c.scoring_text}",
            progress=_spirit_progress(cubes_placed),
            rules_anchor="spirits",
        )
    values = c.score_by_cubes_placed[1:]  # the card's worth after 1, 2... cubes
    listed = ", ".join(str(v) for v in values[:-1]) + f", then {values[-1]}"
    points = (
        f"Its {c.cube_count} cubes uncover {listed} points: the card scores the last value"
        " uncovered (0 with no cube placed)."
    )
    return CardHelp(
        card_id=c.id,
        name=c.name,
        kind=c.kind,
        habitat=habitat + rotation,
        cube=cube,
        points=points,
        progress=_animal_progress(c, cubes_placed),
        rules_anchor="cards",
    )


def _animal_progress(c: Card, placed: int | None) -> str:
    if placed is None:
        return ""
    worth = c.score_by_cubes_placed
    if placed == c.cube_count:
        return f"Completed: all {c.cube_count} cubes are placed, worth {worth[placed]} points."
    left = c.cube_count - placed
    gain = worth[placed + 1] - worth[placed]
    done = (
        "No cube placed yet (worth 0)"
        if placed == 0
        else f"{placed} of {c.cube_count} cubes placed (worth {worth[placed]})"
    )
    return (
        f"{done}: {left} cube{'s' if left > 1 else ''} left; the next makes it worth"
        f" {worth[placed + 1]} ({gain} more)."
    )


def _spirit_progress(placed: int | None) -> str:
    if placed is None:
        return ""
    if placed:
        return "Its cube is placed, so the card will score."
    return "Its cube is still on the card: it scores nothing until it is placed."


# --- scores ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    """One category of one board: the parts that make its figure and the sentence that says so.
    `total` is the sum of `parts`, which is the ScoreSheet's figure for `category`."""

    category: str  # a ScoreSheet field: trees, mountains, fields, buildings, water, animals, spirit
    label: str  # what the row is called here ("River" or "Islands" for water)
    parts: tuple[int, ...]
    total: int
    text: str
    rules_anchor: str


def sum_words(parts: Sequence[int]) -> str:
    """ "1 + 3 + 7 = 11"; one part is just itself; none is "0"; a long sum is grouped by value."""
    total = sum(parts)
    if not parts:
        return "0"
    if len(parts) == 1:
        return str(total)
    if len(parts) > LONG_SUM:
        counts = Counter(parts)
        terms = [f"{n} {TIMES} {v}" if n > 1 else str(v) for v, n in sorted(counts.items())]
        return f"{' + '.join(terms)} = {total}"
    return f"{' + '.join(str(p) for p in parts)} = {total}"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _line(
    category: str,
    label: str,
    parts: Sequence[int],
    head: str,
    anchor: str,
    note: str = "",
    terms: str = "",
) -> ScoreLine:
    """The figure first, then what did not count: "3 trees: 1 + 3 + 7 = 11; 1 trunk ...".
    `terms` replaces the plain sum when the parts are better named (the animal cards)."""
    parts = tuple(sorted(parts))
    text = f"{head}: {terms or sum_words(parts)}" + (f"; {note}" if note else "")
    return ScoreLine(category, label, parts, sum(parts), text, anchor)


def explain_board(
    side: str,
    stacks: Sequence[Stack],
    cards: Iterable[tuple[str, int]] = (),
    sheet: ScoreSheet | None = None,
) -> tuple[ScoreLine, ...]:
    """Every category of a board explained, in score-sheet order (rules §9, §10).

    `stacks` and `cards` are what score_board takes; `sheet` is their ScoreSheet when the caller
    has it already (it is computed otherwise). ValueError for a board score_board refuses."""
    cards = list(cards)
    if sheet is None:
        sheet = score_board(side, stacks, 0, cards)
    kinds = [landscape(tuple(s)) for s in stacks]
    return (
        _trees(sheet, kinds),
        _mountains(sheet, kinds),
        _fields(sheet, kinds),
        _buildings(sheet, kinds),
        _water(side, sheet),
        _animals(sheet),
        _spirit(side, kinds, cards),
    )


def explain_view(
    side: str, player: Mapping[str, Any], sheet: ScoreSheet | None = None
) -> tuple[ScoreLine, ...]:
    """explain_board for one player of `view_for` (stacks by cell name, cards held and done)."""
    stacks = [tuple(player["stacks"].get(name, ())) for name in geometry(side).names]
    cards = [(held["card_id"], held["cubes_placed"]) for held in player["cards"]]
    cards += [(card_id, card(card_id).cube_count) for card_id in player["completed"]]
    if player.get("spirit"):
        cards.append((player["spirit"], 1 if player["spirit_placed"] else 0))
    return explain_board(side, stacks, cards, sheet)


def _nothing(count: int, one: str, many: str) -> str:
    """ "1 trunk without foliage scores nothing", or "" when there is none."""
    return f"{_plural(count, one + ' scores', many + ' score')} nothing" if count else ""


def _trees(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    parts = [(0, 1, 3, 7)[TREE_HEIGHT[kinds[i]]] for group in sheet.trees_by_height for i in group]
    head = _plural(len(parts), "tree", "trees") if parts else "No trees"
    trunks = _nothing(kinds.count(L.TRUNK), "trunk without foliage", "trunks without foliage")
    return _line("trees", "Trees", parts, head, "trees", trunks)


def _mountains(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    scoring = set(sheet.scoring_mountains)
    parts = [(0, 1, 3, 7)[MOUNTAIN_HEIGHT[kinds[i]]] for i in scoring]
    alone = sum(1 for i, k in enumerate(kinds) if k in MOUNTAIN_HEIGHT and i not in scoring)
    head = (
        _plural(len(parts), "mountain", "mountains") + " next to another mountain"
        if parts
        else "No mountain next to another"
    )
    note = _nothing(alone, "mountain alone", "mountains alone")
    return _line("mountains", "Mountains", parts, head, "mountains", note)


def _fields(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    sizes = sorted((len(g) for g in sheet.field_groups), reverse=True)
    if sizes:
        listed = " and ".join(", ".join(str(s) for s in sizes).rsplit(", ", 1))
        head = f"{_plural(len(sizes), 'group', 'groups')} of 2 or more fields ({listed} fields)"
    else:
        head = "No group of 2 or more fields"
    lone = _nothing(kinds.count(L.FIELD) - sum(sizes), "field alone", "fields alone")
    return _line("fields", "Fields", [5] * len(sizes), head, "fields", lone)


def _buildings(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    good = len(sheet.qualifying_buildings)
    head = (
        _plural(good, "building", "buildings") + " with 3 or more colours around"
        if good
        else "No building with 3 or more colours around"
    )
    other = kinds.count(L.BUILDING) - good
    note = _nothing(other, "building with fewer colours", "buildings with fewer colours")
    return _line("buildings", "Buildings", [5] * good, head, "buildings", note)


def _water(side: str, sheet: ScoreSheet) -> ScoreLine:
    if side == "B":
        count = len(sheet.islands)
        head = _plural(count, "island", "islands") if count else "No island"
        return _line("water", "Islands", [5] * count, head, "islands")
    length = len(sheet.river_path)
    if length < 2:
        return _line("water", "River", [], "No river of 2 or more water tokens", "river")
    # One part: the points of the river's length, from the table of rules §9.5.
    head = f"Longest river, {length} tokens"
    return _line("water", "River", [river_points(length)], head, "river")


def _animals(sheet: ScoreSheet) -> ScoreLine:
    held = [(card(cid).name, points) for cid, points in sheet.cards if card(cid).kind == "animal"]
    if not held:
        return _line("animals", "Animal cards", [], "No animal cards", "cards")
    terms = " + ".join(f"{name} {points}" for name, points in held)
    if len(held) > 1:
        terms += f" = {sum(p for _, p in held)}"
    head = _plural(len(held), "card", "cards")
    return _line("animals", "Animal cards", [p for _, p in held], head, "cards", terms=terms)


def _spirit(side: str, kinds: list[Landscape], cards: list[tuple[str, int]]) -> ScoreLine:
    """Counted again from the board (the ScoreSheet keeps only the spirit's figure)."""
    spirit = next(((cid, k) for cid, k in cards if card(cid).kind == "spirit"), None)
    if spirit is None:
        return _line("spirit", "Nature's Spirit", [], "No Nature's Spirit card", "spirits")
    c = card(spirit[0])
    if not spirit[1]:
        return _line("spirit", "Nature's Spirit", [], f"{c.name} (cube not placed)", "spirits")
    rule = c.spirit_rule
    assert rule is not None
    if rule.kind == "per_stack":
        points = dict(rule.points_by_landscape)
        parts = [points[k] for k in kinds if points.get(k)]
        one, many = _SPIRIT_NOUNS[rule.landscape]
        head = f"{c.name}, {_plural(len(parts), 'scoring ' + one, 'scoring ' + many)}"
    else:
        kind = _SPIRIT_GROUPS[rule.landscape]
        mask = sum(1 << i for i, k in enumerate(kinds) if k is kind)
        parts = []
        for group in components(side, mask):
            size = group.bit_count()
            for low, high, tier in rule.tiers:
                if size >= low and (high is None or size <= high):
                    parts.append(tier)
                    break
        groups = _plural(len(parts), "scoring group", "scoring groups")
        head = f"{c.name}, {groups} of {_MANY[kind]}"
    return _line("spirit", "Nature's Spirit", parts, head, "spirits")


_SPIRIT_NOUNS = {
    "tree": ("tree", "trees"),
    "mountain": ("mountain", "mountains"),
    "water": ("water token", "water tokens"),
}
# What a "groups" spirit groups: only real buildings, as scoring.py counts them (rules §10).
_SPIRIT_GROUPS = {"field": L.FIELD, "water": L.WATER, "building": L.BUILDING}
