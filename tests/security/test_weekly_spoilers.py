"""The deal of the week's final boards show its pouch order: wherever a board is drawn for
someone else, it keeps to the score sheet's rule (WeeklyDeal.revealed_to): shown once the viewer
has finished their own game of the deal, or once the week has closed and they are not in the
middle of one. Names and scores are no secret."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.urls import reverse

from games.services import weekly
from tests.clients import as_user
from tests.games.helpers import play_to_the_end

pytestmark = pytest.mark.django_db

WEDNESDAY = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)
MONDAY = "2026-11-30"
NEXT_WEEK = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)


def best_solo_boards(viewer, shown) -> list[int]:
    response = as_user(viewer).get(reverse("records:player", args=[shown.username]))
    assert response.status_code == 200
    return [b["result"].game_id for b in response.context["charts"]["best"] if b["kind"] == "solo"]


def test_a_profiles_best_boards_keep_the_weeks_deal_secret(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    with time_machine.travel(WEDNESDAY, tick=True):
        with django_capture_on_commit_callbacks(execute=True):
            alices = play_to_the_end(weekly.play_weekly(user=player, week=MONDAY))
        bobs = weekly.play_weekly(user=other_player, week=MONDAY)
        assert best_solo_boards(player, player) == [alices.pk]  # her own: she has played it
        assert best_solo_boards(other_player, player) == []  # Bob is in the middle of it
        assert best_solo_boards(carol, player) == []  # Carol may still play it
        play_to_the_end(bobs)
        assert best_solo_boards(other_player, player) == [alices.pk]
    with time_machine.travel(NEXT_WEEK, tick=True):
        assert best_solo_boards(carol, player) == [alices.pk]  # the week has closed
