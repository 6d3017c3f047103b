import pytest
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_a_player_logs_in_with_their_username_in_any_case(client, player):
    response = client.post(reverse("login"), {"username": "ALICE", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200


def test_a_wrong_password_gets_a_clear_error_and_keeps_the_username(client, player):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert b'value="alice"' in response.content


def test_repeated_wrong_passwords_lock_the_account_from_that_address(client, player, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "alice", "password": "nope"})
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert b"Too many failed log-ins" in response.content
    assert client.get(reverse("profile")).status_code == 302


def test_logging_out_takes_a_post(client, player):
    client.force_login(player)
    assert client.get(reverse("logout")).status_code == 405
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302
