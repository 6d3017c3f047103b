"""The end of a game: finalize stores ranks, then record_game stores every seat's sheet once."""

import pytest

from games import engine
from games import tasks as game_tasks
from records import services, tasks
from records.models import GameRecord, Pool, Rating, SeatResult
from tests.factories import UserFactory
from tests.records.helpers import quick_game, real_game, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(player, other_player, django_capture_on_commit_callbacks):
    return real_game(django_capture_on_commit_callbacks, player, other_player)


def test_it_records_every_seat_by_category_when_the_last_turn_ends(finished):
    state = finished.engine_state()
    sheets = engine.score_sheets(state)
    seats = {s.position: s for s in finished.seats.all()}
    results = list(SeatResult.objects.filter(game=finished).order_by("position"))
    assert len(results) == 2
    for result in results:
        sheet, seat = sheets[result.position], seats[result.position]
        assert sheet.as_dict() == {key: getattr(result, key) for key in sheet.as_dict()}
        assert (result.user_id, result.place, result.total) == (
            seat.user_id,
            seat.rank,
            seat.final_score,
        )
        assert result.animal_cubes == engine.animal_cubes(state.players[result.position])
        assert result.pool == Pool.PLAYERS and result.suns is None
    assert GameRecord.objects.get(game=finished).pool == Pool.PLAYERS
    assert Rating.objects.filter(scope__in=["all", "A"]).count() == 4


def test_it_records_the_animal_cards_each_player_took(finished):
    state = finished.engine_state()
    for result in SeatResult.objects.filter(game=finished):
        player = state.players[result.position]
        expected = [c for c, _ in player.cards] + list(player.completed)
        assert sorted(result.cards) == sorted(expected)


def test_running_the_task_twice_changes_nothing(finished):
    before = snapshot()
    assert tasks.record_game(finished.pk) is False
    assert game_tasks.finalize_game(finished.pk) is False  # and queues nothing
    assert snapshot() == before


def test_it_does_not_record_a_game_before_finalize(player, other_player):
    game = quick_game(player, other_player, record=False)
    game.finalized_at = None
    game.save()
    assert tasks.record_game(game.pk) is False
    assert not SeatResult.objects.exists()


def test_it_does_not_record_a_game_in_progress(player, other_player):
    from tests.games.helpers import start_game

    game = start_game(player, other_player)
    assert tasks.record_game(game.pk) is False
    assert tasks.record_game(987654) is False
    assert not GameRecord.objects.exists()


def test_finalize_queues_the_record_after_commit(
    player, other_player, django_capture_on_commit_callbacks
):
    game = quick_game(player, other_player, record=False)
    game.finalized_at = None
    game.save()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert game_tasks.finalize_game(game.pk) is True
    assert not SeatResult.objects.exists()  # nothing before the commit
    for callback in callbacks:
        callback()
    assert SeatResult.objects.filter(game=game).count() == 2


def test_solo_games_are_recorded_with_suns_and_not_rated(
    player, django_capture_on_commit_callbacks
):
    game = real_game(django_capture_on_commit_callbacks, player, side="B", spirits=True)
    result = SeatResult.objects.get(game=game)
    state = game.engine_state()
    assert result.pool == Pool.SOLO and result.place == 1
    assert result.suns == engine.suns(state) and result.suns is not None
    assert not Rating.objects.exists()


def test_games_with_a_bot_are_rated_in_the_bots_pool_only(player):
    bot = UserFactory(username="bramble", bot_level="easy")
    quick_game(player, bot)
    assert set(SeatResult.objects.values_list("pool", "is_bot")) == {
        (Pool.BOTS, False),
        (Pool.BOTS, True),
    }
    assert set(Rating.objects.values_list("pool", flat=True)) == {Pool.BOTS}
    assert Rating.objects.filter(user=bot, scope="all").exists()


def test_a_resigned_seat_is_marked(player, other_player):
    game = quick_game(player, other_player, record=False)
    game.seats.filter(user=other_player).update(resigned_at=game.finished_at)
    services.record_game(game.pk)
    assert SeatResult.objects.get(user=other_player).resigned
    assert not SeatResult.objects.get(user=player).resigned
