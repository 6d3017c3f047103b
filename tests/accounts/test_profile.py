import pytest
from django.urls import reverse

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
