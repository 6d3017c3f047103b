from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.clients import as_user
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_the_profile_needs_a_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_player_edits_their_profile(client, player):
    client.force_login(player)
    response = client.post(
        reverse("profile"),
        {
            "display_name": "Alice L.",
            "email": "alice@new.example",
            "time_zone": "Asia/Tokyo",
            "current_password": PASSWORD,
        },
        follow=True,
    )
    player.refresh_from_db()
    assert (player.display_name, player.email, player.time_zone) == (
        "Alice L.",
        "alice@new.example",
        "Asia/Tokyo",
    )
    assert b"Your profile is saved" in response.content


def test_a_player_cannot_take_another_players_email(client, player):
    UserFactory(email="taken@example.com")
    client.force_login(player)
    response = client.post(
        reverse("profile"),
        {"display_name": "Alice", "email": "TAKEN@example.com", "time_zone": "UTC"},
    )
    assert b"Another account already uses this email" in response.content
    player.refresh_from_db()
    assert player.email == "alice@example.com"


def test_an_unknown_time_zone_is_refused(client, player):
    client.force_login(player)
    form = {"display_name": "A", "email": "a@example.com", "time_zone": "Mars/Base"}
    response = client.post(reverse("profile"), form)
    assert b"Select a valid choice" in response.content


def test_a_player_changes_their_password(client, player):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "another-fine-passphrase",
            "new_password2": "another-fine-passphrase",
        },
    )
    assert response.url == reverse("password_change_done")
    player.refresh_from_db()
    assert player.check_password("another-fine-passphrase")


def test_a_wrong_old_password_changes_nothing(client, player):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": "x-y-z-w-1234", "new_password2": "x-y-z-w-1234"},
    )
    assert b"Your old password was entered incorrectly" in response.content
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


# --- Guessing the current password with a logged-in session -------------------------------------

WAIT = b"Your current password was entered wrongly several times"


def change_email(client, password: str):
    form = {"display_name": "Alice", "email": "thief@example.com", "time_zone": "UTC"}
    return client.post(reverse("profile"), {**form, "current_password": password})


def change_password(client, old_password: str):
    new = "a-thiefs-new-passphrase"
    form = {"old_password": old_password, "new_password1": new, "new_password2": new}
    return client.post(reverse("password_change"), form)


def test_a_stranger_with_a_players_session_cannot_keep_guessing_on_the_profile(player, settings):
    # The profile's current-password check had no limit of its own: a session left open was a
    # way to guess the password at the site's speed.
    assert settings.CURRENT_PASSWORD_FAILURE_RATE == "5/15m"
    stranger = as_user(player)
    for guess in range(5):
        response = change_email(stranger, f"guess-{guess}")
        assert b"Enter your current password" in response.content
    response = change_email(stranger, PASSWORD)  # the right one, but too late
    assert WAIT in response.content and b"please try again in 15 minutes" in response.content
    player.refresh_from_db()
    assert player.email == "alice@example.com" and player.email_confirmed_at is not None


def test_a_stranger_cannot_keep_guessing_on_the_password_change_either(player):
    stranger = as_user(player)
    for guess in range(5):
        assert b"entered incorrectly" in change_password(stranger, f"guess-{guess}").content
    assert WAIT in change_password(stranger, PASSWORD).content
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_both_forms_count_against_one_limit(player):
    stranger = as_user(player)
    for guess in range(3):
        change_email(stranger, f"guess-{guess}")
    for guess in range(2):
        change_password(stranger, f"guess-{guess}")
    assert WAIT in change_email(stranger, PASSWORD).content
    assert WAIT in change_password(stranger, PASSWORD).content


def test_a_refused_guess_is_not_even_checked(player, monkeypatch):
    stranger = as_user(player)
    for guess in range(5):
        change_password(stranger, f"guess-{guess}")
    checked = []
    monkeypatch.setattr(User, "check_password", lambda user, raw: checked.append(raw))
    assert WAIT in change_password(stranger, PASSWORD).content
    assert checked == []


def test_right_passwords_use_nothing_up_and_the_limit_lifts(player, settings):
    settings.CURRENT_PASSWORD_FAILURE_RATE = "1/15m"
    client = as_user(player)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert change_password(client, PASSWORD).status_code == 302
        client.post(
            reverse("password_change"),
            {
                "old_password": "a-thiefs-new-passphrase",
                "new_password1": PASSWORD,
                "new_password2": PASSWORD,
            },
        )
        assert change_email(client, "wrong").status_code == 200
        assert WAIT in change_email(client, PASSWORD).content
    with time_machine.travel(start + timedelta(minutes=31), tick=False):
        assert change_email(client, PASSWORD).status_code == 302
    player.refresh_from_db()
    assert player.email == "thief@example.com"


def test_a_new_address_already_sent_several_emails_is_refused(player, settings):
    # A player could send confirmation links to any address by changing theirs back and forth.
    settings.CONFIRMATION_EMAIL_RATE = "1/h"
    client = as_user(player)
    assert change_email(client, PASSWORD).status_code == 302
    form = {"display_name": "Alice", "email": "alice@example.com", "time_zone": "UTC"}
    client.post(reverse("profile"), {**form, "current_password": PASSWORD})
    response = change_email(client, PASSWORD)
    assert response.status_code == 429
    assert b"Several emails were already sent to this address" in response.content
    player.refresh_from_db()
    assert player.email == "alice@example.com"
