"""Reminders: a due time per seat, planned as the turn starts and swept by beat (frozen clock)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from accounts.models import User
from games import services, tasks
from games.mail import turns
from games.models import Game, Seat
from tests.games.helpers import play_turns, user_to_move

pytestmark = pytest.mark.django_db

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)  # a Monday, noon in London
NO_QUIET_HOURS = {"quiet_start": 0, "quiet_end": 0}


def at(moment: datetime):
    return time_machine.travel(moment, tick=False)


def waiting_player(game: Game) -> User:
    return game.seats.exclude(user=user_to_move(game)).get().user


def choose(user: User, **preferences) -> None:
    User.objects.filter(pk=user.pk).update(**preferences)


def pass_turn_at(game: Game, moment: datetime, **preferences) -> Seat:
    """The turn passes at `moment` to a player with these preferences; returns their seat."""
    waiting = waiting_player(game)
    choose(waiting, **preferences)
    with at(moment):
        play_turns(game, turns=1)
    return Seat.objects.get(game=game, user=waiting)


def sweep_at(moment: datetime) -> int:
    with at(moment):
        return tasks.sweep_reminders()


def reminders():
    return [m for m in mail.outbox if m.subject.startswith("Reminder")]


@pytest.fixture
def timed_game(player, other_player):
    def make(days: int) -> Game:
        game = services.create_game(
            creator=player, players=2, side="A", spirits=False, invitees=[other_player],
            turn_limit_days=days,
        )  # fmt: skip
        return services.join_game(game_id=game.pk, user=other_player)

    return make


@pytest.mark.parametrize("hours", [12, 24, 48])
def test_the_first_reminder_comes_after_the_chosen_delay(game, hours):
    seat = pass_turn_at(game, T0, remind_every_hours=hours, **NO_QUIET_HOURS)
    assert seat.remind_at == T0 + timedelta(hours=hours)
    assert not game.seats.exclude(pk=seat.pk).filter(remind_at__isnull=False).exists()


@pytest.mark.parametrize(
    "time_zone, quiet, hours, turn_starts, expected",
    [
        # 00:00 in Tokyo is quiet: wait until 07:00 Tokyo time, 22:00 UTC the evening before.
        ("Asia/Tokyo", (22, 7), 24, T0.replace(hour=15), datetime(2027, 3, 2, 22, tzinfo=UTC)),
        # 23:00 in New York is quiet: 07:00 the next morning there, 12:00 UTC.
        ("America/New_York", (22, 7), 12, T0.replace(hour=16),
         datetime(2027, 3, 2, 12, tzinfo=UTC)),
        # Quiet hours spanning the night the clocks go forward (14 March 2027 in New York).
        ("America/New_York", (22, 7), 12, datetime(2027, 3, 13, 15, tzinfo=UTC),
         datetime(2027, 3, 14, 11, tzinfo=UTC)),
        # Quiet hours during the day, not across midnight.
        ("UTC", (9, 17), 24, T0, datetime(2027, 3, 2, 17, tzinfo=UTC)),
        # Outside quiet hours nothing moves: 13:00 in Paris.
        ("Europe/Paris", (22, 7), 24, T0, T0 + timedelta(hours=24)),
    ],
)  # fmt: skip
def test_a_reminder_due_in_quiet_hours_waits_for_their_end_in_the_players_time_zone(
    game, time_zone, quiet, hours, turn_starts, expected
):
    seat = pass_turn_at(
        game,
        turn_starts,
        time_zone=time_zone,
        quiet_start=quiet[0],
        quiet_end=quiet[1],
        remind_every_hours=hours,
    )
    assert seat.remind_at == expected


def test_the_sweep_sends_the_reminder_then_repeats_at_the_interval(game):
    seat = pass_turn_at(game, T0, remind_every_hours=12, **NO_QUIET_HOURS)
    assert sweep_at(T0 + timedelta(hours=11, minutes=59)) == 0
    first = T0 + timedelta(hours=12, minutes=3)
    assert sweep_at(first) == 1
    assert sweep_at(first) == 0
    (message,) = reminders()
    assert message.to == [seat.user.email]
    game.refresh_from_db()
    assert message.subject == f"Reminder: your move in {game.title}"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    seat.refresh_from_db()
    assert seat.remind_at == first + timedelta(hours=12)
    assert sweep_at(first + timedelta(hours=12, minutes=4)) == 1
    assert len(reminders()) == 2


def test_two_sweeps_at_once_send_one_reminder(game):
    seat = pass_turn_at(game, T0, remind_every_hours=12, **NO_QUIET_HOURS)
    due = T0 + timedelta(hours=12, minutes=1)
    with at(due):
        first, second = turns.due_reminders(due), turns.due_reminders(due)
        assert first == second == [(seat.pk, seat.remind_at)]
        for seat_id, remind_at in first + second:
            tasks.send_reminder(seat_id, remind_at.isoformat())
    assert len(reminders()) == 1


def test_a_seat_whose_turn_it_no_longer_is_is_not_reminded(game):
    seat = pass_turn_at(game, T0, remind_every_hours=12, **NO_QUIET_HOURS)
    stale = game.seats.exclude(pk=seat.pk).get()
    Seat.objects.filter(pk=stale.pk).update(remind_at=T0)  # left over from their own turn
    assert sweep_at(T0 + timedelta(minutes=5)) == 0
    assert reminders() == []
    stale.refresh_from_db()
    assert stale.remind_at is None
    with at(T0 + timedelta(hours=1)):
        play_turns(game, turns=1)  # the reminded player plays: their reminder is off
    seat.refresh_from_db()
    assert seat.remind_at is None
    assert sweep_at(T0 + timedelta(hours=12, minutes=1)) == 0


@pytest.mark.parametrize(
    "days, warning_after",
    [
        (1, timedelta(hours=12)),
        (3, timedelta(hours=60)),
    ],
)
def test_a_time_limit_warns_before_it_runs_out_even_when_reminders_are_never(
    timed_game, days, warning_after
):
    game = timed_game(days)
    seat = pass_turn_at(game, T0, remind_every_hours=0, **NO_QUIET_HOURS)
    assert seat.remind_at == T0 + warning_after
    assert sweep_at(T0 + warning_after + timedelta(minutes=2)) == 1
    (message,) = reminders()
    assert "time limit runs out" in message.body
    seat.refresh_from_db()
    assert seat.remind_at is None  # nothing else is due this turn


def test_reminders_switched_off_means_no_time_limit_warning_either(timed_game):
    seat = pass_turn_at(timed_game(3), T0, email_reminder=False)
    assert seat.remind_at is None


def test_the_time_limit_warning_is_not_postponed_past_the_limit(timed_game):
    # Quiet from 20:00 to 13:00: the warning (midnight) would otherwise wait until after the limit.
    seat = pass_turn_at(timed_game(1), T0, remind_every_hours=0, quiet_start=20, quiet_end=13)
    assert seat.remind_at == T0 + timedelta(hours=12)


def test_a_reminder_due_in_newly_chosen_quiet_hours_waits_for_their_end(game):
    seat = pass_turn_at(game, T0, remind_every_hours=12, **NO_QUIET_HOURS)
    choose(seat.user, quiet_start=22, quiet_end=7)  # changed after the reminder was planned
    assert sweep_at(T0 + timedelta(hours=12, minutes=1)) == 1
    assert reminders() == []
    seat.refresh_from_db()
    assert seat.remind_at == datetime(2027, 3, 2, 7, tzinfo=UTC)
    assert sweep_at(datetime(2027, 3, 2, 7, 2, tzinfo=UTC)) == 1
    assert len(reminders()) == 1


def test_a_solo_game_has_no_reminders(player):
    game = services.create_game(creator=player, players=1, side="A", spirits=False)
    with at(T0):
        play_turns(game, turns=1)
    assert not Seat.objects.filter(game=game, remind_at__isnull=False).exists()


def test_reminders_switched_on_mid_turn_follow_the_turns_rhythm(game, client):
    seat = pass_turn_at(game, T0, email_reminder=False, **NO_QUIET_HOURS)
    assert seat.remind_at is None
    with at(T0 + timedelta(hours=30)):
        client.force_login(seat.user)
        response = client.post(
            "/accounts/profile/emails/",
            {"email_turn": "on", "email_reminder": "on", "remind_every_hours": 24,
             "quiet_start": 0, "quiet_end": 0},
        )  # fmt: skip
    assert response.status_code == 302 and response.url.endswith("#emails")
    seat.refresh_from_db()
    assert seat.remind_at == T0 + timedelta(hours=48)  # the turn's next 24-hour mark
    assert Seat.objects.exclude(pk=seat.pk).get(game=game).remind_at is None


def test_unsubscribing_from_reminders_drops_the_planned_one(game):
    from accounts import unsubscribe

    seat = pass_turn_at(game, T0, remind_every_hours=12, **NO_QUIET_HOURS)
    assert seat.remind_at is not None
    unsubscribe.switch_off(seat.user, "reminder")
    seat.refresh_from_db()
    assert seat.remind_at is None
