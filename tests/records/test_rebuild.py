"""The derived tables can always be recomputed from the games, and agree with the incremental."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from records import ratings, services, tasks
from records.models import GameRecord, Rating, SeatResult
from tests.factories import UserFactory
from tests.records.helpers import quick_game, real_game, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(player, other_player, django_capture_on_commit_callbacks):
    """A season of games, each recorded by the task as it finished."""
    carol, dave = UserFactory(username="carol"), UserFactory(username="dave")
    bot = UserFactory(username="bramble", bot_level="easy")
    start = timezone.now() - timedelta(days=40)
    day = timedelta(days=1)
    quick_game(player, other_player, finished_at=start)
    quick_game(other_player, carol, player, side="B", spirits=True, seed=2, finished_at=start + day)
    quick_game(carol, player, shared=True, seed=3, finished_at=start + 2 * day)
    quick_game(bot, dave, seed=4, finished_at=start + 3 * day)
    quick_game(dave, carol, other_player, player, seed=5, finished_at=start + 4 * day)
    quick_game(player, side="B", spirits=True, seed=6, finished_at=start + 5 * day)
    real_game(django_capture_on_commit_callbacks, other_player, player)
    real_game(django_capture_on_commit_callbacks, carol)


def test_a_rebuild_from_scratch_equals_the_incremental_tables(history):
    incremental = snapshot()
    assert len(incremental["records"]) == 8 and len(incremental["ratings"]) > 10
    GameRecord.objects.all().delete()
    SeatResult.objects.all().delete()
    Rating.objects.all().delete()
    counts = services.rebuild()
    assert counts == {
        "games": 8,
        "results": 17,
        "ratings": len(incremental["ratings"]),
        "standings": len(incremental["standings"]),
    }
    assert snapshot() == incremental


def test_the_task_and_the_command_rebuild_the_same(history, capsys):
    incremental = snapshot()
    tasks.rebuild_records()
    assert snapshot() == incremental
    call_command("rebuild_records")
    assert "Recorded 8 games (17 seats)" in capsys.readouterr().out
    assert snapshot() == incremental


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_rebuild_in_batches_and_processes_gives_the_same_tables(history, monkeypatch, jobs):
    """Three games a batch: the scoring of one batch overlaps the recording of the last."""
    incremental = snapshot()
    monkeypatch.setattr(services, "REBUILD_BATCH", 3)
    assert services.rebuild(jobs=jobs)["games"] == 8
    assert snapshot() == incremental


def test_a_rebuild_fixes_a_damaged_table(history):
    incremental = snapshot()
    SeatResult.objects.filter(pk=SeatResult.objects.first().pk).update(total=999)
    Rating.objects.filter(scope="A").delete()
    services.rebuild()
    assert snapshot() == incremental


def test_a_rebuild_catches_up_a_game_whose_task_was_lost(player, other_player):
    lost = quick_game(player, other_player, record=False)
    assert not SeatResult.objects.exists()
    services.rebuild()
    assert SeatResult.objects.filter(game=lost).count() == 2
    assert tasks.record_game(lost.pk) is False  # the late task finds it recorded


def test_recording_after_a_rebuild_carries_on_from_it(player, other_player):
    quick_game(player, other_player, seed=1)
    services.rebuild()
    quick_game(other_player, player, seed=2)
    incremental = snapshot()
    services.rebuild()
    assert snapshot() == incremental


def test_a_rebuild_with_no_games_empties_the_tables():
    assert services.rebuild() == {"games": 0, "results": 0, "ratings": 0, "standings": 0}


def test_games_recorded_in_any_order_rate_as_the_rebuild_does_without_rebuilding(
    player, other_player, monkeypatch
):
    """A game finalized late is fitted into its pool's sequence from the ratings stored on the
    players' previous results: the same numbers as a rebuild, without rebuilding."""
    carol, dave = UserFactory(username="carol"), UserFactory(username="dave")
    people = [player, other_player, carol, dave]
    start = timezone.now() - timedelta(days=30)
    games = []
    for day in range(12):
        seated = [people[(day + i) % 4] for i in range(2 + day % 3)]
        games.append(
            quick_game(
                *seated,
                side="AB"[day % 2],
                seed=10 + day,
                finished_at=start + timedelta(days=day),
                record=False,
            )
        )
    order = [3, 0, 7, 1, 11, 2, 9, 4, 10, 5, 8, 6]  # late ones, in the middle and at the start
    monkeypatch.setattr(services, "rebuild", lambda: pytest.fail("a late game rebuilt all"))
    for index in order:
        assert tasks.record_game(games[index].pk)
    in_any_order = snapshot()
    assert SeatResult.objects.filter(mu_all__isnull=True, counts=True).count() == 0
    monkeypatch.undo()
    services.rebuild()
    assert snapshot() == in_any_order


