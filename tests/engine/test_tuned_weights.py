"""The bots' fitted weights: one set per kind of game, the defaults where none was fitted."""

import json

import pytest

from games.engine import GameConfig
from games.engine.bots import tuned
from games.engine.bots.evaluate import Weights, card_potential
from games.engine.bots.planner import Settings, context, turns_left
from games.engine.cards import ANIMAL_CARD_IDS
from games.engine.setup_game import new_game


@pytest.mark.parametrize(
    ("players", "side", "key"),
    [(1, "A", "solo-A"), (1, "B", "solo-B"), (2, "A", "2p"), (3, "B", "34p"), (4, "A", "34p")],
)
def test_each_kind_of_game_has_its_key(players, side, key):
    assert tuned.mode_key(GameConfig(players=players, side=side)) == key


def test_the_shipped_file_names_only_known_weights_stages_and_cards():
    table = json.loads(tuned.TUNED_FILE.read_text())
    for key, weights in table.items():
        assert key in {"solo-A", "solo-B", "2p", "34p"}
        stages = weights.pop("stages", {})
        ease = weights.pop("cards", {})
        assert set(weights) <= set(tuned.NAMES)
        for left, stage in stages.items():
            assert 0 <= int(left) <= 20
            assert set(stage) <= set(tuned.NAMES)
        assert set(ease) <= set(ANIMAL_CARD_IDS)
        assert all(0 < v < 5 for v in ease.values())


def use(monkeypatch, tmp_path, table: dict) -> None:
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps(table))
    monkeypatch.setattr(tuned, "TUNED_FILE", path)
    tuned._table.cache_clear()


@pytest.fixture(autouse=True)
def fresh_table():
    tuned._table.cache_clear()
    yield
    tuned._table.cache_clear()


def test_a_stage_replaces_the_weights_of_its_turns_left_only(monkeypatch, tmp_path):
    use(monkeypatch, tmp_path, {"solo-A": {"trunk1": 3.0, "stages": {"5": {"trunk1": 4.0}}}})
    solo = GameConfig(players=1, side="A")
    assert tuned.tuned_weights(solo, 5).trunk1 == 4.0
    assert tuned.tuned_weights(solo, 4).trunk1 == 3.0
    assert tuned.tuned_weights(solo).trunk1 == 3.0
    assert tuned.tuned_weights(solo, 5).trunk2 == Weights().trunk2


def test_the_search_uses_the_stage_of_the_turns_left(monkeypatch, tmp_path):
    solo = new_game(GameConfig(players=1, side="A"), 1)
    left = turns_left(solo)
    use(monkeypatch, tmp_path, {"solo-A": {"stages": {str(left): {"empty_scarce": 9.0}}}})
    assert context(solo, Settings(), focused=False).weights.empty_scarce == 9.0


def test_a_card_s_ease_scales_what_it_promises(monkeypatch, tmp_path):
    solo = new_game(GameConfig(players=1, side="A"), 1)
    card_id = solo.display[0]
    use(monkeypatch, tmp_path, {"solo-A": {}})
    plain = context(solo, Settings(), focused=False)
    use(monkeypatch, tmp_path, {"solo-A": {"cards": {card_id: 0.5}}})
    eased = context(solo, Settings(), focused=False)
    assert eased.ease == {card_id: 0.5}
    ds = [1, 2, 3]
    assert card_potential(card_id, 0, ds, eased) == 0.5 * card_potential(card_id, 0, ds, plain)
    # A bot with weights of its own (the easy bot) values every card alike.
    assert context(solo, Settings(weights=Weights()), focused=False).ease == {}


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
