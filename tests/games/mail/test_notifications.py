"""Turn and game-over emails: one per turn, never to bots, held while watched, sent once."""

import io
import random
from datetime import timedelta
from smtplib import SMTPServerDisconnected

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import presence, services, tasks
from games.mail import send as emails
from games.models import Game, Seat
from games.narration import describe
from games.services.bots import bots_for
from tests.games.helpers import (
    play_one_action,
    play_to_the_end,
    play_turns,
    start_game,
    user_to_move,
)

pytestmark = pytest.mark.django_db


def waiting_player(game: Game):
    """The player who will move next, once the one to move ends their turn."""
    mover = user_to_move(game)
    return game.seats.exclude(user=mover).get().user


def turn_emails():
    return [m for m in mail.outbox if "your turn" in m.subject]


def test_the_next_player_gets_one_email_per_turn_not_per_token(
    game, django_capture_on_commit_callbacks
):
    waiting, rng = waiting_player(game), random.Random(1)
    first_turn = game.engine_state().turn
    actions = 0
    while game.engine_state().turn == first_turn:
        assert mail.outbox == []
        with django_capture_on_commit_callbacks(execute=True):
            play_one_action(game, rng)
        actions += 1
    assert actions > 2  # tokens were placed one by one
    assert [m.to for m in mail.outbox] == [[waiting.email]]
    assert Seat.objects.get(game=game, user=waiting).notified_turn == first_turn + 1


def test_the_email_says_who_moved_what_they_did_and_links_to_the_game(
    game, django_capture_on_commit_callbacks
):
    mover = user_to_move(game)
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    (message,) = mail.outbox
    game.refresh_from_db()
    assert message.subject == f"{mover.public_name} has played: your turn in {game.title}"
    link = settings.SITE_URL + game.get_absolute_url()
    html = message.alternatives[0][0]
    assert message.alternatives[0][1] == "text/html"
    sentences = [describe(m.action, m.detail, mover.public_name) for m in game.moves.all()]
    assert sentences[-1] == f"{mover.public_name} ended the turn."
    for sentence in sentences:
        assert sentence in message.body
    assert link in message.body and f'href="{link}"' in html
    assert 'name="viewport"' in html  # laid out for phones