def test_a_late_game_among_results_kept_before_ratings_were_stored_rebuilds(player, other_player):
    start = timezone.now() - timedelta(days=3)
    late = quick_game(player, other_player, finished_at=start, record=False)
    quick_game(other_player, player, seed=2, finished_at=start + timedelta(days=1))
    SeatResult.objects.update(mu_all=None, sigma_all=None, mu_side=None, sigma_side=None)
    tasks.record_game(late.pk)
    recorded = snapshot()
    services.rebuild()
    assert snapshot() == recorded
    assert SeatResult.objects.filter(mu_all__isnull=True).count() == 0


def test_the_sweep_records_recent_games_whose_task_was_lost(player, other_player):
    now = timezone.now()
    lost = quick_game(player, other_player, seed=1, record=False)
    too_old = quick_game(other_player, player, seed=2, record=False)
    too_new = quick_game(player, other_player, seed=3, record=False)
    recorded = quick_game(other_player, player, seed=4)
    for game, ago in [
        (lost, timedelta(minutes=30)),
        (too_old, timedelta(days=3)),
        (too_new, timedelta(minutes=1)),
        (recorded, timedelta(minutes=30)),
    ]:
        type(game).objects.filter(pk=game.pk).update(finalized_at=now - ago)
    assert tasks.sweep_unrecorded() == 1  # the task runs in-process in the tests
    assert set(GameRecord.objects.values_list("game_id", flat=True)) == {lost.pk, recorded.pk}
    assert tasks.sweep_unrecorded() == 0  # and a second sweep finds nothing


@pytest.mark.parametrize(
    "order",
    [list(range(10)), [4, 0, 9, 2, 7, 1, 8, 3, 6, 5]],
    ids=["as-they-finish", "some-late"],
)
def test_new_accounts_held_back_against_each_other_rate_alike_however_recorded(
    player, other_player, monkeypatch, order
):
    """Three accounts made just before the first game are new for its first week: their gains
    against each other are held back (records.ratings.rate), and the recorder (in order), the
    late re-rating and the rebuild all agree on that, to the last bit."""
    start = timezone.now() - timedelta(days=20)
    newbies = [
        UserFactory(username=name, date_joined=start - timedelta(hours=1))
        for name in ("nell", "ned", "nora")
    ]
    nell, ned, nora = newbies
    tables = [
        (nell, ned),  # day 0: new against new, the win is held back
        (ned, nora, nell),
        (nell, player),  # new against established: counted in full
        (nora, ned),
        (player, nell, ned, other_player),
        (ned, nell),
        (nora, other_player),
        (nell, nora),  # day 7 on: no one is new any more
        (ned, nell, nora),
        (nora, nell),
    ]
    games = [
        quick_game(*seated, seed=40 + day, finished_at=start + timedelta(days=day), record=False)
        for day, seated in enumerate(tables)
    ]
    monkeypatch.setattr(services, "rebuild", lambda: pytest.fail("a late game rebuilt all"))
    for index in order:
        assert tasks.record_game(games[index].pk)
    recorded = snapshot()
    monkeypatch.undo()
    first_win = SeatResult.objects.get(game=games[0], user=nell)
    assert (first_win.mu_all, first_win.sigma_all) == ratings.START
    last_win = SeatResult.objects.get(game=games[7], user=nell)
    before = SeatResult.objects.get(game=games[5], user=nell)
    assert last_win.mu_all > before.mu_all
    services.rebuild()
    assert snapshot() == recorded
