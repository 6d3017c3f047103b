import pytest
from django.contrib.auth.backends import ModelBackend
from django.test import Client
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


# --- A shared address (a proxy, an office) ------------------------------------------------------
# With TRUSTED_PROXY_COUNT = 0 behind a proxy, every visitor connects from the proxy's address.

PROXY = "10.0.0.1"


def log_in_via_proxy(visitor: str, username: str, password: str):
    """One visitor's log-in through the proxy: their own address is only in X-Forwarded-For."""
    client = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=visitor)
    return client.post(reverse("login"), {"username": username, "password": password})


def spray_wrong_passwords(settings, attacker: str = "6.6.6.6") -> list[int]:
    limit = settings.AXES_ADDRESS_FAILURE_LIMIT
    return [log_in_via_proxy(attacker, f"victim{n}", "password1").status_code for n in range(limit)]


def test_a_stranger_spraying_wrong_passwords_cannot_lock_out_everyone_behind_the_proxy(
    player, settings
):
    # 20 failed log-ins from one address refused every account's right password from there for
    # 15 minutes: behind a proxy, the whole site.
    assert settings.TRUSTED_PROXY_COUNT == 0
    assert spray_wrong_passwords(settings)[-1] == 429
    response = log_in_via_proxy("1.2.3.4", "alice", PASSWORD)
    assert response.status_code == 302
    assert response.client.session["_auth_user_id"] == str(player.pk)


def test_a_sprayer_is_refused_further_wrong_passwords_and_told_the_right_one_works(
    player, settings
):
    spray_wrong_passwords(settings)
    for username in ("victim99", "alice"):
        response = log_in_via_proxy("6.6.6.6", username, "password2")
        assert response.status_code == 429
        assert b"Too many failed log-ins" in response.content
        assert b"Your own password still works" in response.content
        assert "_auth_user_id" not in response.client.session


def test_behind_a_throttled_address_an_account_is_still_locked_after_its_own_failures(
    player, settings
):
    spray_wrong_passwords(settings)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in_via_proxy("6.6.6.6", "alice", "password2")
    locked = log_in_via_proxy("1.2.3.4", "alice", PASSWORD)
    assert locked.status_code == 429 and b"paused for 15 minutes" in locked.content
    assert "_auth_user_id" not in locked.client.session


def test_a_throttled_address_checks_each_password_once_like_any_log_in(
    player, settings, monkeypatch
):
    # The throttle must look at the password to let the right one in: one hash per try, as a
    # successful log-in costs. (A locked account is refused before any: test_accounts_abuse.)
    spray_wrong_passwords(settings)
    calls = []
    authenticate = ModelBackend.authenticate

    def counting(self, *args, **kwargs):
        calls.append(1)
        return authenticate(self, *args, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    assert log_in_via_proxy("6.6.6.6", "victim99", "password2").status_code == 429
    assert log_in_via_proxy("1.2.3.4", "alice", PASSWORD).status_code == 302
    assert len(calls) == 2
