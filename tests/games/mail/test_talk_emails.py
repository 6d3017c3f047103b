"""Table talk in emails: the "your turn" email and the daily digest carry what the player has not
read yet, escaped, never their own messages nor those of a game they muted."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from accounts.models import User
from games import tasks
from games.models import Game, Seat
from games.presenters.talk import Conversation
from games.services import talk
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db


def next_player(game: Game):
    mover = user_to_move(game)
    return game.seats.exclude(user=mover).get().user


def test_the_turn_email_carries_the_messages_the_player_has_not_read(
    game, django_capture_on_commit_callbacks
):
    mover, waiting = user_to_move(game), next_player(game)
    talk.post(game_id=game.pk, user=waiting, text="my own words")
    talk.post(game_id=game.pk, user=mover, text='Nice "river" <3 & https://example.org')
    gone = talk.post(game_id=game.pk, user=mover, text="deleted words")
    talk.delete(game_id=game.pk, message_id=gone.pk, user=mover)
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    (email,) = mail.outbox
    html = email.alternatives[0][0]
    assert "New in the table talk:" in email.body
    assert f'- {mover.public_name}: Nice "river" <3 & https://example.org' in email.body
    assert "Nice &quot;river&quot; &lt;3 &amp; https://example.org" in html
    assert "my own words" not in email.body and "deleted words" not in email.body


def test_read_or_muted_messages_stay_out_of_the_turn_email(
    game, django_capture_on_commit_callbacks
):
    mover, waiting = user_to_move(game), next_player(game)
    talk.post(game_id=game.pk, user=mover, text="already read")
    seat = Seat.objects.get(game=game, user=waiting)
    game.refresh_from_db()  # the page reads the game afresh, with its talk version
    conversation = Conversation(game, seat, waiting.pk)  # as their page draws it
    assert [m.text for m in conversation.messages] == ["already read"]
    conversation.mark_read()
    talk.set_muted(game_id=game.pk, user=waiting, muted=True)
    talk.post(game_id=game.pk, user=mover, text="while muted")
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    (email,) = mail.outbox
    assert "table talk" not in email.body
    assert "already read" not in email.body and "while muted" not in email.body


def test_an_email_without_talk_reads_as_before(game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=1)
    (email,) = mail.outbox
    assert "table talk" not in email.body
    assert "\n\n\n" not in email.body


def test_the_digest_carries_each_games_unread_messages(player, other_player, stranger):
    User.objects.filter(pk=player.pk).update(email_digest=True, time_zone="UTC")
    chatty = start_game(player, other_player)
    if user_to_move(chatty) != player:
        chatty = play_turns(chatty, turns=1)
    quiet = start_game(player, stranger)
    if user_to_move(quiet) != player:
        quiet = play_turns(quiet, turns=1)
    talk.post(game_id=chatty.pk, user=other_player, text="Your move, Alice!")
    mail.outbox.clear()
    with time_machine.travel(datetime(2027, 3, 1, 9, 0, tzinfo=UTC), tick=False):
        Game.objects.filter(pk__in=[chatty.pk, quiet.pk]).update(
            turn_started_at=datetime(2027, 3, 1, 7, 0, tzinfo=UTC) - timedelta(hours=1)
        )
        assert tasks.sweep_digests() == 1
    (digest,) = mail.outbox
    assert f"- {other_player.public_name}: Your move, Alice!" in digest.body
    assert digest.body.count("New in the table talk:") == 1
    assert "Your move, Alice!" in digest.alternatives[0][0]
