"""Properties of whole random games: conservation, legal stacks, agreement of the rules API."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    ANIMAL_CARD_IDS,
    COLOURS,
    SPIRIT_CARD_IDS,
    TOKEN_SUPPLY,
    ChooseSpirit,
    EndTurn,
    GameConfig,
    IllegalAction,
    PlaceCube,
    PlaceToken,
    ResetTurn,
    TakeCard,
    TakeTokens,
    apply,
    geometry,
    legal_actions,
    new_game,
    replay,
    state_from_json,
    state_to_json,
)
from games.engine.tokens import LEGAL_STACKS

PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def eager_policy(state, rng, resets):
    """Random, but keen on cards and cubes (so they get exercised) and now and then a reset."""
    actions = legal_actions(state)
    if actions[-1] == ResetTurn():
        if resets.get(state.turn, 0) < 1 and rng.random() < 0.05:
            resets[state.turn] = 1
            return actions[-1]
        actions = actions[:-1]
    cubes = [a for a in actions if type(a) is PlaceCube]
    if cubes and rng.random() < 0.9:
        return rng.choice(cubes)
    cards = [a for a in actions if type(a) is TakeCard]
    if cards and rng.random() < 0.5:
        return rng.choice(cards)
    # Stacking builds trees, mountains and buildings, which most habitats need.
    index = geometry(state.config.side).index
    stacks = state.mover.stacks
    stacking = [a for a in actions if type(a) is PlaceToken and stacks[index[a.cell]]]
    if stacking and rng.random() < 0.6:
        return rng.choice(stacking)
    return rng.choice(actions)


def random_candidates(state, rng, count=12):
    """Actions of every kind, mostly nonsense now: apply must refuse those not listed."""
    names = geometry(state.config.side).names
    everything = ANIMAL_CARD_IDS + SPIRIT_CARD_IDS
    makers = [
        lambda: TakeTokens(rng.randrange(5)),
        lambda: PlaceToken(rng.choice(COLOURS), rng.choice(names)),
        lambda: PlaceToken(rng.choice(COLOURS), rng.choice(names)),
        lambda: TakeCard(rng.choice(ANIMAL_CARD_IDS)),
        lambda: PlaceCube(rng.choice(everything), rng.choice(names)),
        lambda: ChooseSpirit(rng.choice(SPIRIT_CARD_IDS)),
        lambda: EndTurn(rng.choice((None, *ANIMAL_CARD_IDS))),
        lambda: ResetTurn(),
    ]
    return [rng.choice(makers)() for _ in range(count)]


def token_count(state):
    counts = Counter(state.pouch)
    counts.update(c for space in state.central for c in space)
    counts.update(state.hand)
    for player in state.players:
        counts.update(c for stack in player.stacks for c in stack)
    return counts


def check_invariants(before, state):
    config = state.config
    counts = token_count(state)
    assert sum(counts.values()) + state.discarded_tokens == 120
    if not config.solo:
        assert counts == Counter(TOKEN_SUPPLY)
        assert len(state.pouch) % 3 == 0
    cards = list(state.display) + list(state.deck) + list(state.discarded_cards)
    for player in state.players:
        cards += [c for c, _ in player.cards] + list(player.completed)
        assert player.cards_held <= 4
        for i, stack in enumerate(player.stacks):
            assert stack == () or stack in LEGAL_STACKS
            if player.cube_mask >> i & 1:
                assert stack != ()
    assert sorted(cards) == sorted(ANIMAL_CARD_IDS)
    # A stack under a cube never changes (nothing lands on a cube).
    for old, new in zip(before.players, state.players, strict=True):
        for i in range(len(new.stacks)):
            if (old.cube_mask & new.cube_mask) >> i & 1:
                assert old.stacks[i] == new.stacks[i]
    if state.turn_start is None and not state.finished:
        assert state.mover.empty_hexes >= 3


def play_checked(config, seed):
    rng = random.Random(seed)
    state = new_game(config, seed)
    log = []
    resets = {}
    steps = 0
    while not state.finished:
        listed = legal_actions(state)
        assert listed and ResetTurn() not in listed[:-1]
        listed_set = set(listed)
        for candidate in rng.sample(listed, min(4, len(listed))):
            apply(state, candidate)  # every listed action is accepted
        for candidate in random_candidates(state, rng):
            if candidate not in listed_set:
                try:
                    apply(state, candidate)
                except IllegalAction:
                    continue
                raise AssertionError(f"{candidate} was accepted but not listed")
        action = eager_policy(state, rng, resets)
        after = apply(state, action)
        check_invariants(state, after)
        if steps % 7 == 0:
            assert state_from_json(state_to_json(after)) == after
        log.append(action)
        state = after
        steps += 1
        assert steps < 3000
    return state, log


@PROPERTY_SETTINGS
@given(
    players=st.integers(1, 4),
    side=st.sampled_from("AB"),
    spirits=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_random_games_keep_every_rule_invariant_and_replay_exactly(players, side, spirits, seed):
    config = GameConfig(players=players, side=side, spirits=spirits)
    final, log = play_checked(config, seed)
    assert final.finished
    if players > 1:
        assert len({p.turns for p in final.players}) == 1
    if spirits:
        assert all(p.spirit is not None for p in final.players)
    text = state_to_json(final)
    assert state_from_json(text) == final
    assert state_to_json(replay(config, seed, log)) == text
    assert state_to_json(replay(config, seed, [a.to_json() for a in log])) == text


def test_the_same_seed_gives_the_same_game():
    config = GameConfig(players=3, side="B", spirits=True)
    assert state_to_json(new_game(config, 42)) == state_to_json(new_game(config, 42))
    assert state_to_json(new_game(config, 42)) != state_to_json(new_game(config, 43))
