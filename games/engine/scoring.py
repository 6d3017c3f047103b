"""End-of-game scoring of one board (rules §9, §10, §11).

The board is first turned into one bitmask per landscape; every category is then a few mask
operations (popcounts, "neighbours of a set" lookups, memoised flood fills), which keeps a full
score well under the cost of rendering it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .cards import CARDS, Card, UnknownCard
from .hexgrid import CHUNK_BITS, CHUNK_MASK, geometry, spread_tables
from .river import cells_of, components, islands, river, river_points
from .tokens import LANDSCAPES, Landscape, Stack

L = Landscape
FIELD_GROUP_POINTS = 5
BUILDING_POINTS = 5
ISLAND_POINTS = 5
TREE_POINTS = (1, 3, 7)  # by height 1, 2, 3 (§9.1)
MOUNTAIN_POINTS = (1, 3, 7)  # by height, only with an adjacent mountain (§9.2)

# Solo suns by final score (§11): the lowest score of each band.
_SUN_BANDS = (0, 40, 70, 90, 110, 130, 140, 150, 160)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A board's points by category and what earned them (cell indices), rules §9 and §14."""

    trees: int
    mountains: int
    fields: int
    buildings: int
    water: int
    animals: int
    spirit: int
    total: int
    river_path: tuple[int, ...]
    islands: tuple[tuple[int, ...], ...]
    scoring_mountains: tuple[int, ...]
    qualifying_buildings: tuple[int, ...]
    field_groups: tuple[tuple[int, ...], ...]
    trees_by_height: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    cards: tuple[tuple[str, int], ...]

    def as_dict(self) -> dict[str, int]:
        """The score object of the interchange format (rules §14)."""
        return {
            "trees": self.trees,
            "mountains": self.mountains,
            "fields": self.fields,
            "buildings": self.buildings,
            "water": self.water,
            "animals": self.animals,
            "spirit": self.spirit,
            "total": self.total,
        }


# Landscape values as plain ints: indexing a list with an IntEnum member is measurably slower.
_LANDSCAPE_CODES: dict[Stack, int] = {stack: int(kind) for stack, kind in LANDSCAPES.items()}
_KINDS = len(Landscape)
_CARD_BY_ID: dict[str, Card] = dict(CARDS)


