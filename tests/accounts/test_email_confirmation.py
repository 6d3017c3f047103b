"""Sign-up sends a signed, expiring link; rated play needs it (issue 12.3)."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import emails
from accounts.models import User
from games.services.bots import bot_user
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GOOD = {
    "username": "newbie",
    "display_name": "New Bie",
    "email": "newbie@example.com",
    "time_zone": "UTC",
    "password1": "a-long-and-lovely-passphrase",
    "password2": "a-long-and-lovely-passphrase",
}


def confirm_path(message) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/confirm/\S+/)", message.body).group(1)


@pytest.fixture
def newbie(client, django_capture_on_commit_callbacks) -> User:
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("signup"), GOOD)
    return User.objects.get(username="newbie")


def test_sign_up_sends_a_link_and_the_new_player_plays_unrated_until_then(client, newbie):
    assert newbie.email_confirmed_at is None and not newbie.can_play_rated
    [message] = mail.outbox
    assert message.to == ["newbie@example.com"]
    assert "Confirm your email address" in message.subject
    assert "/accounts/confirm/" in message.alternatives[0][0]
    page = client.get(reverse("home"), follow=True)
    assert b"Please confirm your email address" in page.content
    assert b"Send the link again" in page.content


def test_opening_the_link_only_shows_a_button_and_confirms_nothing(client, newbie):
    # Mail scanners and link previews open links: a GET must change nothing.
    response = client.get(confirm_path(mail.outbox[0]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Confirm my address" in page and 'method="post"' in page
    assert "csrfmiddlewaretoken" in page
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


def test_the_button_confirms_the_address_and_the_banner_goes(client, newbie):
    response = client.post(confirm_path(mail.outbox[0]))
    assert response.status_code == 200 and b"Email address confirmed" in response.content
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is not None and newbie.can_play_rated
    assert b"Please confirm your email address" not in client.get(reverse("profile")).content


def test_the_button_posts_with_a_csrf_token(newbie):
    strict = Client(enforce_csrf_checks=True)
    path = confirm_path(mail.outbox[0])
    assert strict.post(path).status_code == 403
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', strict.get(path).text)[1]
    assert strict.post(path, {"csrfmiddlewaretoken": token}).status_code == 200
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is not None


def test_the_link_works_without_logging_in(client, newbie):
    client.logout()
    assert client.post(confirm_path(mail.outbox[0])).status_code == 200
    newbie.refresh_from_db()
    assert newbie.can_play_rated


def test_a_link_opened_again_after_confirming_says_so(client, newbie):
    path = confirm_path(mail.outbox[0])
    client.post(path)
    for response in (client.get(path), client.post(path)):
        assert response.status_code == 200 and b"Email address confirmed" in response.content


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_expired_link_is_refused_in_words(client, newbie, method):
    later = timezone.now() + timedelta(days=4)
    with time_machine.travel(later):
        response = getattr(client, method)(confirm_path(mail.outbox[0]))
    assert response.status_code == 400 and b"This link does not work" in response.content
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("token", ["forged", "eyJ1c2VyIjoxfQ:1abcde:xyz"])
def test_a_forged_link_is_refused_in_words(client, newbie, token, method):
    response = getattr(client, method)(reverse("confirm_email", args=[token]))
    assert response.status_code == 400 and b"This link does not work" in response.content
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_link_for_an_address_no_longer_used_is_refused(client, newbie, method):
    path = confirm_path(mail.outbox[0])
    User.objects.filter(pk=newbie.pk).update(email="other@example.com")
    assert getattr(client, method)(path).status_code == 400
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_address_another_account_confirmed_first_is_refused(client, newbie, method):
    path = confirm_path(mail.outbox[0])
    UserFactory(email="NEWBIE@example.com")  # confirmed, from before
    response = getattr(client, method)(path)
    assert response.status_code == 409 and b"already in use" in response.content
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


def test_an_address_confirmed_elsewhere_between_the_page_and_the_button_is_refused(client, newbie):
    path = confirm_path(mail.outbox[0])
    assert client.get(path).status_code == 200
    UserFactory(email="newbie@example.com")  # confirmed meanwhile by another account
    response = client.post(path)
    assert response.status_code == 409 and b"already in use" in response.content
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


def change_address(client: Client, user: User, address: str, callbacks) -> None:
    """Through the profile, as the player would (the new address is sent a link)."""
    form = {
        "display_name": user.display_name,
        "email": address,
        "time_zone": user.time_zone,
        "current_password": GOOD["password1"],
    }
    with callbacks(execute=True):
        assert client.post(reverse("profile"), form).status_code == 302


def token_of(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[1]


def next_check_sees(monkeypatch, account: User | None) -> None:
    """The next request's check of a link sees `account` as read earlier (a request racing
    another that writes between its check and its own write)."""
    real_check = emails.user_for_confirmation
    seen = [account]
    monkeypatch.setattr(
        emails, "user_for_confirmation", lambda token: seen.pop() if seen else real_check(token)
    )


@pytest.mark.parametrize("first_link_used", [True, False])
def test_an_old_link_does_not_confirm_the_address_taken_again(
    client, newbie, django_capture_on_commit_callbacks, first_link_used
):
    first = confirm_path(mail.outbox[0])
    if first_link_used:
        assert client.post(first).status_code == 200
    change_address(client, newbie, "elsewhere@example.com", django_capture_on_commit_callbacks)
    change_address(client, newbie, "newbie@example.com", django_capture_on_commit_callbacks)
    newbie.refresh_from_db()
    assert (newbie.email, newbie.email_confirmed_at) == ("newbie@example.com", None)

    stranger = Client()  # whoever kept the first email: it proved the address then, not now
    for method in (stranger.get, stranger.post):
        response = method(first)
        assert response.status_code == 400 and b"This link does not work" in response.content
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None

    latest = confirm_path(mail.outbox[-1])
    assert mail.outbox[-1].to == ["newbie@example.com"]
    assert client.post(latest).status_code == 200
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is not None


def test_a_link_for_the_address_before_the_last_change_is_refused(
    client, newbie, django_capture_on_commit_callbacks
):
    change_address(client, newbie, "elsewhere@example.com", django_capture_on_commit_callbacks)
    between = confirm_path(mail.outbox[-1])
    change_address(client, newbie, "third@example.com", django_capture_on_commit_callbacks)
    change_address(client, newbie, "elsewhere@example.com", django_capture_on_commit_callbacks)
    assert client.post(between).status_code == 400
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


def test_an_address_changed_while_the_button_is_pressed_is_not_confirmed(
    client, newbie, monkeypatch
):
    """The change lands between the link's check and the write: the write must not follow it."""
    path = confirm_path(mail.outbox[0])
    next_check_sees(monkeypatch, emails.user_for_confirmation(token_of(path)))
    User.objects.filter(pk=newbie.pk).update(email="elsewhere@example.com", email_version=1)
    response = client.post(path)
    assert response.status_code == 400
    newbie.refresh_from_db()
    assert newbie.email_confirmed_at is None


