"""The demo data of `make run`: a newcomer's first look finds something on every page."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from records.models import Rating, SeatResult

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fresh_sites_leaderboards_history_and_sheets_show_finished_games(settings):
    settings.DEBUG = True
    call_command("demo_data", stdout=StringIO())
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    assert finished.count() == 4
    assert all(game.uncounted == "" for game in finished)  # they count: real ratings
    assert SeatResult.objects.filter(counts=True).count() == 8 and Rating.objects.exists()
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    boards = client.get(reverse("records:leaderboards")).content.decode()
    assert "Alice" in boards and "No games" not in boards
    history = client.get(reverse("records:history")).content.decode()
    assert history.count("Score sheet") == 2
    for game in finished:
        assert client.get(reverse("records:sheet", args=[game.pk])).status_code == 200
    # Run again (every `make run` does): nothing is added twice.
    call_command("demo_data", stdout=StringIO())
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 4
