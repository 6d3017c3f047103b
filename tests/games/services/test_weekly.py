"""The deal of the week's writer: one deal a week, derived and secret; one game per player."""

import io
import itertools
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.test import override_settings

from games import engine, services
from games.models import Game, Seat, WeeklyDeal
from games.models.weekly import week_of
from games.services import weekly
from records.models import SeatResult
from tests.factories import UserFactory
from tests.games.helpers import play_to_the_end

pytestmark = pytest.mark.django_db

# A Wednesday in a week of side A without spirits, and the Monday of its week.
WEDNESDAY = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)
MONDAY = date(2026, 11, 30)


@pytest.fixture(autouse=True)
def in_that_week():
    with time_machine.travel(WEDNESDAY, tick=True):
        yield


def test_the_week_is_utc_monday_to_monday():
    assert week_of(datetime(2026, 11, 30, 0, 0, tzinfo=UTC)) == MONDAY
    assert week_of(datetime(2026, 12, 6, 23, 59, tzinfo=UTC)) == MONDAY
    assert week_of(datetime(2026, 12, 7, 0, 0, tzinfo=UTC)) == date(2026, 12, 7)
    # Sunday 23:30 in New York is already Monday in UTC: one week for everyone.
    new_york = datetime(2026, 12, 6, 23, 30, tzinfo=UTC) + timedelta(hours=5)
    assert week_of(new_york) == date(2026, 12, 7)


def test_the_deal_is_derived_from_the_week_and_the_secret_key():
    seed, side, spirits = weekly.deal_settings(MONDAY)
    assert weekly.deal_settings(MONDAY) == (seed, side, spirits)
    assert weekly.deal_settings(MONDAY + timedelta(days=7))[0] != seed
    with override_settings(SECRET_KEY="another key, another site"):
        assert weekly.deal_settings(MONDAY)[0] != seed
    assert 0 <= seed < 2**62


def test_four_weeks_go_through_both_sides_with_and_without_spirits():
    weeks = [weekly.deal_settings(MONDAY + timedelta(days=7 * n))[1:] for n in range(8)]
    assert len(set(weeks[:4])) == 4
    assert weeks[:4] == weeks[4:]
    sides = [side for side, _ in weeks]
    assert all(a != b for a, b in itertools.pairwise(sides))


def test_the_deal_is_made_once_on_the_first_visit():
    first = weekly.this_weeks_deal()
    assert weekly.this_weeks_deal() == first
    assert WeeklyDeal.objects.count() == 1
    assert (first.week, first.seed) == (MONDAY, weekly.deal_settings(MONDAY)[0])


def test_the_weekly_sweep_makes_the_deal_and_run_sweeps_runs_it():
    assert weekly.make_this_weeks_deal() == 1
    assert weekly.make_this_weeks_deal() == 0
    with time_machine.travel(datetime(2026, 12, 7, 0, 5, tzinfo=UTC)):
        out = io.StringIO()
        call_command("run_sweeps", stdout=out)
        assert "games.sweep_weekly_deal: 1 queued" in out.getvalue()
    assert list(WeeklyDeal.objects.values_list("week", flat=True)) == [
        date(2026, 12, 7),
        MONDAY,
    ]


@pytest.mark.parametrize("week", [MONDAY, MONDAY + timedelta(days=14)])  # without, with spirits
def test_every_players_game_of_the_week_starts_from_the_same_state(week):
    ann, bob = UserFactory(), UserFactory()
    with time_machine.travel(datetime.combine(week, datetime.min.time(), UTC) + timedelta(hours=1)):
        one = weekly.play_weekly(user=ann, week=week.isoformat())
        two = weekly.play_weekly(user=bob, week=week.isoformat())
    deal = WeeklyDeal.objects.get(week=week)
    for game in (one, two):
        game.refresh_from_db()
        assert (game.status, game.solo, game.seed) == (Game.Status.ACTIVE, True, deal.seed)
        assert (game.side, game.spirits, game.turn_limit_days) == (deal.side, deal.spirits, None)
    assert one.state == two.state  # same pouch, central board, display and spirit choices
    assert len(one.engine_state().players[0].spirit_options) == (2 if deal.spirits else 0)
    assert one.state == engine.state_to_json(engine.new_game(one.config, deal.seed))


