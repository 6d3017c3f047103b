"""Ratings: PlackettLuce per pool, over both sides and per side, with shared places."""

import pytest

from records import ratings
from records.models import PROVISIONAL_GAMES, Rating
from tests.factories import UserFactory
from tests.records.helpers import quick_game

pytestmark = pytest.mark.django_db


def rating(user, scope="all", pool="players") -> Rating:
    return Rating.objects.get(user=user, scope=scope, pool=pool)


def test_the_winner_goes_up_and_the_loser_down(player, other_player):
    quick_game(player, other_player)
    won, lost = rating(player), rating(other_player)
    assert won.mu > ratings.START[0] > lost.mu
    assert won.ordinal > lost.ordinal
    assert (won.games, won.wins, lost.games, lost.wins) == (1, 1, 1, 0)
    assert won.sigma < ratings.START[1]


def test_a_shared_first_place_moves_equal_players_equally(player, other_player):
    quick_game(player, other_player, shared=True)
    a, b = rating(player), rating(other_player)
    assert a.mu == pytest.approx(b.mu) == pytest.approx(ratings.START[0])
    assert a.sigma == pytest.approx(b.sigma)
    assert a.sigma < ratings.START[1]
    assert a.wins == b.wins == 1


def test_ties_in_a_three_player_game_share_a_place():
    after = ratings.rate([ratings.START] * 3, [1, 1, 3])
    assert after[0] == pytest.approx(after[1])
    assert after[0][0] > ratings.START[0] > after[2][0]


def test_an_upset_moves_more_than_an_expected_result():
    strong, weak = (35.0, 4.0), (20.0, 4.0)
    expected = ratings.rate([strong, weak], [1, 2])
    upset = ratings.rate([strong, weak], [2, 1])
    assert upset[1][0] - weak[0] > expected[0][0] - strong[0] > 0


def test_ratings_are_kept_over_both_sides_and_per_side(player, other_player):
    quick_game(player, other_player, side="A")
    quick_game(other_player, player, side="B", seed=2)
    assert rating(player).games == 2
    assert rating(player, "A").games == rating(player, "B").games == 1
    assert rating(player, "A").wins == 1 and rating(player, "B").wins == 0


def test_a_player_is_provisional_until_enough_games(player, other_player):
    for n in range(PROVISIONAL_GAMES):
        quick_game(player, other_player, seed=n + 1)
        assert rating(player).provisional == (n + 1 < PROVISIONAL_GAMES)


def test_three_players_move_in_finishing_order(player, other_player):
    third = UserFactory()
    quick_game(player, other_player, third)
    mus = [rating(u).mu for u in (player, other_player, third)]
    assert mus[0] > mus[1] > mus[2]


def test_a_game_with_an_unconfirmed_player_moves_no_rating(player):
    # Issue 12: rated play needs a confirmed email address; unconfirmed players play unrated.
    newcomer = UserFactory(email_confirmed_at=None)
    quick_game(player, newcomer)
    assert not Rating.objects.filter(user__in=[player, newcomer]).exists()
    newcomer.email_confirmed_at = newcomer.date_joined
    newcomer.save()
    quick_game(player, newcomer, seed=2)
    assert rating(player).games == rating(newcomer).games == 1


def test_players_see_ratings_on_a_familiar_scale(player, other_player, client):
    # Issue 13: a first-game loser read "-1.8", explained with the model's formula and name.
    quick_game(player, other_player)
    assert ratings.shown(0) == 1000
    assert rating(player).shown > 1000 > rating(other_player).shown
    client.force_login(other_player)
    html = client.get("/leaderboards/").content.decode()
    assert f">{rating(other_player).shown}<" in html
    assert "PlackettLuce" not in html and "-1." not in html