@cache
def _context(
    side: str,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Per-side tables: (bit of each cell, neighbour masks, spread tables t0, t1)."""
    geo = geometry(side)
    t0, t1 = spread_tables(side)
    return tuple(1 << i for i in range(geo.size)), geo.neighbour_mask, t0, t1


def _landscape_masks(side: str, stacks: Sequence[Stack]) -> list[int]:
    """One mask per Landscape value: bit i set when cell i is that landscape."""
    bits = _context(side)[0]
    if len(stacks) != len(bits):
        raise ValueError(f"side {side} has {len(bits)} hexes, got {len(stacks)} stacks")
    masks = [0] * _KINDS
    codes = _LANDSCAPE_CODES
    try:
        for stack, bit in zip(stacks, bits):  # noqa: B905 (lengths checked above)
            masks[codes[stack]] |= bit
    except (KeyError, TypeError):
        bad = next(s for s in stacks if not isinstance(s, tuple) or s not in codes)
        raise ValueError(f"{bad!r} is not a legal stack (a tuple of colours)") from None
    return masks


def _card(card_id: str) -> Card:
    try:
        return CARDS[card_id]
    except KeyError:
        raise UnknownCard(f"unknown card {card_id!r}") from None


def _spirit_points(side: str, spirit: Card, masks: list[int]) -> int:
    """Points of a Nature's Spirit card whose cube was placed (rules §10)."""
    rule = spirit.spirit_rule
    assert rule is not None
    if rule.kind == "per_stack":
        return sum(points * masks[kind].bit_count() for kind, points in rule.points_by_landscape)
    if rule.landscape == "field":
        mask = masks[L.FIELD]
    elif rule.landscape == "water":
        mask = masks[L.WATER]
    else:
        # Only real buildings are grouped: a lone red neither counts nor connects (§10 notes).
        mask = masks[L.BUILDING]
    total = 0
    for group in components(side, mask):
        size = group.bit_count()
        for low, high, points in rule.tiers:
            if size >= low and (high is None or size <= high):
                total += points
                break
    return total


def score_board(
    side: str,
    stacks: Sequence[Stack],
    cube_mask: int,
    cards: Iterable[tuple[str, int]] = (),
) -> ScoreSheet:
    """Score a finished board (rules §9.1-9.8).

    `stacks` is indexed like geometry(side).cells. `cards` lists (card_id, cubes_placed) for every
    animal card the player took, completed or not, and the kept spirit card; a spirit scores only
    when its cube is placed. Cubes never change landscape scoring, so `cube_mask` is only
    accepted for symmetry with the rest of the board API.
    """
    _, nbr, t0, t1 = _context(side)
    masks = _landscape_masks(side, stacks)
    (_, water, field, tree1, tree2, tree3, mtn1, mtn2, mtn3, building, trunk, lone_red) = masks

    trees = tree1.bit_count() + 3 * tree2.bit_count() + 7 * tree3.bit_count()

    mountain = mtn1 | mtn2 | mtn3
    # A mountain scores when one of its neighbours is a mountain: the neighbours of the set of
    # mountains never include a cell because of itself.
    scoring = mountain & (t0[mountain & CHUNK_MASK] | t1[mountain >> CHUNK_BITS])
    mountains = (
        (mtn1 & scoring).bit_count()
        + 3 * (mtn2 & scoring).bit_count()
        + 7 * (mtn3 & scoring).bit_count()
    )

    field_groups = tuple(g for g in components(side, field) if g & (g - 1))
    fields = FIELD_GROUP_POINTS * len(field_groups)

    qualifying: list[int] = []
    if building:
        # The top colours (§4.2): blue, gray, brown, green, yellow, red.
        green = tree1 | tree2 | tree3
        red = building | lone_red
        for i in cells_of(building):
            around = nbr[i]
            colours = (
                (around & water != 0)
                + (around & mountain != 0)
                + (around & trunk != 0)
                + (around & green != 0)
                + (around & field != 0)
                + (around & red != 0)
            )
            if colours >= 3:
                qualifying.append(i)
    buildings = BUILDING_POINTS * len(qualifying)

    if side == "A":
        river_path = river(side, water)
        island_groups: tuple[int, ...] = ()
        water_points = river_points(len(river_path))
    else:
        river_path = ()
        island_groups = islands(side, water)
        water_points = ISLAND_POINTS * len(island_groups)

    animals = 0
    spirit = 0
    card_points: list[tuple[str, int]] = []
    for card_id, placed in cards:
        c = _CARD_BY_ID.get(card_id) or _card(card_id)
        if type(placed) is not int or not 0 <= placed <= c.cube_count:
            raise ValueError(
                f"{c.name} ({card_id}) has {c.cube_count} cube slot(s): "
                f"{placed!r} cubes placed is impossible"
            )
        if c.kind == "animal":
            points = c.score_by_cubes_placed[placed]
            animals += points
        else:
            points = _spirit_points(side, c, masks) if placed == 1 else 0
            spirit += points
        card_points.append((card_id, points))

    total = trees + mountains + fields + buildings + water_points + animals + spirit
    return ScoreSheet(
        trees=trees,
        mountains=mountains,
        fields=fields,
        buildings=buildings,
        water=water_points,
        animals=animals,
        spirit=spirit,
        total=total,
        river_path=river_path,
        islands=tuple(cells_of(g) for g in island_groups),
        scoring_mountains=cells_of(scoring),
        qualifying_buildings=tuple(qualifying),
        field_groups=tuple(cells_of(g) for g in field_groups),
        trees_by_height=(cells_of(tree1), cells_of(tree2), cells_of(tree3)),
        cards=tuple(card_points),
    )


def solo_suns(total: int, side: str, spirit_id: str | None) -> int:
    """Suns of a solo game (rules §11): score band + 1 on side A + spirit bonus.

    No spirit kept: +2; a "groups" spirit +1, a "count" spirit +0, whether or not its cube was
    placed (the bonus follows the chosen card).
    """
    geometry(side)  # rejects an unknown side
    suns = sum(1 for low in _SUN_BANDS[1:] if total >= low)
    suns += 1 if side == "A" else 0
    if spirit_id is None:
        suns += 2
    else:
        spirit = _card(spirit_id)
        if spirit.kind != "spirit":
            raise ValueError(f"{spirit.name} ({spirit_id}) is not a Nature's Spirit card")
        suns += spirit.solo_sun_bonus
    return suns
