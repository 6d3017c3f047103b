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
from .words import _, ngettext, pgettext

L = Landscape


def _one(kind: Landscape) -> str:
    """What a pattern hex asks for, as a player reads it ("a field", "water")."""
    if kind in TREE_HEIGHT:
        return pgettext("habitat hex", "a tree of height %(height)d") % {
            "height": TREE_HEIGHT[kind]
        }
    if kind in MOUNTAIN_HEIGHT:
        return pgettext("habitat hex", "a mountain of height %(height)d") % {
            "height": MOUNTAIN_HEIGHT[kind]
        }
    return {
        L.WATER: pgettext("habitat hex", "water"),
        L.FIELD: pgettext("habitat hex", "a field"),
        L.BUILDING: pgettext("habitat hex", "a building"),
    }[kind]


def _the(kind: Landscape) -> str:
    """The hex the cube goes on: "the field", "the water" (after "The cube goes on")."""
    if kind in TREE_HEIGHT:
        return pgettext("cube goes on", "the tree of height %(height)d") % {
            "height": TREE_HEIGHT[kind]
        }
    if kind in MOUNTAIN_HEIGHT:
        return pgettext("cube goes on", "the mountain of height %(height)d") % {
            "height": MOUNTAIN_HEIGHT[kind]
        }
    return {
        L.WATER: pgettext("cube goes on", "the water"),
        L.FIELD: pgettext("cube goes on", "the field"),
        L.BUILDING: pgettext("cube goes on", "the building"),
    }[kind]


def _away_from(kind: Landscape) -> str:
    """Where the cube goes on a line of 3: "at the end away from the field"."""
    if kind in TREE_HEIGHT:
        return pgettext("cube hex", "at the end away from the tree of height %(height)d") % {
            "height": TREE_HEIGHT[kind]
        }
    if kind in MOUNTAIN_HEIGHT:
        return pgettext("cube hex", "at the end away from the mountain of height %(height)d") % {
            "height": MOUNTAIN_HEIGHT[kind]
        }
    return {
        L.WATER: pgettext("cube hex", "at the end away from the water"),
        L.FIELD: pgettext("cube hex", "at the end away from the field"),
        L.BUILDING: pgettext("cube hex", "at the end away from the building"),
    }[kind]


def _two(kind: Landscape) -> str:
    """Two hexes of one landscape: "two fields"."""
    if kind in TREE_HEIGHT:
        return pgettext("habitat hexes", "two trees of height %(height)d") % {
            "height": TREE_HEIGHT[kind]
        }
    if kind in MOUNTAIN_HEIGHT:
        return pgettext("habitat hexes", "two mountains of height %(height)d") % {
            "height": MOUNTAIN_HEIGHT[kind]
        }
    return {
        L.WATER: pgettext("habitat hexes", "two water hexes"),
        L.FIELD: pgettext("habitat hexes", "two fields"),
        L.BUILDING: pgettext("habitat hexes", "two buildings"),
    }[kind]


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


def _both(a: PatternCell, b: PatternCell) -> str:
    """ "two fields", or "a field and water"."""
    if a.landscape is b.landscape:
        return _two(a.landscape)
    return _("%(first)s and %(second)s") % {
        "first": _one(a.landscape),
        "second": _one(b.landscape),
    }


def _path_order(cells: Sequence[PatternCell]) -> list[PatternCell]:
    """A line or bent line from one end to the other, from the cube's end when it is an end."""
    ends = [c for c in cells if sum(_touching(c, o) for o in cells if o is not c) == 1]
    start = next((c for c in ends if c.is_cube), ends[0])
    order = [start]
    while len(order) < len(cells):
        order.append(next(c for c in cells if c not in order and _touching(order[-1], c)))
    return order


def _cube_words(cube: PatternCell, where: str, spirit: bool) -> str:
    """Where the cube goes: "The cube goes on the field at either end."."""
    hex_words = {"hex": _the(cube.landscape), "where": where}
    if spirit:
        if where:
            return (
                _("Its one cube, the Nature's Spirit cube, goes on %(hex)s %(where)s.") % hex_words
            )
        return _("Its one cube, the Nature's Spirit cube, goes on %(hex)s.") % hex_words
    if where:
        return _("The cube goes on %(hex)s %(where)s.") % hex_words
    return _("The cube goes on %(hex)s.") % hex_words


