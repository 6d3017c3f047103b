""" "Play again" cannot flood a former opponent's mailbox, replayed click by click.

A tester clicked Play again and then Cancel the game fifteen times in five seconds: the former
opponent got nineteen emails, even after removing the offerer from their friends. Now each player
of a finished game is emailed an invitation to its rematch once, a rematch's cancellation is not
emailed to those invited, a player who removed the offerer is not invited at all, and each
player's clicks are rate-limited (REMATCH_OFFER_RATE).

Personas: alice (player) offers, bob (other_player) played her, carol played them both.
"""

from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from games.mail import tables as table_mail
from games.models import Game, Seat
from tests.clients import as_user
from tests.games.services.test_rematch import finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def offer_and_cancel(post):
    def offer_and_cancel(client, old: Game) -> int:
        """One round of the abuse: Play again, then cancel the table it opened; the offer's
        status."""
        offered = post(client, reverse("games:again", args=[old.pk]))
        rematch = Game.objects.filter(rematch_of=old).first()
        if offered.status_code == 302 and rematch is not None:
            post(client, reverse("games:cancel", args=[rematch.pk]))
        return offered.status_code

    return offer_and_cancel


def mail_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def test_offering_and_cancelling_fifteen_times_emails_the_opponent_once(
    player, other_player, offer_and_cancel
):
    old = finished(player, other_player)
    mail.outbox.clear()
    client = as_user(player)
    statuses = [offer_and_cancel(client, old) for _ in range(15)]
    assert statuses == [302] * 10 + [429] * 5  # the clicks past the rate are refused
    (invitation,) = mail_to(other_player)
    assert invitation.subject.startswith("Alice wants a rematch")
    assert Game.objects.filter(created_by=player, status=Game.Status.CANCELLED).count() == 10
    # Each offer still invited Bob in the site: the cancelled ones stay in his My games.
    assert other_player.invitations.count() == 10


def test_an_offer_made_again_after_a_cancel_is_in_the_site_but_not_emailed(
    player, other_player, offer_and_cancel, post
):
    old = finished(player, other_player)
    client = as_user(player)
    offer_and_cancel(client, old)
    assert len(mail_to(other_player)) == 1
    mail.outbox.clear()
    post(client, reverse("games:again", args=[old.pk]))
    rematch = Game.objects.get(rematch_of=old)
    assert mail_to(other_player) == []
    mine = as_user(other_player).get(reverse("games:mine")).content.decode()
    assert "Alice</strong> invites you to" in mine
    page = as_user(other_player).get(rematch.get_absolute_url())
    assert page.status_code == 200 and "Take a seat" in page.content.decode()


def test_the_other_player_offering_after_a_cancel_emails_only_who_was_not_emailed(
    player, other_player, carol, offer_and_cancel, post
):
    old = finished(player, other_player, carol)
    mail.outbox.clear()
    offer_and_cancel(as_user(player), old)  # Bob and Carol are emailed
    post(as_user(other_player), reverse("games:again", args=[old.pk]))  # Alice is emailed
    assert len(mail_to(other_player)) == len(mail_to(carol)) == len(mail_to(player)) == 1


def test_a_new_game_may_bring_a_new_rematch_email(player, other_player, post):
    first = finished(player, other_player)
    second = finished(player, other_player)
    mail.outbox.clear()
    post(as_user(player), reverse("games:again", args=[first.pk]))
    post(as_user(player), reverse("games:again", args=[second.pk]))
    assert len(mail_to(other_player)) == 2


def test_a_failed_send_gives_the_old_seat_back_for_the_retry(
    player, other_player, django_capture_on_commit_callbacks
):
    old = finished(player, other_player)
    failing = mock.patch.object(table_mail.emails, "send", side_effect=OSError("server down"))
    with failing, django_capture_on_commit_callbacks(execute=True):
        services.play_again(game_id=old.pk, user=player)  # the task fails, to be retried
    assert Seat.objects.get(game=old, user=other_player).rematch_emailed_at is None
    invitation = Game.objects.get(rematch_of=old).invitations.get()
    assert invitation.emailed_at is None
    assert table_mail.send_invitation(invitation.pk) is True
    assert table_mail.send_invitation(invitation.pk) is False
    assert len(mail_to(other_player)) == 1


def test_a_player_who_removed_the_offerer_is_neither_invited_nor_emailed(
    player, other_player, post
):
    old = finished(player, other_player)
    removed = as_user(other_player).post(reverse("records:friend_remove"), {"friend": player.pk})
    assert removed.status_code == 302
    mail.outbox.clear()
    offered = post(as_user(player), reverse("games:again", args=[old.pk]))
    assert offered.status_code == 302
    rematch = Game.objects.get(rematch_of=old)
    assert not rematch.invitations.exists()
    assert mail.outbox == []
    # Bob may still sit down at it himself, as any player of the old game may.
    assert "Join the rematch" in as_user(other_player).get(old.get_absolute_url()).content.decode()


def test_the_rate_limit_is_per_player_and_says_so_in_words(
    player, other_player, settings, offer_and_cancel
):
    settings.REMATCH_OFFER_RATE = "2/h"
    old = finished(player, other_player)
    client = as_user(player)
    assert [offer_and_cancel(client, old) for _ in range(2)] == [302, 302]
    games = Game.objects.count()
    refused = client.post(reverse("games:again", args=[old.pk]))
    assert refused.status_code == 429
    assert "many times in a short while: please wait a while" in refused.content.decode()
    assert Game.objects.count() == games  # the refused click made nothing
    fragment = client.post(reverse("games:again", args=[old.pk]), headers={"HX-Request": "true"})
    assert fragment["X-Refused-Status"] == "429" and b'role="alert"' in fragment.content
    # Bob's clicks are his own.
    joined = as_user(other_player).post(reverse("games:again", args=[old.pk]))
    assert joined.status_code == 302
