"""How good a board is for its owner: points now plus what the board is likely to become.

`Evaluator` scores one player's board with the engine's own scoring (landscape and cards) and
adds potentials: trunks and low mountains that can grow, lone fields and red tokens that can
become a group or a building, open river ends, empty hexes kept for later tokens, and for each
held card the next cube weighted by how many tokens its nearest habitat still needs, less a
cost for a hand so full that no card can be taken, and a cost for the turns a filling board
will not play. Potentials fade as the game nears its end, so the last turn is chosen by points
alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from operator import itemgetter

from ..cards import card
from ..habitats import placements
from ..hexgrid import geometry
from ..scoring import score_board
from ..state import CARD_LIMIT
from ..tokens import LEGAL_STACKS, Landscape, Stack

L = Landscape
FAR = 99

# Every stack gets a small code; a stack under a cube gets code + FROZEN (it can never change).
STACKS: tuple[Stack, ...] = ((), *sorted(LEGAL_STACKS))
STACK_CODE: dict[Stack, int] = {s: i for i, s in enumerate(STACKS)}
FROZEN = len(STACKS)


def _tokens_needed(stack: Stack, wanted: Landscape) -> int:
    """Tokens to add on `stack` so it becomes `wanted`, FAR if it never can."""
    recipes = {
        L.WATER: [("blue",)],
        L.FIELD: [("yellow",)],
        L.TREE1: [("green",)],
        L.TREE2: [("brown", "green")],
        L.TREE3: [("brown", "brown", "green")],
        L.MOUNTAIN1: [("gray",)],
        L.MOUNTAIN2: [("gray", "gray")],
        L.MOUNTAIN3: [("gray", "gray", "gray")],
        L.BUILDING: [("red", "red"), ("brown", "red"), ("gray", "red")],
    }[wanted]
    best = FAR
    for recipe in recipes:
        if recipe[: len(stack)] == stack:
            best = min(best, len(recipe) - len(stack))
    return best


# COST[code][landscape]: tokens still needed on that hex for that landscape.
def _cost(stack: Stack, kind: Landscape, frozen: bool) -> int:
    if kind in (L.EMPTY, L.TRUNK, L.LONE_RED):
        return FAR  # no pattern asks for these
    needed = _tokens_needed(stack, kind)
    return (0 if needed == 0 else FAR) if frozen else needed


COST: tuple[tuple[int, ...], ...] = tuple(
    tuple(_cost(s, kind, frozen) for kind in Landscape) for frozen in (False, True) for s in STACKS
)

# What a stack may add to the board's potentials once the board is scored (see board_value).
EMPTY, GRAY, BUILDING, LONE_FIELD = 1, 2, 3, 4


def _stack_kind(stack: Stack) -> int:
    if not stack:
        return EMPTY
    if stack[-1] == "gray":
        return GRAY
    if stack[-1] == "red" and len(stack) == 2:
        return BUILDING
    return LONE_FIELD if stack == ("yellow",) else 0


STACK_KIND: tuple[int, ...] = tuple(_stack_kind(s) for s in STACKS)

# Chance-like weights of getting a habitat that needs d more tokens.
REACH = (1.0, 0.8, 0.6, 0.42, 0.28, 0.16, 0.08)


@cache
def card_placements(side: str, card_id: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every placement of a card's pattern on a side: ((cell, landscape), ...), cube cell first."""
    _, groups = placements(side, card_id)
    return tuple(tuple((c, int(k)) for c, k in p) for group in groups for p in group)


def codes_of(stacks: Sequence[Stack], cube_mask: int) -> list[int]:
    return [STACK_CODE[s] + (FROZEN if cube_mask >> i & 1 else 0) for i, s in enumerate(stacks)]


def distance(codes: Sequence[int], places) -> int:
    """Fewest tokens that would complete one habitat whose cube hex is free."""
    best = FAR
    cost = COST
    for pl in places:
        c0, k0 = pl[0]
        code = codes[c0]
        if code >= FROZEN:
            continue
        d = cost[code][k0]
        for cell, kind in pl[1:]:
            d += cost[codes[cell]][kind]
        if d < best:
            best = d
            if d == 0:
                return 0
    return best


def distances(codes: Sequence[int], places, wanted: int) -> list[int]:
    """The `wanted` smallest habitat distances over distinct free cube hexes, ascending.

    Each cube needs its own cube hex, so a card with several cubes left is worth more when
    several of its habitats are near.
    """
    best: dict[int, int] = {}
    cost = COST
    for pl in places:
        c0, k0 = pl[0]
        code = codes[c0]
        if code >= FROZEN:
            continue
        d = cost[code][k0]
        for cell, kind in pl[1:]:
            d += cost[codes[cell]][kind]
        if d < best.get(c0, FAR):
            best[c0] = d
    return sorted(best.values())[:wanted]


