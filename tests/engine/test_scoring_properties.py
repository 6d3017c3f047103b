"""Scoring properties on random legal boards, against a slow reference written from the rules."""

import itertools
import random
from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import ANIMAL_CARD_IDS, SPIRIT_CARD_IDS, card
from games.engine.hexgrid import SIDES, geometry
from games.engine.river import river_points
from games.engine.scoring import score_board
from games.engine.tokens import LEGAL_STACKS

STACKS = sorted(LEGAL_STACKS | {()})
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def boards(draw, side=None):
    """(side, stacks): any legal stack on any hex, often from a small palette so shapes form."""
    side = side or draw(st.sampled_from(SIDES))
    size = geometry(side).size
    palette = draw(st.one_of(st.just(STACKS), st.lists(st.sampled_from(STACKS), min_size=1)))
    stacks = draw(st.lists(st.sampled_from(palette), min_size=size, max_size=size))
    return side, stacks


@st.composite
def hands(draw):
    """(card_id, cubes_placed) for distinct animal cards and at most one spirit."""
    ids = draw(st.lists(st.sampled_from(ANIMAL_CARD_IDS), unique=True, max_size=8))
    hand = [(i, draw(st.integers(0, card(i).cube_count))) for i in ids]
    if draw(st.booleans()):
        hand.append((draw(st.sampled_from(SPIRIT_CARD_IDS)), draw(st.integers(0, 1))))
    return hand


# --- a slow reference, straight from the words of rules §9 -----------------------------------


def groups(side, cells):
    """Connected groups of a set of cell indices, by breadth-first search."""
    geo, todo, found = geometry(side), set(cells), []
    while todo:
        start = min(todo)
        group, queue = {start}, deque([start])
        while queue:
            for j in geo.neighbours[queue.popleft()]:
                if j in todo and j not in group:
                    group.add(j)
                    queue.append(j)
        todo -= group
        found.append(group)
    return found


def distances(side, group, source):
    geo, dist, queue = geometry(side), {source: 0}, deque([source])
    while queue:
        i = queue.popleft()
        for j in geo.neighbours[i]:
            if j in group and j not in dist:
                dist[j] = dist[i] + 1
                queue.append(j)
    return dist


def reference(side, stacks):
    geo = geometry(side)
    top = [s[-1] if s else None for s in stacks]
    mountain = {i for i, s in enumerate(stacks) if s and set(s) == {"gray"}}
    trees = sum((0, 1, 3, 7)[len(s)] for s in stacks if s and s[-1] == "green")
    mountains = sum(
        (0, 1, 3, 7)[len(stacks[i])]
        for i in mountain
        if any(j in mountain for j in geo.neighbours[i])
    )
    fields = 5 * sum(
        1 for g in groups(side, [i for i, t in enumerate(top) if t == "yellow"]) if len(g) >= 2
    )
    buildings = 5 * sum(
        1
        for i, s in enumerate(stacks)
        if len(s) == 2
        and s[-1] == "red"
        and len({top[j] for j in geo.neighbours[i] if top[j]}) >= 3
    )
    blue = [i for i, t in enumerate(top) if t == "blue"]
    if side == "A":
        length = max(
            (
                max(d + 1 for d in distances(side, g, s).values())
                for g in groups(side, blue)
                for s in g
            ),
            default=0,
        )
        water = river_points(length)
    else:
        water = 5 * len(groups(side, [i for i in range(geo.size) if top[i] != "blue"]))
    return {
        "trees": trees,
        "mountains": mountains,
        "fields": fields,
        "buildings": buildings,
        "water": water,
    }


# --- properties ------------------------------------------------------------------------------


@SETTINGS
@given(boards(), hands())
def test_scoring_agrees_with_the_reference_and_adds_up(board, hand):
    side, stacks = board
    sheet = score_board(side, stacks, 0, hand)
    scores = sheet.as_dict()
    assert {k: scores[k] for k in reference(side, stacks)} == reference(side, stacks)
    categories = ("trees", "mountains", "fields", "buildings", "water", "animals", "spirit")
    assert sheet.total == sum(scores[k] for k in categories)
    assert sheet.animals == sum(p for cid, p in sheet.cards if cid.startswith("animal_"))
    assert sheet.spirit == sum(p for cid, p in sheet.cards if cid.startswith("spirit_"))


@SETTINGS
@given(boards(side="A"))
def test_the_river_path_is_a_shortest_path_through_blue_tokens(board):
    side, stacks = board
    geo = geometry(side)
    path = score_board(side, stacks, 0).river_path
    blue = {i for i, s in enumerate(stacks) if s == ("blue",)}
    assert len(path) <= len(blue)
    assert set(path) <= blue and len(set(path)) == len(path)
    for a, b in itertools.pairwise(path):
        assert b in geo.neighbours[a]
    if path:
        group = next(g for g in groups(side, blue) if path[0] in g)
        assert distances(side, group, path[0])[path[-1]] == len(path) - 1


@SETTINGS
@given(boards(side="B"))
def test_islands_and_water_partition_the_board(board):
    side, stacks = board
    geo = geometry(side)
    sheet = score_board(side, stacks, 0)
    blue = {i for i, s in enumerate(stacks) if s == ("blue",)}
    island_cells = [i for island in sheet.islands for i in island]
    assert len(island_cells) == len(set(island_cells))
    assert set(island_cells) | blue == set(range(geo.size))
    assert not set(island_cells) & blue
    for a in sheet.islands:
        assert len(groups(side, a)) == 1
        for b in sheet.islands:
            if a is not b:
                assert not any(j in b for i in a for j in geo.neighbours[i])
    assert sheet.water == 5 * len(sheet.islands)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SIDES),
    st.data(),
)
def test_water_heavy_boards_of_any_shape_score_like_the_reference(side, data):
    size = geometry(side).size
    water = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    stacks = [("blue",) if w else ("gray",) for w in water]
    assert score_board(side, stacks, 0).water == reference(side, stacks)["water"]


def test_rivers_with_many_loops_score_like_the_reference():
    rng = random.Random(11)
    for side in SIDES:
        size = geometry(side).size
        for n in range(300):
            share = 0.6 + 0.4 * (n % 9) / 8
            stacks = [("blue",) if rng.random() < share else () for _ in range(size)]
            assert score_board(side, stacks, 0).water == reference(side, stacks)["water"]
