"""A turn whose time ran out: one email per person for it, whoever runs the sweeps and how often.

The late player hears that their time ran out (and no reminder for the turn that is no longer
theirs); the next player hears it in their one "your turn" email; everyone else at the table gets
the timeout notice. When the timeout ends the game, the game-over email says so, alone.
"""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from accounts.models import User
from games import presence, services, tasks
from games.models import Game, Seat
from tests.games.helpers import user_to_move

pytestmark = pytest.mark.django_db

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(days=1)


def timed_game(*users, on_timeout: str = Game.OnTimeout.STAND_IN) -> Game:
    """A game with a 1-day turn limit started at T0; everyone is reminded every 12 hours, with
    no quiet hours, so that a reminder falls due at the very moment the limit passes."""
    User.objects.filter(pk__in=[u.pk for u in users]).update(
        remind_every_hours=12, quiet_start=0, quiet_end=0
    )
    with time_machine.travel(T0, tick=False):
        game = services.create_game(
            creator=users[0], players=len(users), side="A", spirits=False, invitees=users[1:],
            turn_limit_days=1, on_timeout=on_timeout,
        )  # fmt: skip
        for user in users[1:]:
            services.join_game(game_id=game.pk, user=user)
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        tasks.sweep_missed_turns()  # "the game has started", as the worker sends it
    game.refresh_from_db()
    return game


def every_sweep() -> None:
    """All the email sweeps and the timeout sweep of one beat, reminders first (the order that
    used to send the late player a reminder beside the timeout notice)."""
    tasks.sweep_reminders()
    tasks.sweep_timeouts()
    tasks.sweep_missed_turns()
    tasks.sweep_finished_games()


def beats_after_the_deadline(capture, minutes=(1, 2, 5, 30)) -> None:
    for m in minutes:
        with (
            time_machine.travel(DEADLINE + timedelta(minutes=m), tick=False),
            capture(execute=True),
        ):
            every_sweep()


def to(user: User) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def seat_after(game: Game, user: User, steps: int = 1) -> User:
    position = game.seats.get(user=user).position
    return game.seats.get(position=(position + steps) % game.players).user


def the_warning_was_sent(game: Game, late: User, capture) -> None:
    """The 12-hour warning went to the late player; the outbox starts empty after it."""
    mail.outbox.clear()
    with (
        time_machine.travel(T0 + timedelta(hours=12, minutes=1), tick=False),
        capture(execute=True),
    ):
        every_sweep()
    assert [m.subject for m in to(late)] == [f"Reminder: your move in {game.title}"]
    # Every 12 hours would be at the limit itself: by then the turn is no longer theirs.
    assert Seat.objects.get(game=game, user=late).remind_at is None
    mail.outbox.clear()


def test_a_stand_in_turn_sends_the_next_player_one_email_and_the_late_one_no_reminder(
    player, other_player, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player)
    late = user_to_move(game)
    nxt = seat_after(game, late)
    the_warning_was_sent(game, late, django_capture_on_commit_callbacks)
    beats_after_the_deadline(django_capture_on_commit_callbacks)

    (notice,) = to(late)
    assert notice.subject == f"{game.title}: your turn ran out of time, a stand-in played it"
    (turn,) = to(nxt)
    name = late.public_name
    assert turn.subject == f"{name}'s time ran out, a stand-in played: your turn in {game.title}"
    assert f"{name}'s time for the turn ran out, so a stand-in played it" in turn.body
    assert "It is your turn now" in turn.body
    html = turn.alternatives[0][0]
    assert f"<strong>{name}</strong>'s time for the turn ran out" in html


def test_in_a_game_of_three_the_others_get_the_notice_and_the_next_player_one_email(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, carol)
    late = user_to_move(game)
    nxt, third = seat_after(game, late), seat_after(game, late, 2)
    mail.outbox.clear()
    beats_after_the_deadline(django_capture_on_commit_callbacks)

    assert [m.subject for m in to(late)] == [
        f"{game.title}: your turn ran out of time, a stand-in played it"
    ]
    assert [m.subject for m in to(third)] == [
        f"{game.title}: {late.public_name}'s turn ran out of time, a stand-in played it"
    ]
    (turn,) = to(nxt)
    assert "your turn in" in turn.subject and "time ran out" in turn.subject


