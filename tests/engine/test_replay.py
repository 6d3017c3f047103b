"""Replaying recorded games: the seed and the action log reproduce the game exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import (
    GameConfig,
    IllegalAction,
    ReplayError,
    TakeTokens,
    new_game,
    record,
    replay,
    replay_record,
    state_to_json,
)

FIXTURES = Path(__file__).with_name("fixtures")


def load(name):
    return json.loads((FIXTURES / name).read_text())


def test_replay_without_actions_is_the_new_game():
    config = GameConfig(players=4, side="B", spirits=True)
    assert replay(config, 9, []) == new_game(config, 9)


def test_a_recorded_game_replays_to_a_finished_game():
    state = replay_record(load("game_recorded_2p_spirits.json"))
    assert state.finished
    assert [p.turns for p in state.players] == [9, 9]


def test_a_record_round_trips():
    raw = load("game_recorded_solo_b.json")
    state = replay_record(raw)
    config = GameConfig.from_json(raw["config"])
    again = record(config, raw["seed"], [])
    assert again == {"config": raw["config"], "seed": raw["seed"], "actions": []}
    assert state_to_json(replay(config, raw["seed"], raw["actions"])) == state_to_json(state)


def test_an_illegal_move_names_its_number_and_the_reason():
    raw = load("game_recorded_2p_spirits.json")
    raw["actions"].insert(3, {"type": "take_tokens", "space": 0})
    with pytest.raises(ReplayError) as info:
        replay_record(raw)
    assert info.value.move == 4
    assert "move 4" in str(info.value)
    assert isinstance(info.value, IllegalAction)


def test_a_malformed_move_is_reported_like_an_illegal_one():
    config = GameConfig(players=2)
    with pytest.raises(ReplayError, match=r"move 2 .* unknown hex"):
        replay(config, 1, [TakeTokens(0), {"type": "place_token", "colour": "blue", "cell": "8,8"}])


@pytest.mark.parametrize(
    "raw",
    [
        [],
        {"config": {}, "seed": 1},
        {"config": {"players": 5}, "seed": 1, "actions": []},
        {"config": {}, "seed": "1", "actions": []},
        {"config": {}, "seed": 1, "actions": {}},
        {"config": {"colour": "x"}, "seed": 1, "actions": []},
    ],
)
def test_a_malformed_record_is_refused(raw):
    with pytest.raises(ValueError):
        replay_record(raw)
