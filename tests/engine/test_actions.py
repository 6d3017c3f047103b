"""Actions and their JSON form, including forged input from the web (never a crash)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ChooseSpirit,
    EndTurn,
    IllegalAction,
    InvalidAction,
    PlaceCube,
    PlaceToken,
    ResetTurn,
    TakeCard,
    TakeTokens,
    action_from_json,
    apply,
    new_game,
)
from games.engine.state import GameConfig

EXAMPLES = [
    ChooseSpirit("spirit_lion"),
    TakeTokens(4),
    PlaceToken("green", "2,3"),
    TakeCard("animal_07"),
    PlaceCube("animal_07", "0,0"),
    PlaceCube("spirit_tortoise", "6,3"),
    ResetTurn(),
    EndTurn(),
    EndTurn("animal_32"),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=repr)
def test_every_action_round_trips_through_json(action):
    assert action_from_json(action.to_json()) == action


def test_action_json_names_the_type_and_the_fields():
    assert PlaceToken("blue", "1,2").to_json() == {
        "type": "place_token",
        "colour": "blue",
        "cell": "1,2",
    }
    assert EndTurn().to_json() == {"type": "end_turn"}
    assert action_from_json({"type": "end_turn", "discard": None}) == EndTurn()


def test_a_malformed_action_is_also_an_illegal_action():
    assert issubclass(InvalidAction, IllegalAction)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "must be a JSON object"),
        ({}, "unknown action type"),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": ["take_tokens"]}, "unknown action type"),
        ({"type": "take_tokens"}, "take_tokens needs space"),
        ({"type": "take_tokens", "space": 1, "extra": 2}, "does not take 'extra'"),
        ({"type": "take_tokens", "space": "1"}, "numbered 0 to 4"),
        ({"type": "take_tokens", "space": True}, "numbered 0 to 4"),
        ({"type": "take_tokens", "space": 1.0}, "numbered 0 to 4"),
        ({"type": "take_tokens", "space": 10**100}, "numbered 0 to 4"),
        ({"type": "take_tokens", "space": -1}, "numbered 0 to 4"),
        ({"type": "place_token", "colour": "purple", "cell": "0,0"}, "unknown token colour"),
        ({"type": "place_token", "colour": "blue", "cell": "9,9"}, "unknown hex '9,9'"),
        ({"type": "place_token", "colour": "blue", "cell": " 0,0"}, "unknown hex"),
        ({"type": "place_token", "colour": "blue", "cell": [0, 0]}, "unknown hex"),
        ({"type": "place_token", "colour": "blue", "cell": "x" * 10_000}, "unknown hex"),
        ({"type": "take_card", "card_id": "animal_33"}, "unknown animal card"),
        ({"type": "take_card", "card_id": "spirit_lion"}, "unknown animal card"),
        ({"type": "choose_spirit", "card_id": "animal_01"}, "unknown Nature's Spirit card"),
        ({"type": "place_cube", "card_id": None, "cell": "0,0"}, "unknown card"),
        ({"type": "end_turn", "discard": 3}, "unknown animal card"),
        ({"type": "reset_turn", "why": "oops"}, "does not take"),
    ],
)
def test_a_forged_action_is_refused_with_a_reason(raw, message):
    with pytest.raises(InvalidAction, match=message):
        action_from_json(raw)


def test_a_long_bad_value_is_shortened_in_the_message():
    with pytest.raises(InvalidAction) as info:
        action_from_json({"type": "take_card", "card_id": "y" * 10_000})
    assert len(str(info.value)) < 100


def test_apply_refuses_what_is_not_an_action():
    state = new_game(GameConfig(players=2), 1)
    with pytest.raises(InvalidAction, match="not an action"):
        apply(state, {"type": "take_tokens", "space": 0})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children),
    max_leaves=8,
)
FIELDS = st.sampled_from(["type", "space", "colour", "cell", "card_id", "discard", "x"])
VALUES = st.sampled_from(
    ["take_tokens", "place_token", "end_turn", "place_cube", "blue", "0,0", "animal_01", 2]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON, st.dictionaries(FIELDS, VALUES | JSON, max_size=4)))
def test_any_json_either_parses_to_an_action_or_is_refused_cleanly(raw):
    try:
        action = action_from_json(raw)
    except InvalidAction:
        return
    assert action_from_json(action.to_json()) == action
