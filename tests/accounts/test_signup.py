import pytest
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
