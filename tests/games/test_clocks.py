"""The clocks' arithmetic (games/clocks.py): weekends skipped in a time zone, DST included, the
bank after a turn, the checks of a chosen clock and the estimate of turns left."""

import ast
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import clocks, engine

PARIS = ZoneInfo("Europe/Paris")
# Zones with a midnight the clocks skip or repeat, or far from UTC, or no DST at all.
ZONES = [
    ZoneInfo(name)
    for name in (
        "UTC",
        "Europe/Paris",
        "America/New_York",
        "America/Santiago",
        "America/Havana",
        "Asia/Beirut",
        "Pacific/Kiritimati",
        "Pacific/Pago_Pago",
        "Australia/Lord_Howe",
    )
]

moments = st.datetimes(
    min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)
)
spans = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=40))
zones = st.sampled_from(ZONES)


def test_the_clocks_know_nothing_of_django():
    tree = ast.parse(Path(clocks.__file__).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [name for name in names if name.split(".")[0] == "django"]


def paris(*args) -> datetime:
    return datetime(*args, tzinfo=PARIS)


def test_without_a_zone_a_deadline_is_the_start_plus_the_allowance():
    start = datetime(2026, 12, 4, 12, tzinfo=UTC)
    assert clocks.deadline(start, timedelta(days=3), None) == start + timedelta(days=3)


def test_it_skips_the_weekend_in_the_players_time_zone():
    friday_noon = paris(2026, 12, 4, 12)
    end = clocks.deadline(friday_noon, timedelta(days=1), PARIS)
    assert end == paris(2026, 12, 7, 12)  # Monday noon, Paris time
    assert end.astimezone(UTC) == datetime(2026, 12, 7, 11, tzinfo=UTC)


def test_a_turn_started_on_saturday_counts_from_monday():
    saturday = paris(2026, 12, 5, 15)
    assert clocks.deadline(saturday, timedelta(hours=5), PARIS) == paris(2026, 12, 7, 5)
    assert clocks.counted(saturday, paris(2026, 12, 7, 0), PARIS) == timedelta(0)


def test_the_weekend_when_the_clocks_go_back_is_49_hours():
    # Europe/Paris leaves summer time on Sunday 25 October 2026.
    friday_evening = paris(2026, 10, 23, 23)
    end = clocks.deadline(friday_evening, timedelta(hours=2), PARIS)
    assert end == paris(2026, 10, 26, 1)
    assert end - friday_evening.astimezone(UTC) == timedelta(hours=2 + 49)


def test_the_weekend_when_the_clocks_go_forward_is_47_hours():
    friday_evening = paris(2026, 3, 27, 23)
    end = clocks.deadline(friday_evening, timedelta(hours=2), PARIS)
    assert end.astimezone(UTC) - friday_evening.astimezone(UTC) == timedelta(hours=2 + 47)


def test_a_week_counts_five_days():
    monday = paris(2026, 11, 30, 0)
    assert clocks.counted(monday, monday + timedelta(days=7), PARIS) == timedelta(days=5)


@settings(max_examples=300, deadline=None)
@given(start=moments, allowance=spans, zone=zones)
def test_a_deadline_counts_exactly_its_allowance(start, allowance, zone):
    end = clocks.deadline(start, allowance, zone)
    assert end >= start + allowance
    assert clocks.counted(start, end, zone) == allowance


@settings(max_examples=300, deadline=None)
@given(start=moments, allowance=spans, zone=zones)
def test_a_deadline_never_falls_inside_a_weekend(start, allowance, zone):
    end = clocks.deadline(start, allowance, zone)
    assert allowance == timedelta(0) or not clocks.is_weekend(end - timedelta(microseconds=1), zone)


@settings(max_examples=200, deadline=None)
@given(start=moments, a=spans, b=spans, zone=zones)
def test_more_time_never_ends_sooner(start, a, b, zone):
    low, high = sorted((a, b))
    assert clocks.deadline(start, low, zone) <= clocks.deadline(start, high, zone)


@settings(max_examples=200, deadline=None)
@given(start=moments, first=spans, second=spans, zone=zones)
def test_counting_adds_up_over_a_split(start, first, second, zone):
    middle, end = start + first, start + first + second
    whole = clocks.counted(start, end, zone)
    assert whole == clocks.counted(start, middle, zone) + clocks.counted(middle, end, zone)
    assert whole <= end - start


@settings(max_examples=300, deadline=None)
@given(end=moments, span=spans, zone=zones)
def test_rewind_is_the_inverse_of_counting(end, span, zone):
    back = clocks.rewind(end, span, zone)
    assert back <= end
    assert clocks.counted(back, end, zone) == span


@settings(max_examples=200, deadline=None)
@given(moment=moments, zone=zones)
def test_a_weekend_ends_on_a_monday_at_the_start_of_the_day(moment, zone):
    if not clocks.is_weekend(moment, zone):
        return
    end = clocks.weekend_end(moment, zone)
    local = end.astimezone(zone)
    assert end > moment
    assert local.weekday() == 0
    assert not clocks.is_weekend(end, zone)
    assert clocks.is_weekend(end - timedelta(microseconds=1), zone)


def test_the_bank_keeps_what_was_left_and_gains_the_increment_up_to_its_size():
    clock = clocks.Clock(clocks.BANK, None, 3, 6)
    assert clocks.bank_after_turn(timedelta(days=1), clock) == timedelta(days=1, hours=6)
    assert clocks.bank_after_turn(timedelta(days=3), clock) == timedelta(days=3)
    # Run out (a stand-in's turn): the increment, nothing more.
    assert clocks.bank_after_turn(-timedelta(hours=5), clock) == timedelta(hours=6)


@pytest.mark.parametrize(
    ("span", "words"),
    [
        (timedelta(days=2, hours=4, minutes=30), "2 days 4 h"),
        (timedelta(days=1), "1 day"),
        (timedelta(hours=5, minutes=20), "5 h 20 min"),
        (timedelta(hours=3), "3 h"),
        (timedelta(minutes=12), "12 min"),
        (timedelta(seconds=20), "less than a minute"),
        (-timedelta(hours=1), "less than a minute"),
    ],
)
def test_time_left_in_words(span, words):
    assert clocks.duration_words(span) == words


def test_the_clock_in_words():
    assert clocks.describe(clocks.Clock(clocks.PER_TURN, 3)) == "3 days per turn"
    assert clocks.describe(clocks.Clock(clocks.PER_TURN)) == "no time limit"
    assert (
        clocks.describe(clocks.Clock(clocks.BANK, None, 7, 12, True))
        == "a 7-day time bank, +12 h per move, paused at weekends"
    )
    # A bank that late players are dropped from may gain nothing: never "+0 h".
    assert clocks.describe(clocks.Clock(clocks.BANK, None, 1, 0)) == (
        "a 1-day time bank, no time added per move"
    )


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        (("sundial",), "Choose a clock"),
        ((clocks.BANK, None, 0, 6), "1 to 30 days"),
        ((clocks.BANK, None, -3, 6), "1 to 30 days"),
        ((clocks.BANK, None, 31, 6), "1 to 30 days"),
        ((clocks.BANK, None, 10**12, 6), "1 to 30 days"),
        ((clocks.BANK, None, None, 6), "1 to 30 days"),
        ((clocks.BANK, None, True, 6), "1 to 30 days"),
        ((clocks.BANK, None, "7", 6), "1 to 30 days"),
        ((clocks.BANK, None, 7, -1), "0 to 48 hours"),
        ((clocks.BANK, None, 7, 49), "0 to 48 hours"),
        ((clocks.BANK, None, 7, 0), "could never play again"),
        ((clocks.BANK, 3, 7, 6), "not both"),
        ((clocks.PER_TURN, 3, 7, 0), "not both"),
        ((clocks.PER_TURN, 3, None, 6), "not both"),
        ((clocks.PER_TURN, 2), "1, 3, 7 or 14 days"),
        ((clocks.PER_TURN, None, None, 0, True), "needs a time limit"),
        ((clocks.PER_TURN, 3, None, 0, "yes"), "yes or a no"),
    ],
)
def test_impossible_clocks_are_refused_with_a_reason(values, reason):
    with pytest.raises(clocks.ClockError, match=reason):
        clocks.check_clock(*values)