def test_a_dropped_player_s_turn_tells_the_next_player_in_their_turn_email(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, carol, on_timeout=Game.OnTimeout.DROP)
    late = user_to_move(game)
    nxt, third = seat_after(game, late), seat_after(game, late, 2)
    mail.outbox.clear()
    beats_after_the_deadline(django_capture_on_commit_callbacks)

    name = late.public_name
    (turn,) = to(nxt)
    assert turn.subject == f"{name} ran out of time and was dropped: your turn in {game.title}"
    assert f"{name} ran out of time and was dropped from the game." in turn.body
    assert "A stand-in for" in turn.body  # the rest of the turn, played for them
    (notice,) = to(third)
    assert notice.subject == f"{game.title}: {name}'s turn ran out of time, {name} was dropped"
    (own,) = to(late)
    assert "you were dropped" in own.subject
    assert "the game goes on without you" in own.body


def test_a_drop_that_ends_the_game_is_told_by_the_game_over_email_alone(
    player, other_player, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, on_timeout=Game.OnTimeout.DROP)
    late = user_to_move(game)
    mail.outbox.clear()
    beats_after_the_deadline(django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for user in (player, other_player):
        (message,) = to(user)
        assert message.subject.startswith("Your game ") and "abandoned" in message.subject
        assert f"{late.public_name} ran out of time" in message.body


def test_the_next_player_watching_gets_the_one_email_after_they_stop_watching(
    player, other_player, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player)
    late = user_to_move(game)
    nxt = seat_after(game, late)
    mail.outbox.clear()
    with time_machine.travel(DEADLINE + timedelta(seconds=30), tick=False):
        presence.mark_present(game.pk, nxt.pk)
    beats_after_the_deadline(django_capture_on_commit_callbacks, minutes=(1,))
    assert to(nxt) == []  # held while they watch, not sent as a separate notice either
    beats_after_the_deadline(django_capture_on_commit_callbacks, minutes=(4, 10, 60))
    (turn,) = to(nxt)
    assert "time ran out" in turn.subject and "your turn in" in turn.subject


def test_every_task_run_twice_still_sends_one_email_each(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, carol)
    late = user_to_move(game)
    turn = game.engine_state().turn
    mail.outbox.clear()
    beats_after_the_deadline(django_capture_on_commit_callbacks)
    with time_machine.travel(DEADLINE + timedelta(hours=1), tick=False):
        for _ in range(2):  # a redelivered task, or a second worker
            tasks.notify_timeout(game.pk, turn)
            tasks.notify_turn(game.pk, turn + 1)
            tasks.act_on_timeout(game.pk, turn)
    for user in (player, other_player, carol):
        assert len(to(user)) == 1, [m.subject for m in to(user)]
    assert Seat.objects.get(game=game, user=late).remind_at is None


def test_a_turn_skipped_by_a_player_follows_the_same_rule(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, carol)
    late = user_to_move(game)
    nxt, third = seat_after(game, late), seat_after(game, late, 2)
    mail.outbox.clear()
    with (
        time_machine.travel(DEADLINE + timedelta(seconds=20), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.skip_turn(game_id=game.pk, user=third, expected_version=game.version)
    assert len(to(late)) == 1 and "a stand-in played it" in to(late)[0].subject
    assert len(to(third)) == 1
    (turn,) = to(nxt)
    assert "your turn in" in turn.subject


def test_a_reminder_planned_for_the_time_limit_itself_is_not_sent(player, other_player):
    game = timed_game(player, other_player)
    late = user_to_move(game)
    # As planned before reminders stopped at the limit (or by a sweep that ran late).
    Seat.objects.filter(game=game, user=late).update(remind_at=DEADLINE)
    mail.outbox.clear()
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        tasks.sweep_reminders()
    assert mail.outbox == []
    assert Seat.objects.get(game=game, user=late).remind_at is None


def test_the_next_player_away_hears_of_the_timeout_once_in_the_turn_email_on_their_return(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    from accounts.models import set_away

    game = timed_game(player, other_player, carol)
    late = user_to_move(game)
    nxt, third = seat_after(game, late), seat_after(game, late, 2)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        set_away(nxt, date(2027, 3, 4))  # back on the 5th at midnight (UTC)
    mail.outbox.clear()
    beats_after_the_deadline(django_capture_on_commit_callbacks)
    assert to(nxt) == []  # away: nothing, not even the notice
    assert len(to(late)) == 1 and len(to(third)) == 1
    back = datetime(2027, 3, 5, 0, 2, tzinfo=UTC)
    for minutes in (0, 5, 60):
        with (
            time_machine.travel(back + timedelta(minutes=minutes), tick=False),
            django_capture_on_commit_callbacks(execute=True),
        ):
            every_sweep()
    (turn,) = to(nxt)  # and no reminder with it: the reminders count from the return too
    assert f"{late.public_name}'s time ran out, a stand-in played: your turn in" in turn.subject
