"""History and public profiles: finished games with opponents, scores and places; statistics."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from records.models import SeatResult
from tests.clients import as_user
from tests.factories import UserFactory
from tests.records.helpers import quick_game, real_game

pytestmark = pytest.mark.django_db

HISTORY = reverse("records:history")


def profile_url(user) -> str:
    return reverse("records:player", args=[user.username])


def test_anonymous_visitors_are_sent_to_log_in(player):
    for url in (HISTORY, profile_url(player)):
        response = Client().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response.url


def test_history_lists_the_game_for_both_players(
    player, other_player, django_capture_on_commit_callbacks
):
    game = real_game(django_capture_on_commit_callbacks, player, other_player)
    for me, them in ((player, other_player), (other_player, player)):
        response = as_user(me).get(HISTORY)
        assert response.status_code == 200
        (row,) = response.context["page"].rows
        assert row["mine"].game_id == game.pk and row["mine"].user_id == me.pk
        assert [o.user_id for o in row["others"]] == [them.pk]
        html = response.content.decode()
        assert them.public_name in html
        assert reverse("records:sheet", args=[game.pk]) in html
        assert reverse("records:replay", args=[game.pk]) in html
        mine = SeatResult.objects.get(game=game, user=me)
        assert f"{mine.total} points" in html
        assert ("Won" if mine.place == 1 else f"Place {mine.place}") in html


def test_history_is_newest_first_and_leaves_out_other_peoples_games(player, other_player):
    old = quick_game(player, other_player, seed=1)
    new = quick_game(other_player, player, seed=2)
    quick_game(other_player, UserFactory(), seed=3)
    rows = as_user(player).get(HISTORY).context["page"].rows
    assert [row["mine"].game_id for row in rows] == [new.pk, old.pk]


def test_a_public_profile_shows_statistics(player, other_player):
    games = [quick_game(player, other_player, seed=s) for s in (1, 2)]
    games.append(quick_game(other_player, player, spirits=True, seed=3))
    solo = quick_game(player, side="B", seed=4)
    response = as_user(other_player).get(profile_url(player))
    assert response.status_code == 200
    totals = response.context["totals"]
    assert (totals["games"], totals["wins"], totals["solo_games"]) == (3, 2, 1)
    mine = list(SeatResult.objects.filter(user=player, game__in=games))
    averages = {row["label"]: row for row in response.context["category_rows"]}
    assert averages["Trees"]["multi"] == pytest.approx(sum(r.trees for r in mine) / 3)
    assert averages["Total"]["multi"] == pytest.approx(sum(r.total for r in mine) / 3)
    assert averages["Nature's Spirit"]["multi"] == pytest.approx(
        next(r.spirit for r in mine if r.spirits)
    )
    assert averages["Total"]["solo"] == SeatResult.objects.get(game=solo).total
    assert response.context["win_rate"] == 67
    assert {r.pool for r in response.context["ratings"]} == {"players"}
    assert len(response.context["page"].rows) == 4


def test_favourite_animals_are_the_cards_taken_most(player, other_player):
    games = [quick_game(player, other_player, seed=s) for s in (1, 2, 3)]
    taken = []
    for game in games:
        final = engine.state_from_json(game.state).players[game.seats.get(user=player).position]
        taken += [card_id for card_id, _ in final.cards] + list(final.completed)
    favourites = as_user(player).get(profile_url(player)).context["favourite_animals"]
    assert favourites and favourites[0][1] == max(taken.count(c) for c in taken)
    assert all(taken.count(card) == count for card, count in favourites)


def test_profiles_are_found_whatever_the_case_and_404_otherwise(player, other_player):
    client = as_user(other_player)
    assert client.get(reverse("records:player", args=["ALICE"])).status_code == 200
    assert client.get(reverse("records:player", args=["nobody"])).status_code == 404


def test_a_player_with_no_games_has_an_empty_history(player):
    response = as_user(player).get(profile_url(player))
    assert response.status_code == 200
    assert b"No finished games yet" in response.content
    assert as_user(player).get(HISTORY).status_code == 200


def test_history_pages(player, other_player, settings, monkeypatch):
    from records import presenters

    monkeypatch.setattr(presenters, "HISTORY_PAGE", 2)
    for seed in range(1, 6):
        quick_game(player, other_player, seed=seed)
    client = as_user(player)
    page = client.get(HISTORY).context["page"]
    assert (len(page.rows), page.paginator.num_pages) == (2, 3)
    last = client.get(HISTORY, {"page": 3}).context["page"]
    assert len(last.rows) == 1
    assert client.get(HISTORY, {"page": "x"}).status_code == 200


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_pages_cost_the_same_for_2_or_10_games(player, other_player, django_assert_num_queries):
    quick_game(player, other_player, seed=1)
    quick_game(player, seed=2)
    client = as_user(other_player)
    urls = [profile_url(player)]
    counts = [queries(client, url) for url in urls]
    me = as_user(player)
    mine = queries(me, HISTORY)
    strangers = [UserFactory() for _ in range(3)]
    for seed in range(3, 11):
        if seed % 2:
            quick_game(strangers[seed % 3], player, seed=seed)
        else:
            quick_game(player, seed=seed)
    for url, count in zip(urls, counts, strict=True):
        with django_assert_num_queries(count):
            client.get(url)
    with django_assert_num_queries(mine):
        me.get(HISTORY)
