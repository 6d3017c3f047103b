"""The viewer's place below the top of an all-time board is read from the tallies: it must be
the place a count of the players ahead gives, however the games were recorded."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.template.defaultfilters import floatformat
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from records import leaderboards, places, services, tasks
from records.forms import LeaderboardFilters
from records.models import Rating, Standing, Tally
from tests.factories import UserFactory
from tests.records.helpers import quick_game, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def crowd(player, other_player):
    """Six players over a dozen games on both sides, two of them recorded late."""
    people = [
        player,
        other_player,
        *(UserFactory(username=n) for n in ["carol", "dave", "erin", "finn"]),
    ]
    start = timezone.now() - timedelta(days=20)
    games = []
    for day in range(12):
        seated = [people[(day * 5 + i) % 6] for i in range(2 + day % 3)]
        games.append(
            quick_game(
                *seated,
                side="AB"[day % 2],
                spirits=day % 4 == 1,
                seed=20 + day,
                finished_at=start + timedelta(days=day),
                record=False,
            )
        )
    for index in [0, 1, 2, 4, 5, 6, 8, 9, 10, 11, 3, 7]:  # 3 and 7 after later games
        assert tasks.record_game(games[index].pk)
    return people


def counted_place(board: str, filters: dict, viewer) -> int | None:
    """The viewer's place as a count of the players ahead gives it (the boards over a window
    of time count; a window from the start of time holds every game)."""
    since = timezone.now() - timedelta(days=10_000)
    if board == "rating":
        _, mine = leaderboards._rating_rows(filters, since, None, viewer)
    else:
        _, mine = leaderboards._score_rows(board, filters, since, None, viewer)
    return mine and mine["place"]


def test_the_place_below_the_top_is_the_count_of_the_players_ahead(crowd, monkeypatch):
    monkeypatch.setattr(leaderboards, "TOP", 1)
    checked = 0
    for viewer in crowd:
        for side in ("", "A", "B"):
            for players in ("", "2", "3", "4"):
                for spirits in ("", "on", "off"):
                    filters = {
                        **LeaderboardFilters.DEFAULTS,
                        "side": side,
                        "players": players,
                        "spirits": spirits,
                    }
                    for board in ("wins", "average", "best"):
                        _, mine = leaderboards._score_rows(board, filters, None, None, viewer)
                        assert (mine and mine["place"]) == counted_place(board, filters, viewer)
                        checked += mine is not None
                    _, mine = leaderboards._rating_rows(filters, None, None, viewer)
                    assert (mine and mine["place"]) == counted_place("rating", filters, viewer)
                    checked += mine is not None
    assert checked > 100  # the places were read, not only the top rows


def test_the_place_is_a_sum_over_values_not_a_count_over_players(crowd, monkeypatch):
    monkeypatch.setattr(leaderboards, "TOP", 1)
    viewer = min(
        crowd, key=lambda u: Rating.objects.get(user=u, pool="players", scope="all").ordinal
    )
    with CaptureQueriesContext(connection) as read:
        _, mine = leaderboards._rating_rows(LeaderboardFilters.DEFAULTS, None, None, viewer)
    assert mine["place"] > 1
    counted = [q["sql"] for q in read.captured_queries if "COUNT(" in q["sql"].upper()]
    assert not counted
    assert any("records_tally" in q["sql"] for q in read.captured_queries)


def test_tallies_recorded_one_game_at_a_time_are_those_the_rebuild_counts(crowd):
    recorded = snapshot()
    assert recorded["tallies"]
    services.rebuild()
    assert snapshot() == recorded


def test_the_migration_fills_the_tallies_the_code_counts(crowd):
    fields = ("board", "pool", "side", "players", "spirits", "tenths", "count")
    recorded = sorted(Tally.objects.values_list(*fields))
    Tally.objects.all().delete()
    migration = importlib.import_module("records.migrations.0005_board_places")
    migration.fill_tallies(apps, None)
    assert sorted(Tally.objects.values_list(*fields)) == recorded


def test_a_value_left_by_its_last_player_leaves_no_row(player, other_player):
    quick_game(player, other_player)
    quick_game(other_player, player, seed=2)
    wins = Tally.objects.filter(board="wins", pool="players", side="", players=0, spirits="")
    assert sorted(wins.values_list("tenths", "count")) == [(10, 2)]  # both on one win
    assert not Tally.objects.filter(count=0).exists()
    assert Standing.objects.filter(wins=0).count() == 0


def test_tenths_round_as_the_board_prints():
    for value in (12.25, 7, 3.96, 0.05, 101.35, 2 / 3):
        assert places.tenths(value) / 10 == float(floatformat(value, 1))
