"""What the charts show: the running sums of all players, the rating history, the best boards
and a finished game's points by turn, each read at a fixed cost however long the history."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import engine
from records import category_sums, chart_data, services
from records.models import CategorySums, Pool, SeatResult
from records.ratings import ordinal, shown
from tests.clients import as_user
from tests.factories import UserFactory
from tests.records.helpers import quick_game

pytestmark = pytest.mark.django_db


def profile_url(user) -> str:
    return reverse("records:player", args=[user.username])


def sheet_url(game) -> str:
    return reverse("records:sheet", args=[game.pk])


def average(rows, key: str) -> float:
    return sum(getattr(r, key) for r in rows) / len(rows)


# --- All players' averages ----------------------------------------------------------------------


def test_the_sums_add_every_persons_counted_seat_by_pool(player, other_player, carol):
    quick_game(player, other_player, seed=1)
    quick_game(carol, player, seed=2, spirits=True)
    quick_game(player, seed=3)
    multi = list(SeatResult.objects.exclude(pool=Pool.SOLO))
    averages = category_sums.averages()
    assert averages["multi"]["trees"] == pytest.approx(average(multi, "trees"))
    assert averages["multi"]["total"] == pytest.approx(average(multi, "total"))
    spirited = [r for r in multi if r.spirits]
    assert averages["multi"]["spirit"] == pytest.approx(average(spirited, "spirit"))
    solo = SeatResult.objects.get(pool=Pool.SOLO)
    assert averages["solo"]["total"] == solo.total
    assert averages["solo"]["spirit"] is None  # no solo game with the spirits yet


def test_bots_and_games_that_do_not_count_are_left_out_of_the_sums(player, other_player):
    bot = UserFactory(username="bramble", bot_level="easy")
    quick_game(bot, player, seed=1)
    type(other_player).objects.filter(pk=other_player.pk).update(email_confirmed_at=None)
    quick_game(other_player, player, seed=2)
    assert not SeatResult.objects.get(user=other_player).counts
    row = CategorySums.objects.get()
    mine = SeatResult.objects.get(user=player, pool=Pool.BOTS)
    assert (row.pool, row.games, row.total) == (Pool.BOTS, 1, mine.total)


def test_the_rebuild_gives_the_sums_the_recorder_kept(player, other_player, carol):
    quick_game(player, other_player, seed=1)
    quick_game(carol, player, other_player, seed=2, spirits=True)
    quick_game(carol, seed=3, side="B")
    kept = list(CategorySums.objects.order_by("pool").values())
    CategorySums.objects.all().delete()
    services.rebuild()
    rebuilt = list(CategorySums.objects.order_by("pool").values())
    strip = [{k: v for k, v in row.items() if k != "id"} for row in kept]
    assert [{k: v for k, v in row.items() if k != "id"} for row in rebuilt] == strip


def test_the_averages_are_one_query_whatever_the_history(
    player, other_player, django_assert_num_queries
):
    for seed in range(1, 4):
        quick_game(player, other_player, seed=seed)
    with django_assert_num_queries(1):
        category_sums.averages()


# --- The profile's charts -----------------------------------------------------------------------


def test_the_rating_chart_has_a_point_per_rated_game_with_its_date_and_rating(player, other_player):
    start = timezone.now() - timedelta(days=10)
    for day in range(4):
        quick_game(player, other_player, seed=day + 1, finished_at=start + timedelta(days=day))
    quick_game(player, seed=9)  # solo: not rated
    figure = as_user(other_player).get(profile_url(player)).context["charts"]["ratings"][0]
    assert figure["heading"] == "Rating against players"
    assert len(figure["rows"]) == 4 and figure["svg"].count('class="chart-point"') == 4
    last = SeatResult.objects.filter(user=player).exclude(pool=Pool.SOLO).latest("finished_at")
    rating = shown(ordinal(last.mu_all, last.sigma_all))
    assert figure["rows"][-1][2] == f"{rating:,}"
    assert f": rating {rating:,}</title>" in figure["svg"]
    assert figure["note"] == ""


def test_the_rating_chart_keeps_to_the_newest_games_and_says_so(player, other_player, monkeypatch):
    monkeypatch.setattr(chart_data, "RATING_POINTS", 3)
    start = timezone.now() - timedelta(days=10)
    for day in range(5):
        quick_game(player, other_player, seed=day + 1, finished_at=start + timedelta(days=day))
    figure = as_user(player).get(profile_url(player)).context["charts"]["ratings"][0]
    assert [row[0] for row in figure["rows"]] == [1, 2, 3]
    assert figure["rows"][-1][1] == chart_data._day(start + timedelta(days=4))
    assert figure["note"] == "The last 3 rated games."
    assert "(the last 3)" in figure["svg"]


def test_games_that_do_not_count_feed_no_chart(player, other_player):
    type(other_player).objects.filter(pk=other_player.pk).update(email_confirmed_at=None)
    quick_game(player, other_player, seed=1)
    response = as_user(player).get(profile_url(player))
    assert response.context["charts"] == {"ratings": [], "categories": [], "best": []}
    assert 'id="charts-h"' not in response.content.decode()


def test_the_category_chart_compares_the_players_averages_with_everyones(
    player, other_player, carol
):
    quick_game(player, other_player, seed=1)
    quick_game(carol, other_player, seed=2)
    figures = as_user(player).get(profile_url(player)).context["charts"]["categories"]
    assert [f["heading"] for f in figures] == ["Points per category, multiplayer"]
    rows = {row[0]: row[1:] for row in figures[0]["rows"]}
    mine = SeatResult.objects.get(user=player)
    everyone = list(SeatResult.objects.all())
    assert rows["Trees"] == [f"{mine.trees:.1f}", f"{average(everyone, 'trees'):.1f}"]
    assert rows["Total"] == [f"{mine.total:.1f}", f"{average(everyone, 'total'):.1f}"]
    assert "Nature's Spirit" not in rows  # no game with the spirits
    svg = figures[0]["svg"]
    assert svg.count('class="chart-bar"') == 2 * 6  # six categories, two bars each


def test_the_best_boards_are_the_top_scores_each_linking_to_its_sheet(player, other_player):
    for seed in range(1, 6):
        quick_game(player, other_player, seed=seed)
    solo = quick_game(player, seed=7)
    response = as_user(other_player).get(profile_url(player))
    best = response.context["charts"]["best"]
    multi = [b for b in best if b["kind"] == "multi"]
    totals = sorted(
        SeatResult.objects.filter(user=player, players=2).values_list("total", flat=True)
    )
    assert [b["result"].total for b in multi] == totals[::-1][: chart_data.BEST_BOARDS]
    assert [b["result"].game_id for b in best if b["kind"] == "solo"] == [solo.pk]
    html = response.content.decode()
    for one in best:
        assert f'href="{sheet_url(one["result"].game)}" aria-label="Score sheet: ' in html
        assert one["words"].startswith(f"{player.public_name}'s final board, ")
    assert "Best multiplayer boards" in html and "Best solo boards" in html


def test_names_are_escaped_in_the_charts(player, other_player):
    type(player).objects.filter(pk=player.pk).update(display_name='<b>"Ann"</b>')
    quick_game(player, other_player, seed=1)
    html = as_user(other_player).get(profile_url(player)).content.decode()
    assert '<b>"Ann"</b>' not in html and "&lt;b&gt;" in html


def test_a_profiles_charts_cost_the_same_for_2_or_10_games(
    player, other_player, django_assert_num_queries
):
    quick_game(player, other_player, seed=1)
    quick_game(player, seed=2)
    client = as_user(other_player)
    with CaptureQueriesContext(connection) as captured:
        client.get(profile_url(player))
    for seed in range(3, 11):
        quick_game(player, *([other_player] if seed % 2 else []), seed=seed)
    with django_assert_num_queries(len(captured)):
        client.get(profile_url(player))


# --- The score sheet ----------------------------------------------------------------------------


def test_the_points_by_turn_end_on_each_players_final_score(player, other_player, carol):
    game = quick_game(player, other_player, carol, seed=4, spirits=True)
    series = chart_data.points_by_turn(game)
    sheets = engine.score_sheets(game.engine_state())
    assert [s[-1] for s in series] == [sheets[p].total for p in range(3)]
    turns = set(game.moves.values_list("seat", "turn"))  # the turns each seat played
    assert [len(s) for s in series] == [len({t for s, t in turns if s == p}) for p in range(3)]
    figure = as_user(carol).get(sheet_url(game)).context["points_chart"]
    assert figure["svg"].count('class="chart-point"') == sum(len(s) for s in series)
    assert figure["columns"][0] == "Turn" and len(figure["columns"]) == 4
    assert len(figure["rows"]) == max(len(s) for s in series)


def test_the_series_is_replayed_once_then_read_from_the_cache(
    player, other_player, django_assert_num_queries
):
    game = quick_game(player, other_player, seed=2)
    cache.clear()
    with django_assert_num_queries(1):  # the move log
        first = chart_data.points_by_turn(game)
    with django_assert_num_queries(0):
        assert chart_data.points_by_turn(game) == first


def test_a_solo_sheet_has_one_line(player):
    game = quick_game(player, seed=3)
    response = as_user(player).get(sheet_url(game))
    figure = response.context["points_chart"]
    assert figure["columns"] == ["Turn", player.public_name]
    html = response.content.decode()
    assert "Points after each turn" in html and "The figures" in html


def test_a_log_that_does_not_replay_draws_no_chart(player, other_player):
    game = quick_game(player, other_player, seed=5)
    game.moves.filter(seq=1).update(action={"type": "take_tokens", "space": 99})
    cache.clear()
    response = as_user(player).get(sheet_url(game))
    assert response.status_code == 200 and response.context["points_chart"] is None
    assert "Points by turn" not in response.content.decode()


def test_the_migration_fills_the_sums_from_the_results_already_stored(player, other_player):
    from importlib import import_module

    from django.apps import apps

    quick_game(player, other_player, seed=1)
    quick_game(player, seed=2)
    kept = list(CategorySums.objects.order_by("pool").values_list())
    CategorySums.objects.all().delete()
    import_module("records.migrations.0006_category_sums").fill_sums(apps, None)
    assert [row[1:] for row in CategorySums.objects.order_by("pool").values_list()] == [
        row[1:] for row in kept
    ]
