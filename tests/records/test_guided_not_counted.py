"""A guided first game counts for nothing: finished however it ends, it leaves every results
table, board, page and figure as they were, and sends no game-over email or push."""

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Game
from games.services import guide as lessons
from harmonies_site.personal_data import personal_data
from push import deliveries
from records import presenters, services, tasks
from records.models import GameRecord, SeatResult
from tests.clients import as_user
from tests.games.helpers import play_to_the_end
from tests.games.services.test_guide import LESSON_LINE
from tests.records.helpers import quick_game, snapshot

pytestmark = pytest.mark.django_db


def finished_lesson(user, capture, *, to_the_end: bool) -> Game:
    """A guided game played to its end, or its lesson played then finished, with the tasks
    after the commit run as a worker would (finalize, record, the emails and pushes)."""
    from games import services as writer

    with capture(execute=True):
        game = lessons.start_guided_game(user)
        if to_the_end:
            play_to_the_end(game)
        else:
            for action in LESSON_LINE:
                game.refresh_from_db()
                writer.play(
                    game_id=game.pk, user=user, action=action, expected_version=game.version
                )
            game.refresh_from_db()
            lessons.finish_lesson(game_id=game.pk, user=user, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finalized_at is not None
    return game


@pytest.mark.parametrize("to_the_end", [True, False], ids=["played to the end", "finished"])
def test_a_guided_game_leaves_every_table_and_figure_unchanged(
    player, other_player, django_capture_on_commit_callbacks, to_the_end
):
    quick_game(player, seed=6)  # a counted solo game: a high score and profile figures to keep
    quick_game(player, other_player, seed=3)
    before = snapshot()
    stats, reliability = presenters.player_stats(player), presenters.reliability(player)
    history = [row["mine"].game_id for row in presenters.history(player, 1).rows]

    game = finished_lesson(player, django_capture_on_commit_callbacks, to_the_end=to_the_end)

    assert game.uncounted == Game.Uncounted.GUIDED
    assert snapshot() == before  # results, ratings, standings, places, category sums
    assert not GameRecord.objects.filter(game=game).exists()
    assert not SeatResult.objects.filter(game=game).exists()
    assert presenters.player_stats(player) == stats
    assert presenters.reliability(player) == reliability
    assert [row["mine"].game_id for row in presenters.history(player, 1).rows] == history
    assert mail.outbox == []  # no game-over email


def test_recording_it_again_or_rebuilding_finds_nothing(player, django_capture_on_commit_callbacks):
    quick_game(player, seed=6)
    game = finished_lesson(player, django_capture_on_commit_callbacks, to_the_end=False)
    before = snapshot()
    assert services.record_game(game.pk) is False
    services.rebuild()
    assert snapshot() == before


def test_the_sweep_of_unrecorded_games_leaves_it_alone(
    player, django_capture_on_commit_callbacks, monkeypatch
):
    game = finished_lesson(player, django_capture_on_commit_callbacks, to_the_end=False)
    long_ago = game.finalized_at - tasks.LOST_RECORD_AFTER * 2
    Game.objects.filter(pk=game.pk).update(finalized_at=long_ago)
    queued = []
    monkeypatch.setattr(tasks.record_game, "delay", queued.append)
    assert tasks.sweep_unrecorded() == 0 and queued == []


def test_no_game_over_push_or_email_even_when_asked(player, django_capture_on_commit_callbacks):
    from games.mail import endings

    game = finished_lesson(player, django_capture_on_commit_callbacks, to_the_end=False)
    assert deliveries.send_game_over(game.pk) == 0
    assert endings.send_game_over(game.pk) == 0
    assert game.pk not in endings.games_missing_game_over(game.finished_at)
    assert mail.outbox == []


def test_the_results_pages_show_nothing_of_it(
    player, other_player, django_capture_on_commit_callbacks
):
    quick_game(player, seed=6)
    client = as_user(player)
    game = finished_lesson(player, django_capture_on_commit_callbacks, to_the_end=True)
    history = client.get(reverse("records:history")).content.decode()
    profile = client.get(reverse("records:player", args=[player.username])).content.decode()
    solo = client.get(reverse("records:leaderboards"), {"board": "solo"}).content.decode()
    for html in (history, profile, solo):
        assert lessons.GUIDE_NAME not in html
        assert reverse("records:sheet", args=[game.pk]) not in html


def test_its_own_sheet_says_it_counts_for_nothing(player, django_capture_on_commit_callbacks):
    game = finished_lesson(player, django_capture_on_commit_callbacks, to_the_end=False)
    html = as_user(player).get(reverse("records:sheet", args=[game.pk])).content.decode()
    assert "This game counts for no wins, ratings or records" in html
    assert "it was a guided first game" in html


def test_the_personal_data_lists_it_as_guided_without_a_result(
    player, django_capture_on_commit_callbacks
):
    game = finished_lesson(player, django_capture_on_commit_callbacks, to_the_end=False)
    entry = next(g for g in personal_data(player)["games"] if g["id"] == game.pk)
    assert entry["uncounted"] == Game.Uncounted.GUIDED
    assert entry["your_result"] is None
