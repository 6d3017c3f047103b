"""The games admin shows a table to support staff, never its hidden order while it is played."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import play_to_the_end, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client() -> Client:
    client = Client()
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    return client


def test_a_game_in_progress_shows_its_seats_but_not_its_seed_or_state(
    staff_client, player, other_player
):
    game = start_game(player, other_player)
    response = staff_client.get(reverse("admin:games_game_change", args=[game.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("hidden until the game is over") == 2
    assert str(game.seed) not in html and '"pouch"' not in html
    assert "Notified turn" in html and str(player) in html


def test_a_finished_game_shows_its_seed(staff_client, player, other_player):
    game = play_to_the_end(start_game(player, other_player))
    response = staff_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert str(game.seed) in response.content.decode()


def test_the_admin_cannot_change_a_game(staff_client, player, other_player):
    game = start_game(player, other_player)
    url = reverse("admin:games_game_change", args=[game.pk])
    response = staff_client.post(url, {"status": "finished"})
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_games_are_found_by_player(staff_client, player, other_player):
    start_game(player, other_player)
    response = staff_client.get(
        reverse("admin:games_game_changelist"), {"q": other_player.username}
    )
    assert "1 game" in response.content.decode()
