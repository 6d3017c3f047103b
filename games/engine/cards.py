"""Animal and Nature's Spirit cards, loaded once from data/cards.json (rules §7.3, §10).

The JSON file is the source of truth; this module only turns it into immutable values and checks
that it says what the engine expects, so a damaged data file fails loudly at import.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from .tokens import Landscape

DATA_FILE = Path(__file__).with_name("data") / "cards.json"


class UnknownCard(KeyError):
    """A card id that is not in cards.json."""

    def __str__(self) -> str:
        # KeyError.__str__ would repr() the message and add quotes around the sentence.
        return str(self.args[0]) if self.args else "unknown card"


@dataclass(frozen=True)
class PatternCell:
    """One hex of a habitat pattern, axial (q, r) relative to the cube hex, printed orientation."""

    q: int
    r: int
    landscape: Landscape
    is_cube: bool


@dataclass(frozen=True)
class SpiritRule:
    """How a Nature's Spirit card scores (rules §10), read from the card's "scoring" entry.

    kind "per_stack": `points_by_landscape` gives the points of each matching hex.
    kind "per_group": each connected group of `landscape` whose size falls in a tier
    (min_size, max_size or None, points) scores that tier's points.
    """

    kind: str
    landscape: str
    points_by_landscape: tuple[tuple[Landscape, int], ...] = ()
    tiers: tuple[tuple[int, int | None, int], ...] = ()


@dataclass(frozen=True)
class Card:
    """One animal or spirit card."""

    id: str
    kind: str  # "animal" | "spirit"
    number: int  # BGA type_arg, 1..42
    name: str
    stripe: str
    shape: str
    pattern: tuple[PatternCell, ...]  # the cube cell first
    cube_count: int
    points_top_to_bottom: tuple[int, ...]  # animals; () for spirits
    score_by_cubes_placed: tuple[int, ...]  # animals: value after k cubes; (0, 0) for spirits
    scoring_text: str
    scoring_family: str | None  # spirits: "count" | "groups"; None for animals
    solo_sun_bonus: int
    aliases: tuple[str, ...] = ()
    spirit_rule: SpiritRule | None = None


def _landscape_of(entry: dict) -> Landscape:
    kind = entry["type"]
    height = entry.get("height")
    simple = {"water": Landscape.WATER, "field": Landscape.FIELD, "building": Landscape.BUILDING}
    if kind in simple and height is None:
        return simple[kind]
    if kind == "tree" and height in (1, 2, 3):
        return Landscape[f"TREE{height}"]
    if kind == "mountain" and height in (1, 2, 3):
        return Landscape[f"MOUNTAIN{height}"]
    raise ValueError(f"cards.json: unknown landscape {entry!r}")


def _pattern(raw: dict) -> tuple[PatternCell, ...]:
    cells = [
        PatternCell(q=c["q"], r=c["r"], landscape=_landscape_of(c["landscape"]), is_cube=c["cube"])
        for c in raw["pattern"]
    ]
    cubes = [c for c in cells if c.is_cube]
    if len(cubes) != 1 or (cubes[0].q, cubes[0].r) != (0, 0):
        raise ValueError(f"cards.json: {raw['id']} must have exactly one cube hex, at (0,0)")
    return tuple(sorted(cells, key=lambda c: (not c.is_cube, c.q, c.r)))


_FAMILIES = {"connected_groups": "groups", "landscape_count": "count"}
_RULE_LANDSCAPES = {
    "tree": ("TREE1", "TREE2", "TREE3"),
    "mountain": ("MOUNTAIN1", "MOUNTAIN2", "MOUNTAIN3"),
    "water": ("WATER",),
}


def _spirit_rule(raw: dict) -> SpiritRule:
    scoring = raw["scoring"]
    if scoring["type"] == "per_connected_group":
        tiers = tuple((t["min_size"], t.get("max_size"), t["points"]) for t in scoring["tiers"])
        return SpiritRule(kind="per_group", landscape=scoring["landscape"], tiers=tiers)
    if scoring["type"] == "per_stack":
        names = _RULE_LANDSCAPES[scoring["landscape"]]
        by_height = scoring["points_by_height"]
        points = tuple(
            (Landscape[name], by_height[str(height)])
            for height, name in enumerate(names, start=1)
            if str(height) in by_height
        )
        return SpiritRule(
            kind="per_stack", landscape=scoring["landscape"], points_by_landscape=points
        )
    raise ValueError(f"cards.json: {raw['id']} has unknown scoring {scoring['type']!r}")


def _animal(raw: dict) -> Card:
    top_to_bottom = tuple(raw["points_top_to_bottom"])
    by_cubes = tuple(raw["score_by_cubes_placed"])
    # Cubes leave from the bottom: after k cubes the card shows the k-th value from the bottom.
    if by_cubes != (0, *reversed(top_to_bottom)) or len(top_to_bottom) != raw["cube_count"]:
        raise ValueError(f"cards.json: {raw['id']} has inconsistent points")
    return Card(
        id=raw["id"],
        kind="animal",
        number=raw["bga_type_arg"],
        name=raw["name"],
        stripe=raw["stripe_color"],
        shape=raw["shape"],
        pattern=_pattern(raw),
        cube_count=raw["cube_count"],
        points_top_to_bottom=top_to_bottom,
        score_by_cubes_placed=by_cubes,
        scoring_text=" / ".join(str(p) for p in top_to_bottom),
        scoring_family=None,
        solo_sun_bonus=0,
        aliases=tuple(raw.get("aliases", ())),
    )


def _spirit(raw: dict) -> Card:
    return Card(
        id=raw["id"],
        kind="spirit",
        number=raw["bga_type_arg"],
        name=raw["name"],
        stripe=raw["stripe_color"],
        shape=raw["shape"],
        pattern=_pattern(raw),
        cube_count=1,
        points_top_to_bottom=(),
        score_by_cubes_placed=(0, 0),
        scoring_text=raw["scoring_text"],
        scoring_family=_FAMILIES[raw["scoring_family"]],
        solo_sun_bonus=raw["solo_sun_bonus"],
        aliases=tuple(raw.get("aliases", ())),
        spirit_rule=_spirit_rule(raw),
    )


def _load() -> dict[str, Card]:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    loaded = [_animal(raw) for raw in data["animal_cards"]]
    loaded += [_spirit(raw) for raw in data["spirit_cards"]]
    cards = {c.id: c for c in loaded}
    if len(cards) != len(loaded):
        raise ValueError("cards.json: duplicate card ids")
    return cards


CARDS: MappingProxyType[str, Card] = MappingProxyType(_load())
ANIMAL_CARD_IDS: tuple[str, ...] = tuple(sorted(k for k, c in CARDS.items() if c.kind == "animal"))
SPIRIT_CARD_IDS: tuple[str, ...] = tuple(sorted(k for k, c in CARDS.items() if c.kind == "spirit"))


def card(card_id: str) -> Card:
    """The card with this stable id; UnknownCard (a KeyError) names the bad id."""
    try:
        return CARDS[card_id]
    except (KeyError, TypeError):
        raise UnknownCard(f"unknown card {card_id!r}") from None
