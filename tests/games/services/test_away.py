"""Away on vacation: turn clocks pause, reminders and digests wait, the others are told."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User, set_away
from games import services, tasks
from games.mail import digest, turns
from games.models import Game, Seat
from tests.games.helpers import play_turns, user_to_move

pytestmark = pytest.mark.django_db

# A Monday morning early in a year, so that 60 days fit in it.
START = datetime(2027, 1, 4, 10, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def timed_game(creator: User, friend: User, days: int = 3) -> Game:
    game = services.create_game(
        creator=creator, players=2, side="A", spirits=False, invitees=[friend], turn_limit_days=days
    )
    services.join_game(game_id=game.pk, user=friend)
    game.refresh_from_db()
    return game


def other(game: Game, user: User) -> User:
    return game.seats.exclude(user=user).get().user


def post_away(user: User, until: date | None):
    client = Client()
    client.force_login(user)
    return client.post(reverse("away"), {"away_until": until.isoformat() if until else ""})


def test_going_away_moves_the_limit_of_a_turn_waiting_for_you_by_the_time_away(
    player, other_player
):
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    deadline, version = game.turn_deadline, game.version
    response = post_away(mover, date(2027, 1, 10))  # back on the 11th at midnight (UTC)
    assert response.status_code == 302
    game.refresh_from_db()
    away = datetime(2027, 1, 11, tzinfo=UTC) - START
    assert game.turn_deadline == deadline + away
    assert game.version > version  # open pages redraw the new limit
    mover.refresh_from_db()
    assert mover.away_label == "away until 10 January"


def test_a_turn_that_starts_while_you_are_away_counts_from_your_return(player, other_player):
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    waiting = other(game, mover)
    set_away(waiting, date(2027, 1, 10))
    play_turns(game, turns=1)
    game.refresh_from_db()
    assert game.turn_deadline == datetime(2027, 1, 11, tzinfo=UTC) + timedelta(days=3)


def test_coming_back_early_restarts_the_clock_fairly(player, other_player, frozen):
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    deadline = game.turn_deadline
    set_away(mover, date(2027, 1, 20))
    frozen.shift(timedelta(days=2))
    assert post_away(mover, None).status_code == 302  # back two days later
    game.refresh_from_db()
    assert game.turn_deadline == deadline + timedelta(days=2)
    # a turn that started while away now counts from the early return
    waiting = other(game, mover)
    set_away(waiting, date(2027, 1, 20))
    play_turns(game, turns=1)
    frozen.shift(timedelta(days=1))
    set_away(waiting, None)
    game.refresh_from_db()
    assert game.turn_deadline == timezone.now() + timedelta(days=3)


@pytest.mark.parametrize(
    ("until", "reason"),
    [
        (date(2027, 1, 3), "in the past"),
        (date(2027, 2, 3), "at most 30 days at a time"),
    ],
)
def test_a_date_in_the_past_or_beyond_the_limit_is_refused_and_changes_nothing(
    player, other_player, until, reason
):
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    response = post_away(mover, until)
    assert response.status_code == 400
    assert reason in response.content.decode()
    mover.refresh_from_db()
    assert (mover.away_until, mover.away_since, mover.away_days) == (None, None, {})
    assert Game.objects.get(pk=game.pk).turn_deadline == game.turn_deadline


def test_a_forged_date_is_a_clear_error(player):
    client = Client()
    client.force_login(player)
    response = client.post(reverse("away"), {"away_until": "soon"})
    assert response.status_code == 400
    assert "Enter a valid date" in response.content.decode()


def test_at_most_60_days_a_year(player, frozen):
    set_away(player, date(2027, 2, 2))  # 30 days
    frozen.move_to(datetime(2027, 3, 1, 9, tzinfo=UTC))
    set_away(player, date(2027, 3, 30))  # 30 more
    frozen.move_to(datetime(2027, 4, 15, 9, tzinfo=UTC))
    response = post_away(player, date(2027, 4, 15))
    assert response.status_code == 400
    assert "at most 60 days in a year" in response.content.decode()
    player.refresh_from_db()
    assert player.away_days == {"2027": 60}
    frozen.move_to(datetime(2028, 1, 1, 9, tzinfo=UTC))
    set_away(player, date(2028, 1, 5))  # a new year, a new allowance
    player.refresh_from_db()
    assert player.away_days == {"2027": 60, "2028": 5}


def test_coming_back_early_gives_back_the_days_not_taken(player, frozen):
    set_away(player, date(2027, 1, 30))
    frozen.shift(timedelta(days=3))
    set_away(player, None)
    player.refresh_from_db()
    assert player.away_days == {"2027": 3}  # the 4th, 5th and 6th
    assert player.away_label == ""


def test_no_reminder_while_away_and_one_after_the_return(player, other_player, frozen):
    game = timed_game(player, other_player, days=14)
    mover = user_to_move(game)
    set_away(mover, date(2027, 1, 10))
    seat = Seat.objects.get(game=game, user=mover)
    back = datetime(2027, 1, 11, tzinfo=UTC)
    assert seat.remind_at >= mover.after_quiet_hours(back)
    frozen.move_to(datetime(2027, 1, 9, 12, tzinfo=UTC))
    tasks.sweep_reminders()
    assert mail.outbox == []
    frozen.move_to(seat.remind_at + timedelta(minutes=1))
    tasks.sweep_reminders()
    assert [m.to for m in mail.outbox if "Reminder" in m.subject] == [[mover.email]]


def test_a_reminder_planned_before_going_away_waits(player, other_player, frozen):
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    seat = Seat.objects.get(game=game, user=mover)
    due = seat.remind_at
    User.objects.filter(pk=mover.pk).update(
        away_until=date(2027, 1, 10), away_since=timezone.now()
    )  # away without the replanning, as if a reminder had been queued meanwhile
    frozen.move_to(due)
    assert turns.send_reminder(seat.pk, due) is False
    seat.refresh_from_db()
    assert seat.remind_at >= datetime(2027, 1, 11, tzinfo=UTC)
    assert mail.outbox == []


def test_no_digest_while_away(player, other_player, frozen):
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    User.objects.filter(pk=mover.pk).update(email_digest=True)
    set_away(mover, date(2027, 1, 10))
    frozen.move_to(datetime(2027, 1, 5, 9, tzinfo=UTC))
    assert digest.due_digests(timezone.now()) == []
    frozen.move_to(datetime(2027, 1, 11, 9, tzinfo=UTC))
    assert [u for u, _ in digest.due_digests(timezone.now())] == [mover.pk]


def test_the_others_see_that_you_are_away(player, other_player):
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    set_away(mover, date(2027, 1, 10))
    client = Client()
    client.force_login(other(game, mover))
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"{mover.public_name} is away until 10 January" in page
    assert "away until 10 January" in client.get(reverse("games:mine")).content.decode()
    own = Client()
    own.force_login(mover)
    assert "You are away until 10 January" in own.get(reverse("profile")).content.decode()


# --- Turn emails wait for the return ------------------------------------------------------------


def turn_emails_to(user: User) -> list:
    return [m for m in mail.outbox if "your turn" in m.subject and m.to == [user.email]]


def a_turn_while_away(player, other_player, capture, until=date(2027, 1, 10)) -> tuple[Game, User]:
    """A game where the player to move next went away, then the other one played their turn."""
    game = timed_game(player, other_player, days=14)
    waiting = other(game, user_to_move(game))
    set_away(waiting, until)
    with capture(execute=True):
        play_turns(game, turns=1)
    assert user_to_move(game) == waiting
    return game, waiting


def test_no_turn_email_while_away(player, other_player, frozen, django_capture_on_commit_callbacks):
    _, waiting = a_turn_while_away(player, other_player, django_capture_on_commit_callbacks)
    assert turn_emails_to(waiting) == []
    for hours in (1, 12, 23):
        frozen.move_to(START + timedelta(hours=hours))
        tasks.sweep_missed_turns()
    assert turn_emails_to(waiting) == []


def test_at_the_end_of_the_time_away_the_turn_email_comes_once(
    player, other_player, frozen, django_capture_on_commit_callbacks
):
    game, waiting = a_turn_while_away(player, other_player, django_capture_on_commit_callbacks)
    frozen.move_to(datetime(2027, 1, 10, 23, 55, tzinfo=UTC))  # still away
    assert tasks.sweep_missed_turns() == 0
    for minutes in (1, 2, 30):
        frozen.move_to(datetime(2027, 1, 11, 0, minutes, tzinfo=UTC))
        tasks.sweep_missed_turns()
    [email] = turn_emails_to(waiting)
    assert game.title in email.subject


def test_coming_back_early_sends_the_turn_email_at_once_and_once(
    player, other_player, frozen, django_capture_on_commit_callbacks
):
    _, waiting = a_turn_while_away(player, other_player, django_capture_on_commit_callbacks)
    frozen.move_to(START + timedelta(days=2))  # past the missed-turn sweep's day
    with django_capture_on_commit_callbacks(execute=True):
        assert post_away(waiting, None).status_code == 302
    assert len(turn_emails_to(waiting)) == 1
    frozen.shift(timedelta(minutes=5))
    tasks.sweep_missed_turns()
    with django_capture_on_commit_callbacks(execute=True):
        post_away(waiting, None)  # cleared again: nothing new to tell
    assert len(turn_emails_to(waiting)) == 1


def test_a_turn_told_before_going_away_is_not_told_again_on_return(
    player, other_player, frozen, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, days=14)
    waiting = other(game, user_to_move(game))
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    assert len(turn_emails_to(waiting)) == 1
    set_away(waiting, date(2027, 1, 10))
    frozen.move_to(datetime(2027, 1, 11, 0, 5, tzinfo=UTC))
    assert tasks.sweep_missed_turns() == 0
    assert len(turn_emails_to(waiting)) == 1


def test_the_others_turn_emails_do_not_wait(
    player, other_player, frozen, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, days=14)
    mover = user_to_move(game)
    waiting = other(game, mover)
    set_away(mover, date(2027, 1, 10))  # the one to move is away; the other one is not
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    assert len(turn_emails_to(waiting)) == 1


def test_the_return_is_midnight_in_the_players_own_time_zone(
    player, other_player, frozen, django_capture_on_commit_callbacks
):
    game = timed_game(player, other_player, days=14)
    waiting = other(game, user_to_move(game))
    User.objects.filter(pk=waiting.pk).update(time_zone="Pacific/Auckland")  # UTC+13 in January
    waiting.refresh_from_db()
    set_away(waiting, date(2027, 1, 10))
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    frozen.move_to(datetime(2027, 1, 10, 10, 55, tzinfo=UTC))  # 23:55 in Auckland
    tasks.sweep_missed_turns()
    assert turn_emails_to(waiting) == []
    frozen.move_to(datetime(2027, 1, 10, 11, 1, tzinfo=UTC))  # 00:01 on the 11th there
    tasks.sweep_missed_turns()
    assert len(turn_emails_to(waiting)) == 1


def test_the_box_keeps_the_date_and_saving_it_again_keeps_you_away(player, other_player):
    """The box showed 01/10/2027 to an <input type=date>, which then showed nothing: a second
    Save posted an empty date and answered "Welcome back" while the player was away."""
    game = timed_game(player, other_player)
    mover = user_to_move(game)
    post_away(mover, date(2027, 1, 10))
    game.refresh_from_db()
    deadline = game.turn_deadline
    client = Client()
    client.force_login(mover)
    page = client.get(reverse("profile")).content.decode()
    shown = re.search(r'<input[^>]*name="away_until"[^>]*>', page).group(0)
    value = re.search(r'value="([^"]*)"', shown).group(1)
    assert value == "2027-01-10"
    response = client.post(reverse("away"), {"away_until": value}, follow=True)
    assert "You are away until Sunday 10 January" in response.content.decode()
    mover.refresh_from_db()
    assert mover.away_until == date(2027, 1, 10)
    assert mover.away_days == {"2027": 7}  # the same absence, not counted twice
    game.refresh_from_db()
    assert game.turn_deadline == deadline  # the clock still waits for the return
