"""Views: what a seat or a spectator sees, with the secrets left out."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import ChooseSpirit, GameConfig, apply, new_game, random_policy, view_for
from games.engine.state import evolve
from tests.engine.game_support import game, play_turn


def viewers(state):
    return [None, *range(state.config.players)]


def test_a_view_is_plain_json():
    state = game(players=3, spirits=True)
    for seat in viewers(state):
        view = view_for(state, seat)
        assert json.loads(json.dumps(view)) == view


def test_the_pouch_and_the_draw_pile_are_shown_as_counts_only():
    state = game(players=2)
    view = view_for(state, 0)
    assert view["pouch_count"] == 105 and view["deck_count"] == 27
    assert "pouch" not in view and "deck" not in view
    text = json.dumps(view)
    assert not [c for c in state.deck if c in text]


def test_a_seat_sees_its_own_dealt_spirits_and_nobody_elses():
    state = game(players=3, spirits=True)
    mine = list(state.players[1].spirit_options)
    view = view_for(state, 1)
    assert view["players"][1]["spirit_options"] == mine
    assert view["players"][0]["spirit_options"] == []
    assert view["players"][0]["choosing_spirit"] is True
    spectator = json.dumps(view_for(state, None))
    assert not [c for p in state.players for c in p.spirit_options if c in spectator]
    other = json.dumps(view_for(state, 0))
    assert not [c for c in mine if c in other]


def test_the_kept_spirit_is_public_and_the_returned_one_is_never_shown():
    state = game(players=2, spirits=True)
    kept, returned = state.players[0].spirit_options
    state = apply(state, ChooseSpirit(kept))
    for seat in viewers(state):
        view = view_for(state, seat)
        assert view["players"][0]["spirit"] == kept
        assert returned not in json.dumps(view)  # not even from the turn-start snapshot


def test_the_view_shows_the_board_by_cell_name():
    state = play_turn(game(players=2), colours=("blue", "gray", "gray"))
    stacks = view_for(state, None)["players"][0]["stacks"]
    assert stacks == {"0,0": ["blue"], "0,1": ["gray"], "0,2": ["gray"]}


def shuffled_secrets(state, rng):
    pouch, deck = list(state.pouch), list(state.deck)
    rng.shuffle(pouch)
    rng.shuffle(deck)
    return evolve(state, pouch=tuple(pouch), deck=tuple(deck))


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(1, 4),
    spirits=st.booleans(),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
)
def test_views_do_not_depend_on_the_hidden_orders(players, spirits, seed, steps):
    rng = random.Random(seed)
    state = new_game(GameConfig(players=players, side=rng.choice("AB"), spirits=spirits), seed)
    for _ in range(steps):
        if state.finished:
            break
        state = apply(state, random_policy(state, rng))
    other = shuffled_secrets(state, rng)
    for seat in viewers(state):
        assert view_for(state, seat) == view_for(other, seat)


def test_a_finished_game_shows_the_scores_and_the_ranking():
    state = evolve(game(players=1), finished=True, ending=True)
    view = view_for(state, None)
    assert view["scores"][0]["total"] == 0
    assert view["ranking"][0]["place"] == 1
    assert view["suns"] == 3
    assert "scores" not in view_for(game(players=2), 0)