def test_a_second_start_is_refused_and_stores_nothing(player):
    weekly.play_weekly(user=player, week=MONDAY.isoformat())
    counts = (Game.objects.count(), Seat.objects.count())
    with pytest.raises(services.Conflict, match="already played this week's deal"):
        weekly.play_weekly(user=player, week=MONDAY.isoformat())
    assert (Game.objects.count(), Seat.objects.count()) == counts


def test_a_finished_game_of_the_week_is_played_once_too(player):
    play_to_the_end(weekly.play_weekly(user=player, week=MONDAY.isoformat()))
    with pytest.raises(services.Conflict):
        weekly.play_weekly(user=player, week=MONDAY.isoformat())
    assert Game.objects.count() == 1


def test_two_starts_at_once_leave_one_game(player, monkeypatch):
    """Where rows are not locked (SQLite), two starts can both pass the check: the database's
    unique constraint refuses the second, and the player reads the same refusal."""
    weekly.play_weekly(user=player, week=MONDAY.isoformat())
    monkeypatch.setattr(weekly, "has_started", lambda deal, user: False)
    with pytest.raises(services.Conflict, match="already played"):
        weekly.play_weekly(user=player, week=MONDAY.isoformat())
    assert Game.objects.count() == 1 and Seat.objects.count() == 1


def test_the_database_holds_one_game_per_player_and_deal(player):
    game = weekly.play_weekly(user=player, week=MONDAY.isoformat())
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(created_by=player, players=1, weekly_deal=game.weekly_deal)


@pytest.mark.parametrize(
    ("week", "error", "words"),
    [
        ("2026-11-23", services.Conflict, "closed on 30 November 2026"),
        ("2026-12-07", services.NotFound, "not dealt yet"),
        ("2027-01-04", services.NotFound, "not dealt yet"),
        ("2026-12-01", services.NotFound, "starts on a Monday"),
        ("next week", services.NotFound, "no such week"),
        ("", services.NotFound, "no such week"),
        ("9999-12-27", services.NotFound, "not dealt yet"),
    ],
)
def test_another_week_is_refused_and_nothing_is_stored(player, week, error, words):
    with pytest.raises(error, match=words):
        weekly.play_weekly(user=player, week=week)
    assert Game.objects.count() == 0
    assert WeeklyDeal.objects.count() == 0


def test_a_week_closes_at_monday_midnight_utc(player):
    monday_midnight = datetime(2026, 12, 7, 0, 0, 1, tzinfo=UTC)
    with time_machine.travel(monday_midnight), pytest.raises(services.Conflict, match="closed"):
        weekly.play_weekly(user=player, week=MONDAY.isoformat())
    assert Game.objects.count() == 0


def test_a_computer_opponent_does_not_play_it():
    bot = UserFactory(bot_level="easy")
    with pytest.raises(services.NotAllowed):
        weekly.play_weekly(user=bot, week=MONDAY.isoformat())
    assert Game.objects.count() == 0


def test_it_counts_like_any_solo_game(player, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(weekly.play_weekly(user=player, week=MONDAY.isoformat()))
    assert game.uncounted == Game.Uncounted.COUNTS
    [result] = SeatResult.objects.filter(game=game)
    assert result.counts and result.suns is not None


def test_it_is_revealed_once_finished_or_once_the_week_has_closed(player, other_player, carol):
    mine = weekly.play_weekly(user=player, week=MONDAY.isoformat())
    weekly.play_weekly(user=other_player, week=MONDAY.isoformat())
    deal = mine.weekly_deal
    assert not deal.revealed_to(player)
    assert not deal.revealed_to(carol)
    play_to_the_end(mine)
    assert deal.revealed_to(player)
    after = datetime(2026, 12, 7, 0, 0, tzinfo=UTC)
    assert deal.revealed_to(carol, now=after)  # the week closed, and carol never played it
    assert not deal.revealed_to(other_player, now=after)  # still in the middle of it


def test_a_guided_first_game_is_never_a_weekly_game(player):
    deal = weekly.this_weeks_deal()
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(created_by=player, players=1, weekly_deal=deal, guided=True)
    assert weekly.play_weekly(user=player, week=MONDAY.isoformat()).guided is False
