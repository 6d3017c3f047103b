"""The stored game as the web app reads it (games/models/)."""

import pytest

from games.models import Game
from games.models.game import _parse_state
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def test_one_stored_state_is_parsed_once_per_process_and_shared():
    game = start_game(UserFactory(), UserFactory())
    first = Game.objects.get(pk=game.pk).engine_state()
    again = Game.objects.get(pk=game.pk).engine_state()  # another request, the same text
    assert again is first


def test_a_changed_state_is_parsed_afresh_and_a_damaged_one_is_never_kept():
    game = start_game(UserFactory(), UserFactory())
    before = game.engine_state()
    game.state = game.state.replace('"turn":0', '"turn":1')
    assert '"turn":1' in game.state
    assert game.engine_state() is not before
    assert game.engine_state().turn == 1
    misses = _parse_state.cache_info().misses
    for _ in range(2):
        with pytest.raises(ValueError):
            _parse_state("{not a state")
    assert _parse_state.cache_info().misses == misses + 2  # failures are not remembered
