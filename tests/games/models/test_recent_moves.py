"""The newest moves kept on the game row (games/models/recent_moves.py): the game page's log
without a query of its own, and never a wrong one."""

import random

import pytest

from games.models import Game, Move, recent_moves
from tests.factories import UserFactory
from tests.games.helpers import play_one_action, play_turns, start_game

pytestmark = pytest.mark.django_db

COLUMNS = ("seq", "seat", "turn", "action", "detail", "created_at")


def from_table(game: Game, limit: int) -> list[tuple]:
    moves = Move.objects.filter(game=game).order_by("-seq")[:limit]
    return list(moves.values_list(*COLUMNS))


def test_the_writer_keeps_the_newest_moves_exactly_as_the_log_has_them():
    game = play_turns(start_game(UserFactory(), UserFactory(), UserFactory()), turns=12, seed=3)
    assert game.move_count > recent_moves.KEPT

    for limit in (1, 10, recent_moves.KEPT):
        assert recent_moves.newest(game, limit) == from_table(game, limit)


def test_a_young_game_keeps_all_its_moves():
    game = start_game(UserFactory(), UserFactory())
    rng = random.Random(1)
    for _ in range(3):
        play_one_action(game, rng)

    assert recent_moves.newest(game, recent_moves.KEPT) == from_table(game, recent_moves.KEPT)


def test_a_kept_list_that_fell_behind_is_not_used_and_mends_itself():
    game = play_turns(start_game(UserFactory(), UserFactory()), turns=2, seed=1)
    Game.objects.filter(pk=game.pk).update(recent_moves="")  # a game logged before they were kept
    game.refresh_from_db()
    assert recent_moves.newest(game, recent_moves.KEPT) is None

    rng = random.Random(2)
    play_one_action(game, rng)
    assert recent_moves.newest(game, 1) == from_table(game, 1)  # the newest alone is known
    assert recent_moves.newest(game, recent_moves.KEPT) is None  # not yet the page's whole log

    game.move_count += 1  # a move logged by a path that did not keep it
    assert recent_moves.newest(game, 1) is None


def test_the_whole_log_is_never_read_from_the_row():
    game = play_turns(start_game(UserFactory(), UserFactory()), turns=1, seed=1)

    assert recent_moves.newest(game, recent_moves.KEPT + 1) is None


@pytest.mark.parametrize("garbage", ["[[1,0,0", "not json", "[x,1]\n[y,2]", '[3,0,0,{},{},"bad'])
def test_a_kept_list_it_cannot_read_is_never_used_and_never_stops_a_move(garbage):
    game = play_turns(start_game(UserFactory(), UserFactory()), turns=1, seed=1)
    Game.objects.filter(pk=game.pk).update(recent_moves=garbage)
    game.refresh_from_db()
    assert recent_moves.newest(game, 1) is None

    play_one_action(game, random.Random(3))

    assert recent_moves.newest(game, 1) == from_table(game, 1)
