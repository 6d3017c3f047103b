"""Every email of a game's life, and of an account's, read in French and in German.

Amélie reads French and Dieter German. They meet at a table, play it to the end, get their
digests, and each email they receive must be in their own language (never the sender's) with
none of the English words of tests/english.py. An invitation to an address without an account
speaks the inviter's language. The account emails (sign-up confirmation, password reset) follow
the language of the page that asked for them, then the account's.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import services, tasks
from games.mail.digest import send_digest
from tests.english import english_in, visible_text
from tests.factories import UserFactory
from tests.games.helpers import play_to_the_end, play_turns

# Issue 37 is open: the game emails' templates (turn, reminder, digest, game over, invitation,
# table started and cancelled, timeout) and the password reset are not marked yet. Each test here
# is expected to fail until they are; then take its mark off so that it stays translated.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.xfail(reason="issue 37: the game emails are not marked yet", strict=False),
]


def read(message) -> str:
    html = next((body for body, kind in message.alternatives if kind == "text/html"), "")
    return "\n".join([message.subject, message.body, visible_text(html)])


def assert_no_english(messages) -> None:
    found = []
    for message in messages:
        english = english_in(read(message))
        if english:
            found.append(f"to {message.to} «{message.subject}»: " + "; ".join(english[:6]))
    assert not found, "\n".join(found)


def test_a_whole_game_mails_each_player_in_their_own_language(
    django_capture_on_commit_callbacks,
):
    amelie = UserFactory(username="amelie", display_name="Amélie", language="fr")
    dieter = UserFactory(username="dieter", display_name="Dieter", language="de")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            creator=amelie, players=2, side="A", spirits=True, invitees=[dieter]
        )
        services.join_game(game_id=game.pk, user=dieter)
    game.refresh_from_db()
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        tasks.sweep_missed_turns()
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=4)
    send_digest(amelie.pk, timezone.localdate())
    send_digest(dieter.pk, timezone.localdate())
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game)
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        tasks.sweep_missed_turns()

    to_amelie = [m for m in mail.outbox if m.to == [amelie.email]]
    to_dieter = [m for m in mail.outbox if m.to == [dieter.email]]
    assert len(to_amelie) >= 3 and len(to_dieter) >= 3, [m.subject for m in mail.outbox]
    assert_no_english(mail.outbox)


def test_an_invitation_to_an_address_speaks_the_inviters_language_and_offers_the_others(
    django_capture_on_commit_callbacks,
):
    dieter = UserFactory(username="dieter", display_name="Dieter", language="de")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.create_game(
            creator=dieter, players=2, side="B", spirits=False, emails=["friend@example.com"]
        )
    (message,) = mail.outbox
    assert_no_english([message])
    html = next(body for body, kind in message.alternatives if kind == "text/html")
    for code in ("en-gb", "fr", "de"):
        assert f"lang={code}" in message.body and f"lang={code}" in html


@pytest.mark.parametrize("language", ["fr", "de"])
def test_sign_up_and_password_reset_emails_are_in_the_readers_language(language):
    visitor = Client(headers={"accept-language": language})
    mail.outbox.clear()
    visitor.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "display_name": "Newcomer",
            "email": "newcomer@example.com",
            "time_zone": "Europe/Paris",
            "password1": "mountains-and-rivers-42",
            "password2": "mountains-and-rivers-42",
        },
    )
    assert mail.outbox, "the sign-up sent its confirmation"
    Client(headers={"accept-language": "en"}).post(
        "/accounts/password/reset/", {"email": "newcomer@example.com"}
    )
    assert len(mail.outbox) >= 2
    assert_no_english(mail.outbox)