def test_a_player_who_looks_and_leaves_without_acting_gets_one_email_after_the_grace(
    game, django_capture_on_commit_callbacks
):
    waiting = waiting_player(game)
    presence.mark_present(game.pk, waiting.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_turns(game, turns=1)
    assert mail.outbox == []  # still watching: held back, not dropped
    with time_machine.travel(timezone.now() + timedelta(seconds=90)):
        tasks.sweep_missed_turns()
    assert mail.outbox == []  # left, but the grace has not passed
    with time_machine.travel(timezone.now() + presence.GRACE + timedelta(seconds=30)):
        tasks.sweep_missed_turns()
        tasks.sweep_missed_turns()
    assert [m.to for m in turn_emails()] == [[waiting.email]]
    with time_machine.travel(timezone.now() + timedelta(minutes=30)):
        tasks.sweep_missed_turns()
    assert len(turn_emails()) == 1


def test_a_player_still_watching_is_not_emailed_until_their_page_stops_polling(
    game, django_capture_on_commit_callbacks
):
    waiting = waiting_player(game)
    presence.mark_present(game.pk, waiting.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_turns(game, turns=1)
    start = timezone.now()
    for minutes in (2, 4, 6):  # the page keeps polling
        with time_machine.travel(start + timedelta(minutes=minutes, seconds=5)):
            presence.mark_present(game.pk, waiting.pk)
            tasks.sweep_missed_turns()
    assert mail.outbox == []
    with time_machine.travel(start + timedelta(minutes=6, seconds=5) + presence.GRACE):
        tasks.sweep_missed_turns()
    assert [m.to for m in turn_emails()] == [[waiting.email]]


def test_a_player_who_acts_while_watching_gets_no_email_for_that_turn(
    game, django_capture_on_commit_callbacks
):
    waiting = waiting_player(game)
    presence.mark_present(game.pk, waiting.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_turns(game, turns=1)
    presence.mark_present(game.pk, waiting.pk)
    game = play_turns(game, turns=1)  # the watcher plays their turn (no email for the next one)
    with time_machine.travel(timezone.now() + timedelta(minutes=10)):
        tasks.sweep_missed_turns()
    assert all(m.to != [waiting.email] for m in turn_emails())


def test_playing_counts_as_looking(game, client):
    mover = user_to_move(game)
    client.force_login(mover)
    rng = random.Random(3)
    state = game.engine_state()
    from games import engine

    action = rng.choice(
        [a for a in engine.legal_actions(state) if not isinstance(a, engine.EndTurn)]
    ).to_json()
    client.post(reverse("games:act", args=[game.pk]), {**action, "version": game.version})
    assert presence.is_looking(game.pk, mover.pk)


def test_running_the_task_twice_sends_one_email(game):
    game = play_turns(game, turns=1)  # on-commit callbacks do not run: no task was queued
    turn = game.engine_state().turn
    assert tasks.notify_turn(game.pk, turn) is True
    assert tasks.notify_turn(game.pk, turn) is False
    assert len(mail.outbox) == 1


def test_a_late_task_for_a_turn_already_played_sends_nothing(game):
    game = play_turns(game, turns=1)
    stale = game.engine_state().turn
    game = play_turns(game, turns=1)
    assert tasks.notify_turn(game.pk, stale) is False
    assert mail.outbox == []


def test_bots_never_get_email(player):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
    )  # callbacks do not run, so the bot does not play by itself here
    game.refresh_from_db()
    if not user_to_move(game).is_bot:
        game = play_turns(game, turns=1)
    bot_seat = game.seats.get(user__bot_level="easy")
    assert game.current_seat == bot_seat.position
    assert tasks.notify_turn(game.pk, game.engine_state().turn) is False
    assert mail.outbox == []
    bot_seat.refresh_from_db()
    assert (bot_seat.notified_turn, bot_seat.remind_at) == (None, None)


def test_a_game_against_a_bot_emails_the_human_after_the_bots_turn(
    player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
        )
        play_turns(game, turns=2)
    assert {m.to[0] for m in mail.outbox} <= {player.email}
    assert "(easy bot) has played" in turn_emails()[-1].subject


def test_a_solo_game_sends_no_turn_email(player, django_capture_on_commit_callbacks):
    game = services.create_game(creator=player, players=1, side="A", spirits=False)
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=2)
    assert mail.outbox == []


def test_a_player_who_switched_turn_emails_off_gets_none(game, django_capture_on_commit_callbacks):
    waiting = waiting_player(game)
    waiting.email_turn = False
    waiting.save()
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    assert mail.outbox == []


def test_a_failing_mail_server_is_retried_and_the_email_sent_once(game, monkeypatch):
    game = play_turns(game, turns=1)
    real, attempts = emails.turn, []

    def flaky(user, ctx):
        attempts.append(user)
        if len(attempts) == 1:
            raise SMTPServerDisconnected("the mail server went away")
        real(user, ctx)

    monkeypatch.setattr(emails, "turn", flaky)
    # apply() runs the task and its retries in-process, without the backoff delays.
    tasks.notify_turn.apply(args=(game.pk, game.engine_state().turn), throw=False)
    assert len(attempts) == 2
    assert len(mail.outbox) == 1


# --- The broker is down ---------------------------------------------------------------------------


def test_a_move_is_accepted_with_the_broker_down_and_the_sweep_sends_the_email_later(
    client, game, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    mover, waiting, rng = user_to_move(game), waiting_player(game), random.Random(2)
    state = game.engine_state()
    while not (state.taken_space is not None and not state.hand):
        play_one_action(game, rng)  # everything but the end of the turn
        state = game.engine_state()

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    client.force_login(mover)
    with monkeypatch.context() as patch:
        patch.setattr(tasks.notify_turn, "apply_async", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                reverse("games:act", args=[game.pk]),
                {"type": "end_turn", "version": game.version},
            )
    assert response.status_code == 302
    assert "could not queue games.notify_turn" in caplog.text
    assert user_to_move(game) == waiting
    assert mail.outbox == []

    tasks.sweep_missed_turns()
    assert mail.outbox == []  # not yet: the task may still be on its way
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        assert tasks.sweep_missed_turns() == 1
        assert tasks.sweep_missed_turns() == 0
    assert [m.to for m in mail.outbox] == [[waiting.email]]


def test_an_email_claimed_by_a_worker_that_died_is_sent_by_the_sweep(game, monkeypatch):
    mover, waiting, rng = user_to_move(game), waiting_player(game), random.Random(3)
    monkeypatch.setattr(tasks.notify_turn, "apply_async", lambda *a, **k: None)  # queued, lost
    while user_to_move(game) == mover:
        play_one_action(game, rng)
    turn = game.engine_state().turn
    # A worker claimed the email, then was killed before sending it (no exception ever ran).
    Seat.objects.filter(game=game, user=waiting).update(
        notified_turn=turn, turn_email_claimed_at=timezone.now()
    )
    monkeypatch.undo()
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        assert tasks.sweep_missed_turns() == 0  # the claim is recent: maybe still sending
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        assert tasks.sweep_missed_turns() == 1
        assert tasks.sweep_missed_turns() == 0
    assert [m.to for m in turn_emails()] == [[waiting.email]]
    assert Seat.objects.get(game=game, user=waiting).turn_email_claimed_at is None


def test_the_missed_turn_sweep_catches_up_the_first_turn_email_once(game):
    # The "game has started" email can be held back (the player who started it is on its page)
    # or lost with the broker like any other: the sweep sends it, once.
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        assert tasks.sweep_missed_turns() == 1
        assert tasks.sweep_missed_turns() == 0
    (message,) = mail.outbox
    assert message.to == [user_to_move(game).email]
    assert "have started: you play first" in message.subject  # named after its two players


# --- Game over ------------------------------------------------------------------------------------


def game_over_emails():
    return [m for m in mail.outbox if " is over" in m.subject]


def test_every_player_gets_the_final_scores_once(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(game, seed=5)
    game.refresh_from_db()
    assert game.finalized_at is not None
    sent = game_over_emails()
    seats = {s.user.email: s for s in game.seats.select_related("user")}
    assert sorted(m.to[0] for m in sent) == sorted(seats)
    for message in sent:
        seat = seats[message.to[0]]
        assert f"with {seat.final_score} points" in message.subject
        for other in seats.values():
            assert f"{other.user.public_name}: {other.final_score} points" in message.body
        # The score sheet itself, not an anchor on the game page.
        sheet = settings.SITE_URL + reverse("records:sheet", args=[game.pk])
        assert sheet in message.body and sheet in message.alternatives[0][0]
    assert tasks.notify_game_over(game.pk) == 0
    assert len(game_over_emails()) == 2


def test_bots_get_no_game_over_email(player, django_capture_on_commit_callbacks):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, bots=bots_for(["medium"])
    )
    game = play_to_the_end(game, seed=1)  # the bot's turns played through services too
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.finalize_game(game.pk) is True
    assert [m.to for m in game_over_emails()] == [[player.email]]


def test_a_game_finished_with_the_broker_down_is_finalized_and_announced_by_the_sweep(game):
    game = play_to_the_end(game, seed=7)  # finalize was never queued
    game.refresh_from_db()
    assert (game.status, game.finalized_at) == (Game.Status.FINISHED, None)
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        call_command("run_sweeps", stdout=io.StringIO())
        tasks.sweep_finished_games()
    game.refresh_from_db()
    assert game.finalized_at is not None
    assert len(game_over_emails()) == 2


def test_the_sweep_resends_a_game_over_email_whose_task_was_lost(game):
    game = play_to_the_end(game, seed=7)
    assert services.finalize(game.pk) is True  # finalized, but notify_game_over never queued
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        tasks.sweep_finished_games()
        tasks.sweep_finished_games()
    assert len(game_over_emails()) == 2


def test_the_first_player_hears_that_the_game_has_started(
    player, other_player, django_capture_on_commit_callbacks
):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player]
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game_id=game.pk, user=other_player)
    first = user_to_move(game)
    if first == other_player:
        # Their own join started the game and took them to its page: told only if they leave.
        assert not [m for m in mail.outbox if "play first" in m.subject]
        with time_machine.travel(timezone.now() + presence.GRACE + timedelta(minutes=1)):
            tasks.sweep_missed_turns()
    # The creator also hears that the table is full (tests/games/services/test_invitations.py).
    (message,) = [m for m in mail.outbox if "play first" in m.subject]
    assert message.to == [first.email]
    game.refresh_from_db()
    assert message.subject == f"{game.title} have started: you play first"
    assert "you play first" in message.body