def test_a_bank_with_no_increment_is_fine_when_late_players_are_dropped():
    clock = clocks.check_clock(clocks.BANK, None, 1, 0, stand_in=False)
    assert clock.bank == timedelta(days=1)
    assert clock.increment == timedelta(0)


def test_good_clocks_pass():
    assert clocks.check_clock(clocks.PER_TURN) == clocks.Clock()
    assert clocks.check_clock(clocks.PER_TURN, 7, None, 0, True).pause_weekends
    bank = clocks.check_clock(clocks.BANK, None, 30, 48, True)
    assert (bank.bank, bank.increment) == (timedelta(days=30), timedelta(hours=48))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_turns_left_come_within_two_rounds_of_a_real_game(players):
    """Easy bots play whole games; from the fifth round on, the estimate of the turns left is
    within two rounds of the truth, and it reaches 0 exactly when the game ends."""
    for seed in range(3):
        state = engine.new_game(engine.GameConfig(players=players, side="AB"[seed % 2]), seed)
        choose, rng = engine.get_policy("easy"), random.Random(seed)
        estimates = []
        while not state.finished:
            if state.taken_space is None and state.turn >= 4 * players:
                estimates.append((state.turn, clocks.turns_left(state)))
            state = engine.apply(state, choose(state, rng))
        assert clocks.turns_left(state) == 0
        for turn, left in estimates:
            assert abs(turn + left - state.turn) <= 2 * players
