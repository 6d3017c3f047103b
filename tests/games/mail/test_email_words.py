"""The words of the game emails, read as a player reads them: every email names the game as My
games lists it, lists of names agree with their verb, and nothing says what only the site counts.
"""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.models import User
from games import services, tasks
from games.models import Game
from games.narration import end_words
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db


def subjects() -> list[str]:
    return [m.subject for m in mail.outbox]


def everything() -> str:
    return "\n".join(m.subject + "\n" + m.body + "\n" + m.alternatives[0][0] for m in mail.outbox)


def named_table(creator, *others, name="Friday night", **kwargs) -> Game:
    return services.create_game(
        creator=creator, players=1 + len(others), side="A", spirits=False, invitees=others,
        name=name, **kwargs,
    )  # fmt: skip


# --- Names and their verbs ------------------------------------------------------------------------


def test_a_game_named_after_its_players_has_a_plural_verb_and_a_name_of_its_own_a_singular(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(player, other_player, carol)
    game.refresh_from_db()
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        tasks.sweep_missed_turns()  # the first player's "you play first", if held
    assert f"{game.title} have started: you play first" in subjects()
    assert f"Your table is full: {game.title} have started" in subjects()
    assert " has started" not in everything()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        named = named_table(player, other_player, carol)
        for user in (other_player, carol):
            services.join_game(game_id=named.pk, user=user)
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        tasks.sweep_missed_turns()
    assert "Friday night has started: you play first" in subjects()
    assert "Your table is full: Friday night has started" in subjects()


def test_the_table_started_email_names_the_others_in_words(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        named = named_table(player, other_player, carol)
        services.join_game(game_id=named.pk, user=other_player)
        services.join_game(game_id=named.pk, user=carol)
    (started,) = [m for m in mail.outbox if "table is full" in m.subject]
    # The others in seat order, which is drawn at random.
    others = r"(Bob and Carol|Carol and Bob)"
    assert re.search(
        rf"Friday night \(3 players, side A\) with {others} has started\.", started.body
    )
    assert "Bob, Carol has" not in started.body


def nine_in_the_morning(days_ahead: int):
    """9:00 UTC on a day to come: always ahead of now, whatever the hour the suite runs at
    (9:00 today plus a day is only 9 hours away when the suite runs at midnight)."""
    return (timezone.now() + timedelta(days=days_ahead)).replace(hour=9, minute=0)


def test_a_game_named_after_its_players_is_not_then_said_to_be_with_them(
    player, other_player, django_capture_on_commit_callbacks
):
    # "Rita and Sam with Sam": the name already says who plays.
    User.objects.update(email_digest=True, quiet_start=0, quiet_end=0, remind_every_hours=12)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            creator=player, players=2, side="A", spirits=False, invitees=[other_player],
            turn_limit_days=3,
        )  # fmt: skip
        services.join_game(game_id=game.pk, user=other_player)
    game.refresh_from_db()
    mover = user_to_move(game)
    later = nine_in_the_morning(days_ahead=2)  # 33 to 57 hours on: past the 12 h reminder
    with time_machine.travel(later), django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_reminders()
        tasks.sweep_digests()
    assert f"Reminder: your move in {game.title}" in subjects()
    assert "1 game waiting for your move" in subjects()
    with (
        time_machine.travel(later + timedelta(days=3)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        tasks.sweep_timeouts()
    assert [m for m in mail.outbox if m.to == [mover.email] and "ran out of time" in m.subject]
    assert f"{game.title} with" not in everything()
    assert f"{game.title}</strong> (2 players, side A) with" not in everything()
    assert f"{game.title} (2 players, side A) with" not in everything()


# --- Nothing only the site counts ---------------------------------------------------------------


def test_the_timeout_email_has_no_turn_number(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    game = named_table(player, other_player, carol, turn_limit_days=1)
    for user in (other_player, carol):
        services.join_game(game_id=game.pk, user=user)
    play_turns(game, turns=5)
    mail.outbox.clear()
    with (
        time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        tasks.sweep_timeouts()
    notices = [m for m in mail.outbox if "ran out of time" in m.subject]
    assert len(notices) == 2
    for message in notices:
        assert not re.search(r"turn \d", message.subject + message.body), message.body
        assert "time for the turn ran out before" in message.body


def test_how_a_game_ended_counts_rounds_not_the_site_s_turns(player, other_player, carol):
    game = start_game(player, other_player, carol)
    play_turns(game, turns=7)  # two rounds and a turn: the third round is under way
    services.resign(game_id=game.pk, user=user_to_move(game))
    services.resign(game_id=game.pk, user=user_to_move(game))
    game.refresh_from_db()
    seats = list(game.seats.select_related("user"))
    assert game.ended_on_turn == 9
    assert " in round 3" in end_words(game, seats)
    assert "turn 9" not in end_words(game, seats)


def test_a_one_game_digest_does_not_say_the_most_urgent_first(player, other_player, carol):
    User.objects.filter(pk=player.pk).update(email_digest=True, quiet_start=0, quiet_end=0)
    for opponent in (other_player, carol):
        game = start_game(player, opponent)
        if user_to_move(game) != player:
            play_turns(game, turns=1)
        with time_machine.travel(nine_in_the_morning(days_ahead=1 + len(mail.outbox))):
            tasks.sweep_digests()
    one, two = mail.outbox
    assert "One game is waiting for your move:" in one.body
    assert "most urgent" not in one.body + one.alternatives[0][0]
    assert "2 games are waiting for your move, the most urgent first:" in two.body


@pytest.mark.parametrize(
    "on_timeout, words",
    [
        (Game.OnTimeout.STAND_IN, "After that a stand-in plays the turn for you"),
        (Game.OnTimeout.DROP, "After that you are dropped from the game and placed last"),
    ],
)
def test_the_reminder_says_what_happens_when_the_limit_passes(
    player, other_player, on_timeout, words
):
    User.objects.update(quiet_start=0, quiet_end=0, remind_every_hours=0)
    game = named_table(player, other_player, turn_limit_days=1, on_timeout=on_timeout)
    services.join_game(game_id=game.pk, user=other_player)
    with time_machine.travel(timezone.now() + timedelta(hours=12, minutes=1)):
        tasks.sweep_reminders()
    (reminder,) = [m for m in mail.outbox if m.subject.startswith("Reminder")]
    assert words in reminder.body
    assert "Your game Friday night (2 players, side A) with" in reminder.body
    assert "the other players may have your turn played" not in reminder.body


def test_a_solo_game_over_email_gives_the_score_without_a_ranking(
    player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(creator=player, players=1, side="A", spirits=False)
        play_to_the_end(game)
    (message,) = [m for m in mail.outbox if "is over" in m.subject]
    seat = game.seats.get()
    assert message.subject == (
        f"Your solo game {game.title} is over: {seat.final_score} point"
        + ("" if seat.final_score == 1 else "s")
    )
    assert "Final ranking" not in message.body and "1. " not in message.body
    assert f"Your score: {seat.final_score} point" in message.body


# --- Every email names the game as the lists do -------------------------------------------------


def test_every_email_about_a_named_game_calls_it_by_its_name(
    player, other_player, carol, django_capture_on_commit_callbacks
):
    User.objects.update(quiet_start=0, quiet_end=0, remind_every_hours=12)
    with django_capture_on_commit_callbacks(execute=True):
        game = named_table(player, other_player, carol, turn_limit_days=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.decline_invitation(game_id=game.pk, user=carol)
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(game_id=game.pk, by=player, invitees=[carol])
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game_id=game.pk, user=other_player)
        services.join_game(game_id=game.pk, user=carol)
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=2)
    with time_machine.travel(timezone.now() + timedelta(hours=12, minutes=5)):
        tasks.sweep_reminders()
    with (
        time_machine.travel(timezone.now() + timedelta(days=1, minutes=5)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        tasks.sweep_timeouts()
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game)
    kinds = {
        "invites you to Friday night, a game of Harmonies": 0,
        "declined your invitation to Friday night": 0,
        "Your table is full: Friday night has started": 0,
        ": your turn in Friday night": 0,
        "Reminder: your move in Friday night": 0,
        "Friday night: ": 0,  # the timeout notice
        "Your game Friday night is over": 0,
    }
    for subject in subjects():
        assert "Friday night" in subject, subject
        for kind in kinds:
            kinds[kind] += kind in subject
    assert all(kinds.values()), (kinds, subjects())
    assert f"game {game.pk}" not in everything().lower()


def test_a_table_not_yet_named_is_called_as_my_games_lists_it(
    player, other_player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = services.create_game(
            creator=player, players=2, side="A", spirits=False, invitees=[other_player]
        )
        services.cancel_game(game_id=table.pk, user=player)
    (message,) = mail.outbox
    assert message.subject == f"Alice cancelled {table.title}" == f"Alice cancelled Game {table.pk}"