def _habitat_words(c: Card) -> tuple[str, str]:
    """(the habitat sentence, where the cube goes) for the card's printed pattern."""
    cells = c.pattern
    cube = cells[0]  # cards.py puts the cube hex first
    others = cells[1:]
    spirit = c.kind == "spirit"
    if c.shape == "pair":
        return (
            _("Habitat of 2 touching hexes: %(first)s and %(second)s.")
            % {"first": _one(cube.landscape), "second": _one(others[0].landscape)},
            _cube_words(cube, "", spirit),
        )
    if c.shape in ("line", "bent") and len(cells) == 3:
        order = _path_order(cells)
        listed = {
            "first": _one(order[0].landscape),
            "second": _one(order[1].landscape),
            "third": _one(order[2].landscape),
        }
        if c.shape == "bent":
            habitat = _(
                "Habitat of 3 hexes in a bent line (the ends do not touch): %(first)s, "
                "%(second)s, then %(third)s."
            )
        else:
            habitat = _("Habitat of 3 hexes in a line: %(first)s, %(second)s, then %(third)s.")
        if order[1] is cube:
            bent = c.shape == "bent"
            where = pgettext("cube hex", "at the bend") if bent else _("in the middle")
        elif order[2].landscape is not cube.landscape:
            where = _away_from(order[2].landscape)
        else:
            where = pgettext("cube hex", "at either end")
        return habitat % listed, _cube_words(cube, where, spirit)
    if c.shape == "triangle":
        return (
            _("Habitat of 3 hexes that all touch: %(first)s and %(others)s.")
            % {"first": _one(cube.landscape), "others": _both(*others)},
            _cube_words(cube, "", spirit),
        )
    if c.shape == "rhombus" and len(cells) == 4:
        # Two triangles side by side: the two middle hexes touch all three others.
        middle = [x for x in cells if sum(_touching(x, o) for o in cells if o is not x) == 3]
        tips = [x for x in cells if x not in middle]
        if tips[0].landscape is tips[1].landscape:
            tip_words = _("%(hex)s at each tip") % {"hex": _one(tips[0].landscape)}
        else:
            tip_words = _("%(first)s at one tip and %(second)s at the other") % {
                "first": _one(tips[0].landscape),
                "second": _one(tips[1].landscape),
            }
        where = _("in the middle") if cube in middle else pgettext("cube hex", "at a tip")
        return (
            _("Habitat of 4 hexes in a diamond: %(middle)s in the middle, %(tips)s.")
            % {"middle": _both(*middle), "tips": tip_words},
            _cube_words(cube, where, spirit),
        )
    listed = _(", ").join(_one(x.landscape) for x in cells)
    return (
        ngettext(
            "Habitat of %(num)d touching hex: %(hexes)s.",
            "Habitat of %(num)d touching hexes: %(hexes)s.",
            len(cells),
        )
        % {"num": len(cells), "hexes": listed},
        _cube_words(cube, "", spirit),
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
    if heights:
        rotation = _("Any rotation counts; heights must match exactly.")
    else:
        rotation = _("Any rotation counts.")
    if c.kind == "spirit":
        return CardHelp(
            card_id=c.id,
            name=_(c.name),
            kind=c.kind,
            habitat=f"{habitat} {rotation}",
            cube=cube,
            points=_("It scores at the end of the game once its cube is placed.")
            + " "
            + _(c.scoring_text),
            progress=_spirit_progress(cubes_placed),
            rules_anchor="spirits",
        )
    values = c.score_by_cubes_placed[1:]  # the card's worth after 1, 2... cubes
    listed = _("%(values)s, then %(last)s") % {
        "values": _(", ").join(str(v) for v in values[:-1]),
        "last": values[-1],
    }
    points = _(
        "Its %(num)d cubes uncover %(values)s points: the card scores the last value"
        " uncovered (0 with no cube placed)."
    ) % {"num": c.cube_count, "values": listed}
    return CardHelp(
        card_id=c.id,
        name=_(c.name),
        kind=c.kind,
        habitat=f"{habitat} {rotation}",
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
        return _("Completed: all %(num)d cubes are placed, worth %(points)d points.") % {
            "num": c.cube_count,
            "points": worth[placed],
        }
    left = c.cube_count - placed
    gain = worth[placed + 1] - worth[placed]
    if placed == 0:
        done = _("No cube placed yet (worth 0)")
    else:
        done = _("%(placed)d of %(num)d cubes placed (worth %(points)d)") % {
            "placed": placed,
            "num": c.cube_count,
            "points": worth[placed],
        }
    return ngettext(
        "%(done)s: %(num)d cube left; the next makes it worth %(next)d (%(gain)d more).",
        "%(done)s: %(num)d cubes left; the next makes it worth %(next)d (%(gain)d more).",
        left,
    ) % {"done": done, "num": left, "next": worth[placed + 1], "gain": gain}


def _spirit_progress(placed: int | None) -> str:
    if placed is None:
        return ""
    if placed:
        return _("Its cube is placed, so the card will score.")
    return _("Its cube is still on the card: it scores nothing until it is placed.")


# --- scores ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    """One category of one board: the parts that make its figure and the sentence that says so.
    `total` is the sum of `parts`, which is the ScoreSheet's figure for `category`."""

    category: str  # a ScoreSheet field: trees, mountains, fields, buildings, water, animals, spirit
    label: str  # what the row is called here ("River" or "Islands" for water), translated
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
    text = _("%(head)s: %(sum)s") % {"head": head, "sum": terms or sum_words(parts)}
    if note:
        text = _("%(figure)s; %(note)s") % {"figure": text, "note": note}
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


def _count(template: str, n: int) -> str:
    return template % {"num": n}


def _trees(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    parts = [(0, 1, 3, 7)[TREE_HEIGHT[kinds[i]]] for group in sheet.trees_by_height for i in group]
    n = len(parts)
    head = _count(ngettext("%(num)d tree", "%(num)d trees", n), n) if parts else _("No trees")
    trunks = kinds.count(L.TRUNK)
    note = (
        _count(
            ngettext(
                "%(num)d trunk without foliage scores nothing",
                "%(num)d trunks without foliage score nothing",
                trunks,
            ),
            trunks,
        )
        if trunks
        else ""
    )
    return _line("trees", _("Trees"), parts, head, "trees", note)


def _mountains(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    scoring = set(sheet.scoring_mountains)
    parts = [(0, 1, 3, 7)[MOUNTAIN_HEIGHT[kinds[i]]] for i in scoring]
    alone = sum(1 for i, k in enumerate(kinds) if k in MOUNTAIN_HEIGHT and i not in scoring)
    n = len(parts)
    head = (
        _count(
            ngettext(
                "%(num)d mountain next to another mountain",
                "%(num)d mountains next to another mountain",
                n,
            ),
            n,
        )
        if parts
        else _("No mountain next to another")
    )
    note = (
        _count(
            ngettext(
                "%(num)d mountain alone scores nothing",
                "%(num)d mountains alone score nothing",
                alone,
            ),
            alone,
        )
        if alone
        else ""
    )
    return _line("mountains", _("Mountains"), parts, head, "mountains", note)


def _and(items: Sequence[str]) -> str:
    """ "3, 2 and 2"."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(list)s and %(last)s") % {"list": _(", ").join(items[:-1]), "last": items[-1]}


def _fields(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    sizes = sorted((len(g) for g in sheet.field_groups), reverse=True)
    if sizes:
        n = len(sizes)
        head = ngettext(
            "%(num)d group of 2 or more fields (%(sizes)s fields)",
            "%(num)d groups of 2 or more fields (%(sizes)s fields)",
            n,
        ) % {"num": n, "sizes": _and([str(s) for s in sizes])}
    else:
        head = _("No group of 2 or more fields")
    lone = kinds.count(L.FIELD) - sum(sizes)
    note = (
        _count(
            ngettext(
                "%(num)d field alone scores nothing", "%(num)d fields alone score nothing", lone
            ),
            lone,
        )
        if lone
        else ""
    )
    return _line("fields", _("Fields"), [5] * len(sizes), head, "fields", note)


def _buildings(sheet: ScoreSheet, kinds: list[Landscape]) -> ScoreLine:
    good = len(sheet.qualifying_buildings)
    head = (
        _count(
            ngettext(
                "%(num)d building with 3 or more colours around",
                "%(num)d buildings with 3 or more colours around",
                good,
            ),
            good,
        )
        if good
        else _("No building with 3 or more colours around")
    )
    other = kinds.count(L.BUILDING) - good
    note = (
        _count(
            ngettext(
                "%(num)d building with fewer colours scores nothing",
                "%(num)d buildings with fewer colours score nothing",
                other,
            ),
            other,
        )
        if other
        else ""
    )
    return _line("buildings", _("Buildings"), [5] * good, head, "buildings", note)


def _water(side: str, sheet: ScoreSheet) -> ScoreLine:
    if side == "B":
        count = len(sheet.islands)
        head = (
            _count(ngettext("%(num)d island", "%(num)d islands", count), count)
            if count
            else _("No island")
        )
        return _line("water", _("Islands"), [5] * count, head, "islands")
    length = len(sheet.river_path)
    if length < 2:
        return _line("water", _("River"), [], _("No river of 2 or more water tokens"), "river")
    # One part: the points of the river's length, from the table of rules §9.5.
    head = _count(
        ngettext("Longest river, %(num)d token", "Longest river, %(num)d tokens", length), length
    )
    return _line("water", _("River"), [river_points(length)], head, "river")


def _animals(sheet: ScoreSheet) -> ScoreLine:
    held = [(card(cid).name, points) for cid, points in sheet.cards if card(cid).kind == "animal"]
    if not held:
        return _line("animals", _("Animal cards"), [], _("No animal cards"), "cards")
    terms = " + ".join(
        _("%(card)s %(points)d") % {"card": _(name), "points": points} for name, points in held
    )
    if len(held) > 1:
        terms += f" = {sum(p for _name, p in held)}"
    n = len(held)
    head = _count(ngettext("%(num)d card", "%(num)d cards", n), n)
    return _line("animals", _("Animal cards"), [p for _name, p in held], head, "cards", terms=terms)


def _spirit(side: str, kinds: list[Landscape], cards: list[tuple[str, int]]) -> ScoreLine:
    """Counted again from the board (the ScoreSheet keeps only the spirit's figure)."""
    label = _("Nature's Spirit")
    spirit = next(((cid, k) for cid, k in cards if card(cid).kind == "spirit"), None)
    if spirit is None:
        return _line("spirit", label, [], _("No Nature's Spirit card"), "spirits")
    c = card(spirit[0])
    name = _(c.name)
    if not spirit[1]:
        return _line(
            "spirit", label, [], _("%(spirit)s (cube not placed)") % {"spirit": name}, "spirits"
        )
    rule = c.spirit_rule
    assert rule is not None
    if rule.kind == "per_stack":
        points = dict(rule.points_by_landscape)
        parts = [points[k] for k in kinds if points.get(k)]
        n = len(parts)
        if rule.landscape == "tree":
            template = ngettext(
                "%(spirit)s, %(num)d scoring tree", "%(spirit)s, %(num)d scoring trees", n
            )
        elif rule.landscape == "mountain":
            template = ngettext(
                "%(spirit)s, %(num)d scoring mountain", "%(spirit)s, %(num)d scoring mountains", n
            )
        else:
            template = ngettext(
                "%(spirit)s, %(num)d scoring water token",
                "%(spirit)s, %(num)d scoring water tokens",
                n,
            )
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
        n = len(parts)
        if kind is L.FIELD:
            template = ngettext(
                "%(spirit)s, %(num)d scoring group of fields",
                "%(spirit)s, %(num)d scoring groups of fields",
                n,
            )
        elif kind is L.WATER:
            template = ngettext(
                "%(spirit)s, %(num)d scoring group of water hexes",
                "%(spirit)s, %(num)d scoring groups of water hexes",
                n,
            )
        else:
            template = ngettext(
                "%(spirit)s, %(num)d scoring group of buildings",
                "%(spirit)s, %(num)d scoring groups of buildings",
                n,
            )
    head = template % {"spirit": name, "num": n}
    return _line("spirit", label, parts, head, "spirits")


# What a "groups" spirit groups: only real buildings, as scoring.py counts them (rules §10).
_SPIRIT_GROUPS = {"field": L.FIELD, "water": L.WATER, "building": L.BUILDING}
