"""Every page's navigation and tab title count the games waiting for your move."""

import pytest
from django.urls import reverse

from games import services
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db


def test_the_tab_title_and_navigation_count_games_waiting_for_your_move(player):
    for _ in range(2):
        game = start_game(player, UserFactory())
        if user_to_move(game) != player:
            play_turns(game, turns=1)
    other = start_game(player, UserFactory())
    if user_to_move(other) == player:
        play_turns(other, turns=1)  # this one waits for the friend
    page = as_user(player).get(reverse("records:history")).content.decode()
    assert "<title>(2) " in page
    assert 'data-count="2"' in page


def test_nothing_is_shown_when_no_game_waits(player):
    page = as_user(player).get(reverse("games:mine")).content.decode()
    assert "<title>My games" in page
    assert "waiting-count" not in page


def test_a_solo_game_counts_as_it_does_in_my_games_and_a_cancelled_one_does_not(player):
    services.create_game(creator=player, players=1, side="A", spirits=False)
    table = services.create_game(creator=player, players=2, side="A", spirits=False)
    services.cancel_game(game_id=table.pk, user=player)
    page = as_user(player).get(reverse("games:mine")).content.decode()
    assert "<title>(1) My games" in page


def test_the_game_page_offers_notifications_only_on_a_click(player, other_player):
    game = start_game(player, other_player)
    waiting = other_player if user_to_move(game) == player else player
    page = as_user(waiting).get(game.get_absolute_url()).content.decode()
    assert 'id="notify-offer" hidden' in page  # game.js shows it where browsers can notify
    assert 'data-my-turn="no"' in page
    assert f'data-title="{game.name}"' in page


def test_the_count_costs_one_query_and_none_for_visitors(
    player, django_assert_max_num_queries, client
):
    from games.context_processors import waiting_count

    with django_assert_max_num_queries(1):
        assert waiting_count(player) == 0
    page = client.get(reverse("login")).content.decode()
    assert "waiting-count" not in page