def test_the_creator_of_a_bot_game_is_not_emailed_while_on_its_page(
    player, client, django_capture_on_commit_callbacks
):
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("games:new"), {"players": 2, "side": "A", "seat_2": "easy"})
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    client.get(response.url)  # the redirect: the page then polls
    assert user_to_move(game) == player  # the bot played first, or the creator plays first
    assert mail.outbox == []
    with time_machine.travel(timezone.now() + presence.GRACE + timedelta(minutes=1)):
        tasks.sweep_missed_turns()  # the creator left without playing: now they are told
    # "your turn" after the bot's, or "the game has started" when the creator plays first
    assert [m.to for m in mail.outbox] == [[player.email]]


def test_a_stand_in_turn_is_announced_as_such(
    player, other_player, stranger, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, stranger)
    # The player after the one to move resigns: the stand-in plays their turns from now on.
    first, after = (game.seats.get(position=(game.current_seat + i) % 3).user for i in (0, 1))
    services.resign(game_id=game.pk, user=after)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_turns(game, turns=1)  # ends a turn: the resigned seat's turn is due
        tasks.play_automatic_turn(game.pk, game.engine_state().turn)
    subjects = [m.subject for m in turn_emails()]
    told = f"{first.public_name} played, a stand-in played for {after.public_name}"
    assert f"{told}: your turn in {game.title}" in subjects
    assert not any(f"{after.public_name} has played" in s for s in subjects)
