"""Searching one whole turn: which space, where its 3 tokens go, which card, which cubes.

Token placements are searched with a beam (every legal hex for every colour still in hand,
duplicates merged, the best boards kept after each token). The best few boards then try every
card choice (none, or each display card) with cubes placed greedily before and after the take,
and are valued by `evaluate.board_value` over all habitat placements.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..actions import Action, EndTurn, PlaceCube, PlaceToken, TakeCard, TakeTokens
from ..cards import card
from ..habitats import cube_targets
from ..hexgrid import geometry
from ..rules import _ACCEPTS, apply, can_discard, cube_cards, landscapes
from ..state import CARD_LIMIT, TOKENS_PER_SPACE, GameState, PlayerState
from .evaluate import (
    Context,
    Weights,
    board_value,
    card_placements,
    card_potential,
    codes_of,
    distances,
    nearest,
)
from .tuned import card_ease, tuned_weights


@dataclass
class Settings:
    """How hard a bot searches: beam width, boards kept for the card stage, noise."""

    beam: int = 12
    keep: int = 6
    focus: int = 12
    noise: float = 0.0
    # None: the weights fitted for the kind of game (bots.tuned), or the hand-set defaults.
    weights: Weights | None = None


@dataclass
class Plan:
    """The rest of a turn as actions (ending with EndTurn), its value, and the state it leaves."""

    actions: list[Action]
    value: float
    state: GameState


def turns_left(state: GameState) -> int:
    """The mover's turns after this one as the pouch allows (the board may end the game sooner)."""
    if state.ending:
        return 0
    pouch = len(state.pouch)
    if state.config.solo:
        turns = 0
        while pouch >= TOKENS_PER_SPACE:
            turns += 1
            pouch -= min(pouch // TOKENS_PER_SPACE, state.config.spaces) * TOKENS_PER_SPACE
        return turns
    turns = -(-pouch // (TOKENS_PER_SPACE * state.config.players))
    # Any player filling a board ends the game too; others fill about 2.5 empty hexes a turn.
    for seat, player in enumerate(state.players):
        if seat != state.current_seat:
            turns = min(turns, max(0, int((player.empty_hexes - 2) / 2.5)))
    return turns


def context(state: GameState, settings: Settings, focused: bool) -> Context:
    """The context of the mover's turn; `focused` limits each card to its nearest habitats."""
    side = state.config.side
    left = turns_left(state)
    if settings.weights is None:  # the fitted weights of this kind of game, at this stage
        ctx = Context(side, left, tuned_weights(state.config, left), ease=card_ease(state.config))
    else:  # a bot's own weights (the easy bot's), every card alike
        ctx = Context(side, left, settings.weights)
    if focused:
        player = state.mover
        codes = codes_of(player.stacks, player.cube_mask)
        ids = [c for c, _ in player.cards] + list(state.display)
        if player.spirit is not None and not player.spirit_placed:
            ids.append(player.spirit)
        ctx.focus = {c: nearest(codes, card_placements(side, c), settings.focus) for c in ids}
    return ctx


# What the searches of one decision may share (HardBot's futures), by key: the full context
# by the turns left (its memo of card potentials holds for any board), the focused context and
# the token boards' values by the mover's player state and display too. Settings enter a key by
# id(): they are unhashable dataclasses, and the bot holds them for longer than any memo lives.
Memo = dict[tuple, Any]


def contexts(
    state: GameState, settings: Settings, memo: Memo | None = None
) -> tuple[Context, Context, dict[tuple, float]]:
    """The focused and the full context of the mover's turn, and a memo of token boards' values.

    They follow from the keys below alone, so searches with equal keys share them (the same
    rival replying after each of our plans in one sampled future): same floats, less work.
    """
    if memo is None:  # a search alone: nothing to share
        memo = {}
    left = turns_left(state)
    full_key = ("full", id(settings), state.config, left)
    full = memo.get(full_key)
    if full is None:
        full = memo[full_key] = context(state, settings, False)
    key = ("fast", id(settings), state.config, left, state.mover, state.display, state.took_card)
    found = memo.get(key)
    if found is None:
        found = memo[key] = (context(state, settings, True), {})
    return found[0], full, found[1]


def _value(ctx: Context, player: PlayerState, display=()) -> float:
    return board_value(
        ctx,
        player.stacks,
        player.cube_mask,
        player.cards,
        player.completed,
        player.spirit,
        player.spirit_placed,
        display,
    )


def token_boards(
    state: GameState,
    hand: tuple[str, ...],
    ctx: Context,
    settings: Settings,
    rng: random.Random,
    values: dict[tuple, float] | None = None,
) -> list[tuple[float, tuple, list[tuple[str, int]]]]:
    """(value, stacks, [(colour, cell), ...]) for placements of `hand`, best first.

    `values` memoises board values by stacks; share it only between calls whose mover, cubes,
    cards and display are the same (the central spaces of one turn), where boards repeat.
    """
    if values is None:
        values = {}
    player = state.mover
    mask = player.cube_mask
    can_take = not state.took_card and player.cards_held < CARD_LIMIT
    display = state.display if can_take else ()
    frontier: list[tuple[float, tuple, tuple[str, ...], list]] = [(0.0, player.stacks, hand, [])]
    for _ in range(len(hand)):
        children: dict[tuple, tuple[tuple[str, ...], list]] = {}
        for _, stacks, left, steps in frontier:
            for colour in dict.fromkeys(left):
                accepts = _ACCEPTS[colour]
                rest = list(left)
                rest.remove(colour)
                rest_t = tuple(rest)
                for i, s in enumerate(stacks):
                    if s in accepts and not mask >> i & 1:
                        new = (*stacks[:i], (*s, colour), *stacks[i + 1 :])
                        if new not in children:
                            children[new] = (rest_t, [*steps, (colour, i)])
        scored = []
        for new, (rest_t, steps) in children.items():
            v = values.get(new)
            if v is None:
                v = values[new] = board_value(
                    ctx,
                    new,
                    mask,
                    player.cards,
                    player.completed,
                    player.spirit,
                    player.spirit_placed,
                    display,
                )
            if settings.noise:
                v += rng.gauss(0.0, settings.noise)
            scored.append((v, new, rest_t, steps))
        scored.sort(key=lambda x: -x[0])
        frontier = scored[: settings.beam]
    return [(v, stacks, steps) for v, stacks, _, steps in frontier]


def place_cubes(state: GameState, ctx: Context, actions: list[Action]) -> GameState:
    """Place cubes while any habitat allows one, each time the (card, hex) valued best."""
    side = state.config.side
    names = geometry(side).names
    while True:
        player = state.mover
        lands = landscapes(player)
        best = None
        for card_id in cube_cards(player):
            for cell in cube_targets(side, lands, player.cube_mask, card_id):
                action = PlaceCube(card_id, names[cell])
                after = apply(state, action)
                v = _value(ctx, after.mover)
                if best is None or v > best[0]:
                    best = (v, after, action)
        if best is None:
            return state
        state = best[1]
        actions.append(best[2])


def finish_options(state: GameState, ctx: Context) -> list[Plan]:
    """Plans from a state whose tokens are all placed: every card choice, cubes around it."""
    out = []
    base_actions: list[Action] = []
    base = place_cubes(state, ctx, base_actions)
    options: list[str | None] = [None]
    if not base.took_card and base.mover.cards_held < CARD_LIMIT:
        options.extend(base.display)
    for option in options:
        actions = list(base_actions)
        after = base
        if option is not None:
            action = TakeCard(option)
            after = apply(after, action)
            actions.append(action)
            after = place_cubes(after, ctx, actions)
        out.append(Plan(actions, _value(ctx, after.mover), after))
    return out


def discard_choice(state: GameState, ctx: Context, unseen: list[str]) -> str | None:
    """Solo: the display card to discard (replaced blind), if one is worth less than the pile."""
    if can_discard(state) is not None or not unseen:
        return None
    player = state.mover
    codes = codes_of(player.stacks, player.cube_mask)
    side = state.config.side

    def interest(card_id: str) -> float:
        ds = distances(codes, card_placements(side, card_id), card(card_id).cube_count)
        return card_potential(card_id, 0, ds, ctx) + 0.2 * card(card_id).score_by_cubes_placed[-1]

    worst = min(state.display, key=interest)
    pile = sum(map(interest, unseen)) / len(unseen)
    return worst if interest(worst) < pile else None


def plan_turn(
    state: GameState,
    settings: Settings,
    rng: random.Random,
    unseen_cards: list[str] | None = None,
    top: int = 1,
    deadline: float | None = None,
    memo: Memo | None = None,
    cuts: Counter[str] | None = None,
) -> list[Plan]:
    """The best plans for the rest of the mover's turn, best first.

    Past `deadline` (a time.perf_counter() value) no further board gets the card stage, so a
    time budget holds even on a slow machine; the best board always gets it. `memo` is shared
    by the searches of one decision (see `contexts`). `cuts`, if given, counts the searches
    ("searches") and those the deadline cut short ("cut"), for the benchmark to report.
    """
    # Taking tokens changes no board: one memo of values serves all spaces.
    fast, full, values = contexts(state, settings, memo)
    names = geometry(state.config.side).names
    starts: list[tuple[float, GameState, list[Action]]] = []
    if state.taken_space is None:
        spaces = [i for i, s in enumerate(state.central) if s]
        todo = [(apply(state, TakeTokens(i)), [TakeTokens(i)]) for i in spaces]
    else:
        todo = [(state, [])]
    for taken, prefix in todo:
        for v, _, steps in token_boards(taken, taken.hand, fast, settings, rng, values):
            after = taken
            actions = list(prefix)
            for colour, cell in steps:
                action = PlaceToken(colour, names[cell])
                after = apply(after, action)
                actions.append(action)
            starts.append((v, after, actions))
    starts.sort(key=lambda x: -x[0])
    plans = []
    if cuts is not None:
        cuts["searches"] += 1
    for _, after, actions in starts[: settings.keep]:
        if plans and deadline is not None and time.perf_counter() > deadline:
            if cuts is not None:
                cuts["cut"] += 1
            break
        for option in finish_options(after, full):
            option.actions[:0] = actions
            plans.append(option)
    plans.sort(key=lambda p: -p.value)
    # Token orders and card choices often lead to the same position: keep one plan for each.
    seen = set()
    unique = []
    for plan in plans:
        key = (plan.state.mover, plan.state.central, plan.state.display)
        if key not in seen:
            seen.add(key)
            unique.append(plan)
            if len(unique) == top:
                break
    plans = unique
    for plan in plans:
        discard = None
        if state.config.solo and unseen_cards is not None:
            discard = discard_choice(plan.state, full, unseen_cards)
        plan.actions.append(EndTurn(discard))
    return plans
