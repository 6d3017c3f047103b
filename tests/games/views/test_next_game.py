"""The next-game view ("Next game waiting for me"): the oldest game where it is the player's
turn, the one just played left out, and a friendly page when none waits."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db

NEXT = reverse("games:next")


def waiting_for(player, minutes_ago: int) -> Game:
    """A game where it is `player`'s turn, its turn started `minutes_ago`."""
    game = start_game(player, UserFactory())
    if user_to_move(game) != player:
        game = play_turns(game, turns=1)
    started = timezone.now() - timedelta(minutes=minutes_ago)
    Game.objects.filter(pk=game.pk).update(turn_started_at=started)
    return game


def test_it_opens_the_oldest_waiting_game_and_walks_past_the_one_just_played(player):
    oldest, middle = waiting_for(player, 50), waiting_for(player, 20)
    waiting_for(player, 5)
    client = as_user(player)
    assert client.get(NEXT)["Location"] == oldest.get_absolute_url()
    assert client.get(NEXT, {"after": oldest.pk})["Location"] == middle.get_absolute_url()
    assert client.get(NEXT, {"after": middle.pk})["Location"] == oldest.get_absolute_url()
    assert client.get(NEXT, {"after": "junk"})["Location"] == oldest.get_absolute_url()


def test_games_waiting_for_others_or_left_are_not_offered(player, other_player, carol):
    theirs = start_game(player, other_player, carol)
    while user_to_move(theirs) == player:
        theirs = play_turns(theirs, turns=1)
    left = start_game(player, other_player, carol)
    while user_to_move(left) != player:
        left = play_turns(left, turns=1)
    services.resign(game_id=left.pk, user=player)
    response = as_user(player).get(NEXT)
    assert response.status_code == 200
    page = response.content.decode()
    assert "No game is waiting for you" in page
    assert reverse("games:mine") in page


def test_a_guided_first_game_is_left_out(player):
    guided = waiting_for(player, 60)
    Game.objects.filter(pk=guided.pk).update(guided=True)
    assert "No game is waiting for you" in as_user(player).get(NEXT).content.decode()


def test_the_header_counts_the_waiting_games_and_the_game_page_offers_the_next(player):
    first = waiting_for(player, 30)
    waiting_for(player, 10)
    page = as_user(player).get(reverse("games:mine")).content.decode()
    header_link = f'<a class="nav-next" href="{NEXT}"'
    assert header_link in page and 'data-count="2"' in page
    game_page = as_user(player).get(first.get_absolute_url()).content.decode()
    assert header_link in game_page
    assert f'href="{NEXT}?after={first.pk}">Next game waiting for me' in game_page
    assert "1 other game waits for your move" in game_page


def test_nothing_is_offered_when_nothing_waits(player, client):
    page = as_user(player).get(reverse("games:mine")).content.decode()
    assert 'class="nav-next"' not in page
    assert client.get(NEXT)["Location"].startswith(reverse("login"))