def nearest(codes: Sequence[int], places, keep: int) -> tuple:
    """The `keep` placements that need the fewest tokens now (a turn's search focuses on them)."""
    ranked = []
    for pl in places:
        if codes[pl[0][0]] >= FROZEN:
            continue
        d = sum(COST[codes[c]][k] for c, k in pl)
        if d < FAR:
            ranked.append((d, pl))
    ranked.sort(key=lambda x: x[0])
    return tuple(pl for _, pl in ranked[:keep])


@dataclass
class Weights:
    """Tunable values of the potentials, in points."""

    trunk1: float = 1.5
    trunk2: float = 4.0
    gray1: float = 1.0
    gray2: float = 2.5
    lone_mountain: float = 0.5
    lone_field: float = 2.0
    lone_red: float = 1.5
    building_open: float = 2.5
    river_end: float = 1.5
    empty_scarce: float = 2.5
    empty_plenty: float = 0.4
    card_next: float = 1.4
    card_rest: float = 0.5
    slot: float = 1.0
    spirit_gain: float = 8.0
    # Four unfinished cards held: no card can be taken until one is done, however well it fits.
    full_hand: float = 0.0
    # The game ends once a board has 2 empty hexes or fewer: a board that covers about
    # `hexes_per_turn` new hexes a turn plays (empties - 2) / hexes_per_turn more turns, and
    # each turn the pouch would still give but the board cannot take costs `turn_worth`.
    turn_worth: float = 0.0
    hexes_per_turn: float = 2.0


@dataclass
class Context:
    """What stays fixed while one turn is searched: the side, the turns left, the card focus."""

    side: str
    turns_left: int
    weights: Weights
    # The placements searched for each card; a card not in it uses all of its placements.
    focus: dict[str, tuple] | None = None
    # Card id -> how much of its expected points the bot's play turns into points (bots.tuned);
    # a card not in it counts 1.
    ease: dict[str, float] = field(default_factory=dict)
    # Memo of card potentials: (card, cubes placed, cubes wanted, codes of the card's cells).
    # A card's potential reads only the hexes of its placements, and a turn's search values
    # thousands of boards that differ elsewhere, so most lookups hit. Exact: same floats.
    memo: dict[tuple, float] = field(default_factory=dict, repr=False, compare=False)
    # card id -> (its placements here, a getter of the codes of the cells they cover).
    cells: dict[str, tuple] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def stack_potentials(self) -> list[float]:
        """By stack code: what an uncovered stack is worth beyond its points (0.0 for most)."""
        w = self.weights
        worth = {
            ("brown",): w.trunk1,
            ("brown", "brown"): w.trunk2,
            ("gray",): w.gray1,
            ("gray", "gray"): w.gray2,
            ("red",): w.lone_red,
        }
        return [worth.get(s, 0.0) for s in STACKS]

    def places(self, card_id: str) -> tuple[tuple, itemgetter | None]:
        """The card's placements searched here, and a getter of the codes they read."""
        found = self.cells.get(card_id)
        if found is None:
            places = (self.focus or {}).get(card_id)
            if places is None:
                places = card_placements(self.side, card_id)
            covered = sorted({c for pl in places for c, _ in pl})
            # itemgetter of one cell returns a bare code, which is as good a key as a tuple.
            found = (places, itemgetter(*covered) if covered else None)
            self.cells[card_id] = found
        return found

    def potential(self, card_id: str, placed: int, wanted: int, codes: Sequence[int]) -> float:
        """card_potential of the card's `wanted` nearest habitats on the board `codes`."""
        places, getter = self.places(card_id)
        key = (card_id, placed, wanted, getter(codes) if getter is not None else None)
        value = self.memo.get(key)
        if value is None:
            value = card_potential(card_id, placed, distances(codes, places, wanted), self)
            self.memo[key] = value
        return value


def fade(turns_left: int) -> float:
    return 0.0 if turns_left <= 0 else min(1.0, 0.35 + 0.25 * turns_left)


