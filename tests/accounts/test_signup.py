import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GOOD = {
    "username": "newbie",
    "display_name": "New Bie",
    "email": "Newbie@Example.com",
    "time_zone": "Europe/Paris",
    "password1": "a-long-and-lovely-passphrase",
    "password2": "a-long-and-lovely-passphrase",
}


def test_a_visitor_signs_up_and_is_logged_in(client):
    response = client.post(reverse("signup"), GOOD, follow=True)
    user = User.objects.get(username="newbie")
    assert user.email == "newbie@example.com"
    assert user.time_zone == "Europe/Paris"
    assert response.context["user"] == user
    assert b"Welcome, New Bie" in response.content


def test_a_registered_email_is_not_revealed_and_its_owner_is_told(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    UserFactory(email="newbie@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("signup"), GOOD, follow=True)
    # The same answer as for a new address: a stranger learns nothing about who is registered.
    assert b"Welcome, New Bie! Your account is ready. We sent you a link" in response.content
    newbie = User.objects.get(username="newbie")
    assert newbie.email_confirmed_at is None and not newbie.can_play_rated
    [notice] = mailoutbox
    assert notice.to == ["newbie@example.com"]
    assert "already uses" in notice.body and "/accounts/confirm/" not in notice.body


def test_a_duplicate_username_is_refused_whatever_its_case(client):
    UserFactory(username="NewBie")
    response = client.post(reverse("signup"), GOOD)
    assert b"That username is taken" in response.content
    assert User.objects.filter(bot_level="").count() == 1


def test_a_weak_password_is_refused_and_what_was_typed_is_kept(client):
    response = client.post(reverse("signup"), {**GOOD, "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert b"This password is too short" in response.content
    assert b'value="newbie"' in response.content
    assert b'value="New Bie"' in response.content
    assert not User.objects.filter(bot_level="").exists()


def test_mismatched_passwords_are_refused(client):
    response = client.post(reverse("signup"), {**GOOD, "password2": "something-else-entirely"})
    assert b"The two password fields" in response.content
    assert not User.objects.filter(bot_level="").exists()


def test_a_forged_signup_without_csrf_is_forbidden(db):
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post(reverse("signup"), GOOD)
    assert response.status_code == 403
    assert not User.objects.filter(bot_level="").exists()


def test_a_logged_in_player_is_sent_home_from_signup(client, player):
    client.force_login(player)
    assert client.get(reverse("signup")).url == reverse("home")


# --- Limits: sign-ups per client address, emails per typed address -----------------------------


def sign_up_from(address: str, n: int, email: str = "victim@example.com"):
    fields = {**GOOD, "username": f"newcomer{n}", "display_name": "", "email": email}
    return Client(REMOTE_ADDR=address).post(reverse("signup"), fields)


@pytest.mark.parametrize("registered", [False, True])
def test_a_stranger_cannot_flood_one_address_with_sign_up_emails(
    django_capture_on_commit_callbacks, settings, registered
):
    # Ten sign-ups typing one victim's address mailed it ten times in nine seconds, whether a
    # confirmation link or, for a registered address, the "already in use" notice.
    if registered:
        UserFactory(username="victim", email="victim@example.com")
    assert settings.CONFIRMATION_EMAIL_RATE == "3/h"
    with django_capture_on_commit_callbacks(execute=True):
        answers = [sign_up_from(f"203.0.113.{n}", n, "Victim@Example.com") for n in range(10)]
    assert [a.status_code for a in answers] == [302] * 3 + [429] * 7
    assert b"Several emails were already sent to this address recently" in answers[-1].content
    assert [m.to for m in mail.outbox] == [["victim@example.com"]] * 3
    assert User.objects.filter(username__startswith="newcomer").count() == 3


def test_respelling_one_mailbox_does_not_dodge_the_cap(django_capture_on_commit_callbacks):
    # "+tags" and Gmail's dots reach the same mailbox: counted apart, each spelling had 3 emails.
    spellings = [
        "victim@gmail.com",
        "victim+1@gmail.com",
        "v.ictim@gmail.com",
        "Victim+x@googlemail.com",
    ]
    with django_capture_on_commit_callbacks(execute=True):
        answers = [sign_up_from(f"203.0.113.{n}", n, spellings[n]) for n in range(4)]
    assert [a.status_code for a in answers] == [302] * 3 + [429]
    assert len(mail.outbox) == 3


def test_sign_ups_from_one_client_address_are_limited(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        answers = [sign_up_from("203.0.113.1", n, f"someone{n}@example.com") for n in range(6)]
    assert [a.status_code for a in answers] == [302] * 5 + [429]
    assert b"Several accounts were created from your network recently" in answers[-1].content
    assert b"try again in an hour" in answers[-1].content
    assert len(mail.outbox) == 5
    assert not User.objects.filter(username="newcomer5").exists()
    assert sign_up_from("203.0.113.2", 5, "someone5@example.com").status_code == 302


def test_mistakes_on_the_form_use_nothing_up(db):
    for _ in range(6):
        assert Client().post(reverse("signup"), {**GOOD, "password2": "oops"}).status_code == 200
    assert Client().post(reverse("signup"), GOOD).status_code == 302


def test_sign_ups_and_resends_share_the_cap_on_emails_to_one_address(
    django_capture_on_commit_callbacks, settings
):
    settings.EMAIL_CONFIRMATION_RESEND_RATE = "10/h"  # only the cap per address is left
    victim = Client()
    with django_capture_on_commit_callbacks(execute=True):
        victim.post(reverse("signup"), {**GOOD, "email": "victim@example.com"})
        sign_up_from("203.0.113.1", 1)  # a stranger types the victim's address twice
        sign_up_from("203.0.113.2", 2)
        response = victim.post(reverse("resend_confirmation"), follow=True)
    assert b"Several emails were already sent to this address recently" in response.content
    assert b"We sent a new link" not in response.content
    assert len(mail.outbox) == 3