def test_a_double_click_on_the_button_says_confirmed_twice(client, newbie, monkeypatch):
    """The first click's write lands between the second click's check and its write."""
    path = confirm_path(mail.outbox[0])
    unconfirmed = emails.user_for_confirmation(token_of(path))  # as the second click saw it
    assert client.post(path).status_code == 200  # the first click
    next_check_sees(monkeypatch, unconfirmed)
    response = client.post(path)
    assert response.status_code == 200 and b"Email address confirmed" in response.content


def test_the_link_can_be_sent_again_a_few_times_an_hour(
    client, newbie, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_CONFIRMATION_RESEND_RATE = "2/h"
    with django_capture_on_commit_callbacks(execute=True):
        answers = [client.post(reverse("resend_confirmation"), follow=True) for _ in range(3)]
    assert [b"We sent a new link" in a.content for a in answers] == [True, True, False]
    assert b"Please try again in an hour" in answers[2].content
    assert len(mail.outbox) == 3  # the sign-up's and two more
    assert client.post(confirm_path(mail.outbox[-1])).status_code == 200


def test_sending_again_needs_a_login_and_a_post(client, newbie):
    assert client.get(reverse("resend_confirmation")).status_code == 405
    client.logout()
    response = client.post(reverse("resend_confirmation"))
    assert response.status_code == 302 and reverse("login") in response.url


def test_only_confirmed_active_humans_play_rated(db):
    assert UserFactory().can_play_rated
    assert not UserFactory(email_confirmed_at=None).can_play_rated
    assert not UserFactory(is_active=False).can_play_rated
    assert not bot_user("hard", 0).can_play_rated


def test_a_token_names_the_player_and_the_address(db):
    player = UserFactory(email_confirmed_at=None)
    assert emails.user_for_confirmation(emails.confirmation_token(player)) == player
    bot = bot_user("easy", 0)
    assert emails.user_for_confirmation(emails.confirmation_token(bot)) is None
