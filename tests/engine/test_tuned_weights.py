"""The bots' fitted weights: one set per kind of game, the defaults where none was fitted."""

import json

import pytest

from games.engine import GameConfig
from games.engine.bots import tuned
from games.engine.bots.evaluate import Weights
from games.engine.bots.planner import Settings, context
from games.engine.setup_game import new_game


@pytest.mark.parametrize(
    ("players", "side", "key"),
    [(1, "A", "solo-A"), (1, "B", "solo-B"), (2, "A", "2p"), (3, "B", "34p"), (4, "A", "34p")],
)
def test_each_kind_of_game_has_its_key(players, side, key):
    assert tuned.mode_key(GameConfig(players=players, side=side)) == key


def test_the_shipped_file_names_only_known_weights():
    table = json.loads(tuned.TUNED_FILE.read_text())
    for key, weights in table.items():
        assert key in {"solo-A", "solo-B", "2p", "34p"}
        assert set(weights) <= set(tuned.NAMES)


def test_a_fitted_set_replaces_the_defaults_of_its_kind_only(monkeypatch, tmp_path):
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"solo-A": {"trunk1": 3.25}}))
    monkeypatch.setattr(tuned, "TUNED_FILE", path)
    tuned._table.cache_clear()
    try:
        solo = new_game(GameConfig(players=1, side="A"), 1)
        pair = new_game(GameConfig(players=2, side="A"), 1)
        assert context(solo, Settings(), focused=False).weights.trunk1 == 3.25
        assert context(solo, Settings(), focused=False).weights.trunk2 == Weights().trunk2
        assert context(pair, Settings(), focused=False).weights == Weights()
        # A bot given weights of its own (the easy bot) keeps them.
        own = Weights(trunk1=0.0)
        assert context(solo, Settings(weights=own), focused=False).weights is own
    finally:
        tuned._table.cache_clear()
