"""Email preferences in the profile, and the one-click unsubscribe link every email carries."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import unsubscribe
from accounts.models import User
from games.mail import send as emails
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def a_link(user: User, kind: str = "turn") -> str:
    return reverse("unsubscribe", args=[kind, unsubscribe.token_for(user, kind)])


def test_every_email_carries_one_click_unsubscribe_headers_and_a_preferences_link(player):
    # The link is signed with a timestamp: the email and the expected link in the same second.
    with time_machine.travel(timezone.now(), tick=False):
        emails.send("digest", player, {"games": [], "day": timezone.localdate()})
        url = unsubscribe.url_for(player, "digest")
    (message,) = mail.outbox
    assert message.extra_headers == {
        "List-Unsubscribe": f"<{url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    html = message.alternatives[0][0]
    for part in (message.body, html):
        assert url in part
        assert reverse("profile") + "#emails" in part


def test_opening_the_link_only_asks_for_confirmation(client, player):
    response = client.get(a_link(player))
    assert response.status_code == 200
    assert b"Stop \xe2\x80\x9cyour turn\xe2\x80\x9d emails?" in response.content
    assert b'<form method="post">' in response.content
    player.refresh_from_db()
    assert player.email_turn is True


@pytest.mark.parametrize(
    "kind, field",
    [
        ("turn", "email_turn"),
        ("reminder", "email_reminder"),
        ("digest", "email_digest"),
        ("game_over", "email_game_over"),
        ("invitation", "email_invitation"),
    ],
)
def test_a_post_to_the_link_switches_off_that_kind_only_without_login_or_csrf(player, kind, field):
    User.objects.filter(pk=player.pk).update(email_digest=True)
    client = Client(enforce_csrf_checks=True)  # mail clients have no session and no token
    response = client.post(a_link(player, kind), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert b"Unsubscribed" in response.content
    player.refresh_from_db()
    others = {
        "email_turn", "email_reminder", "email_digest", "email_game_over", "email_invitation"
    } - {field}  # fmt: skip
    assert getattr(player, field) is False
    assert all(getattr(player, other) is True for other in others)


def test_a_forged_link_does_nothing(client, player, stranger):
    token = unsubscribe.token_for(stranger, "turn")
    forged = token[:-3] + ("abc" if not token.endswith("abc") else "xyz")
    for url in (
        reverse("unsubscribe", args=["turn", forged]),
        reverse("unsubscribe", args=["turn", "not-a-token"]),
    ):
        assert client.post(url).status_code == 400
    stranger.refresh_from_db()
    assert stranger.email_turn is True


def test_a_link_for_one_kind_does_not_work_for_another(client, player):
    token = unsubscribe.token_for(player, "turn")
    assert client.post(reverse("unsubscribe", args=["reminder", token])).status_code == 400
    assert client.post(reverse("unsubscribe", args=["is_staff", token])).status_code == 400
    player.refresh_from_db()
    assert (player.email_turn, player.email_reminder) == (True, True)


def test_a_link_expires_after_sixty_days(client, player):
    url = a_link(player)
    with time_machine.travel(timezone.now() + timedelta(days=59)):
        assert client.get(url).status_code == 200
    with time_machine.travel(timezone.now() + timedelta(days=61)):
        response = client.post(url)
    assert response.status_code == 400
    assert b"older than 60 days" in response.content
    player.refresh_from_db()
    assert player.email_turn is True


def test_the_link_age_is_a_setting(client, player, settings):
    settings.UNSUBSCRIBE_LINK_MAX_AGE = timedelta(days=2)
    url = a_link(player)
    with time_machine.travel(timezone.now() + timedelta(days=3)):
        response = client.post(url)
    assert response.status_code == 400 and b"older than 2 days" in response.content
    player.refresh_from_db()
    assert player.email_turn is True


# --- Replayed links -----------------------------------------------------------------------------

PROFILE_CHOICES = {
    "email_turn": "on",
    "email_reminder": "on",
    "remind_every_hours": "24",
    "quiet_start": "22",
    "quiet_end": "7",
    "email_game_over": "on",
    "email_invitation": "on",
}


def choose_in_the_profile(player: User, **choices: str) -> None:
    client = Client()
    client.force_login(player)
    response = client.post(reverse("email_preferences"), {**PROFILE_CHOICES, **choices})
    assert response.status_code == 302


def test_a_stranger_cannot_replay_a_used_link_after_the_player_subscribes_again(player):
    url = a_link(player)
    stranger = Client(enforce_csrf_checks=True)  # holds a forwarded email, or the mail archive
    assert b"Unsubscribed" in stranger.post(url, {"List-Unsubscribe": "One-Click"}).content
    choose_in_the_profile(player)  # "your turn" emails back on
    response = stranger.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 400 and b"This link does not work" in response.content
    player.refresh_from_db()
    assert player.email_turn is True


def test_a_link_works_once(client, player):
    url = a_link(player)
    assert client.post(url).status_code == 200
    User.objects.filter(pk=player.pk).update(email_turn=True)  # by whatever means
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 400
        assert b"Each link works once" in response.content
    player.refresh_from_db()
    assert player.email_turn is True


def test_a_stranger_cannot_undo_a_later_choice_with_a_link_sent_before_it(player):
    url = a_link(player, "digest")  # sent while the digest was off
    choose_in_the_profile(player, email_digest="on")  # then switched on in the profile
    response = Client().post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 400
    player.refresh_from_db()
    assert player.email_digest is True


def test_prefetching_a_link_does_not_use_it_up_and_one_click_still_works(player):
    url = a_link(player)
    scanner = Client()
    for _ in range(3):  # mail scanners and link previews open every address in an email
        assert scanner.get(url).status_code == 200
    one_click = Client(enforce_csrf_checks=True)
    response = one_click.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and b"Unsubscribed" in response.content
    player.refresh_from_db()
    assert player.email_turn is False


def test_the_link_in_a_new_email_works_after_a_choice(player):
    choose_in_the_profile(player)
    player.refresh_from_db()
    assert Client().post(a_link(player)).status_code == 200


def test_a_link_from_before_link_versions_works_until_used(client, player):
    legacy = signing.dumps(player.pk, salt="accounts.unsubscribe.turn")
    url = reverse("unsubscribe", args=["turn", legacy])
    assert client.post(url).status_code == 200
    User.objects.filter(pk=player.pk).update(email_turn=True)
    assert client.post(url).status_code == 400
    player.refresh_from_db()
    assert player.email_turn is True


def test_the_profile_page_offers_the_email_preferences(client, player):
    client.force_login(player)
    html = client.get(reverse("profile")).content.decode()
    assert 'id="emails"' in html
    assert 'action="/accounts/profile/emails/"' in html
    assert "Quiet hours from" in html


def test_a_player_chooses_their_emails(client, player):
    client.force_login(player)
    response = client.post(
        reverse("email_preferences"),
        {
            "email_reminder": "on",
            "remind_every_hours": "48",
            "quiet_start": "23",
            "quiet_end": "8",
            "email_digest": "on",
        },
        follow=True,
    )
    assert b"Your email preferences are saved" in response.content
    player.refresh_from_db()
    assert (player.email_turn, player.email_reminder, player.email_digest) == (False, True, True)
    assert (player.remind_every_hours, player.quiet_start, player.quiet_end) == (48, 23, 8)
    assert player.email_game_over is False


def test_email_preferences_need_a_login_and_a_valid_choice(client, player):
    url = reverse("email_preferences")
    assert client.post(url, {"remind_every_hours": "12"}).status_code == 302
    client.force_login(player)
    response = client.post(url, {"remind_every_hours": "7", "quiet_start": "1", "quiet_end": "2"})
    assert b"Select a valid choice" in response.content
    player.refresh_from_db()
    assert player.remind_every_hours == 24


def test_bots_and_players_without_email_are_never_sent_any(player):
    bot = UserFactory(username="bot-easy-9", bot_level="easy")
    User.objects.filter(pk=player.pk).update(email="")
    player.refresh_from_db()
    assert not bot.wants_email("turn")
    assert not player.wants_email("turn")