def card_potential(card_id: str, placed: int, ds: Sequence[int], ctx: Context) -> float:
    """What holding this card is worth beyond its points now, by the distances of its habitats."""
    w = ctx.weights
    budget = 3 * ctx.turns_left
    c = card(card_id)
    if c.kind == "spirit":
        gains: Sequence[int] = (1,)
        scale = w.spirit_gain
    else:
        values = c.score_by_cubes_placed
        gains = [values[j + 1] - values[j] for j in range(placed, len(values) - 1)]
        scale = 1.0
    total = 0.0
    used = 0
    for j, (gain, d) in enumerate(zip(gains, ds)):  # noqa: B905 (ds may be shorter)
        if d >= FAR:
            break
        used += d
        if used > budget:
            break
        if ctx.turns_left <= 0:
            reach = 1.0 if d == 0 else 0.0
        else:
            reach = REACH[d] if d < len(REACH) else 0.0
        total += reach * gain * (w.card_next if j == 0 else w.card_rest)
    return total * scale * ctx.ease.get(card_id, 1.0)


def board_value(
    ctx: Context,
    stacks: Sequence[Stack],
    cube_mask: int,
    cards: Sequence[tuple[str, int]],
    completed: Sequence[str],
    spirit: str | None,
    spirit_placed: bool,
    display: Sequence[str] = (),
) -> float:
    """Points now plus potentials. `display` cards count as one optional take (best of them)."""
    side = ctx.side
    w = ctx.weights
    # One pass over the hexes: their codes, the empty ones, the potentials of single stacks,
    # and the stacks whose potential depends on the score sheet (checked after scoring).
    stack_code = STACK_CODE
    kinds = STACK_KIND
    pots = ctx.stack_potentials
    codes = []
    empty = 0
    grays: list[tuple[int, int]] = []
    lone_fields: list[int] = []
    buildings: list[int] = []
    pot = 0.0
    for i, s in enumerate(stacks):
        code = stack_code[s]
        if cube_mask >> i & 1:
            codes.append(code + FROZEN)
        else:
            codes.append(code)
            pot += pots[code]
        kind = kinds[code]
        if kind:
            if kind == EMPTY:
                empty |= 1 << i
            elif kind == GRAY:
                grays.append((i, len(s)))
            elif kind == BUILDING:
                buildings.append(i)
            else:
                lone_fields.append(i)
    empties = empty.bit_count()
    turns_left = ctx.turns_left if empties > 2 else 0  # 2 empty hexes or fewer: the end
    scored = [*cards, *((c, card(c).cube_count) for c in completed)]
    if spirit is not None:
        scored.append((spirit, 1 if spirit_placed else 0))
    sheet = score_board(side, stacks, cube_mask, scored)
    value = float(sheet.total)
    f = fade(turns_left)
    if f == 0.0:  # the game is over after this turn: points only
        return value
    near = geometry(side).neighbour_mask
    # Mountains without a neighbouring mountain score nothing yet; an empty neighbour may fix it.
    if grays:
        scoring_mtn = sheet.scoring_mountains
        for i, n in grays:
            if i not in scoring_mtn and near[i] & empty:
                pot += w.lone_mountain * (1, 3, 7)[n - 1] + 0.3
    # Lone field tokens with room to grow into a group.
    if lone_fields:
        grouped = {c for g in sheet.field_groups for c in g}
        for i in lone_fields:
            if i not in grouped and near[i] & empty:
                pot += w.lone_field
    if buildings:
        qualifying = sheet.qualifying_buildings
        for i in buildings:
            if i not in qualifying and near[i] & empty:
                pot += w.building_open
    if side == "A" and sheet.river_path:
        path = sheet.river_path
        ends = {path[0], path[-1]}
        on_path = sum(1 << c for c in path)
        for e in ends:
            others = on_path & ~(1 << e)
            if any(empty >> j & 1 and not near[j] & others for j in geometry(side).neighbours[e]):
                pot += w.river_end
    tokens_to_come = 3 * ctx.turns_left
    usable = empties - 2
    pot += empties * (w.empty_scarce if usable < tokens_to_come else w.empty_plenty)
    if w.turn_worth:
        lost = ctx.turns_left - usable / max(w.hexes_per_turn, 0.5)
        if lost > 0:
            pot -= w.turn_worth * lost

    held = 0
    for card_id, placed in cards:
        wanted = card(card_id).cube_count - placed
        pot += ctx.potential(card_id, placed, wanted, codes) - w.slot
        held += 1
    if spirit is not None and not spirit_placed:
        pot += ctx.potential(spirit, 0, 1, codes) - w.slot
        held += 1
    if held >= CARD_LIMIT:
        pot -= w.full_hand
    if display and held < CARD_LIMIT:
        best = 0.0
        for card_id in display:
            best = max(best, ctx.potential(card_id, 0, card(card_id).cube_count, codes) - w.slot)
        pot += best
    return value + f * pot
