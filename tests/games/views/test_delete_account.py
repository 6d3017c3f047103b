"""Delete my account, through HTTP as a player (or someone at their keyboard) would: the password
is asked, every device is logged out, the name stays out of reach, the others' pages still work."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import DELETED_NAME, User
from games.models import Game
from games.services import closing
from tests.clients import as_user
from tests.factories import PASSWORD, UserFactory
from tests.games.helpers import play_to_the_end, start_game

pytestmark = pytest.mark.django_db

DELETE = reverse("delete_account")
NEWCOMER = {
    "display_name": "Someone New",
    "email": "new@example.com",
    "time_zone": "UTC",
    "password1": "a-long-and-lovely-passphrase",
    "password2": "a-long-and-lovely-passphrase",
}


def delete(client: Client, password: str = PASSWORD, **extra):
    return client.post(DELETE, {"password": password}, **extra)


def logs_in(username: str, password: str = PASSWORD) -> bool:
    client = Client()
    client.post(reverse("login"), {"username": username, "password": password})
    return client.get(reverse("profile")).status_code == 200


def test_the_profile_offers_the_deletion_and_its_page_asks_for_the_password(player):
    client = as_user(player)
    assert DELETE in client.get(reverse("profile")).content.decode()
    response = client.get(DELETE)
    assert response.status_code == 200
    assert 'type="password"' in response.content.decode()


def test_a_get_deletes_nothing(player, other_player):
    game = start_game(player, other_player)
    as_user(player).get(DELETE, {"password": PASSWORD})
    assert User.objects.get(pk=player.pk).is_active
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_wrong_password_deletes_nothing_and_says_so(player, other_player):
    game = start_game(player, other_player)
    response = delete(as_user(player), "not-my-password")
    assert response.status_code == 400
    assert "That is not your password, so nothing was deleted" in response.content.decode()
    assert User.objects.get(pk=player.pk).is_active and logs_in("alice")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_an_empty_form_is_refused_with_its_reason(player):
    response = as_user(player).post(DELETE, {})
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    assert User.objects.get(pk=player.pk).is_active


def test_someone_at_an_open_session_cannot_guess_the_password_at_the_speed_of_the_site(
    player, settings
):
    settings.CURRENT_PASSWORD_FAILURE_RATE = "3/15m"
    client = as_user(player)
    for guess in ("123456", "password", "alice1"):
        delete(client, guess)
    response = delete(client, PASSWORD)  # even the right one, now
    assert response.status_code == 400
    assert "entered wrongly several times" in response.content.decode()
    assert User.objects.get(pk=player.pk).is_active


def test_a_forged_cross_site_post_is_refused(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert delete(client).status_code == 403
    assert User.objects.get(pk=player.pk).is_active


def test_the_right_password_deletes_and_logs_out_every_device(
    player, django_capture_on_commit_callbacks
):
    phone, laptop = as_user(player), Client()
    laptop.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert laptop.get(reverse("profile")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = delete(phone, follow=True)
    assert "Your account is deleted and you are logged out on every device" in (
        response.content.decode()
    )
    assert not response.context["user"].is_authenticated
    for device in (phone, laptop):
        assert device.get(reverse("profile")).status_code == 302  # to the log-in page
    assert not logs_in("alice") and not logs_in(f"deleted~{player.pk}")
    (confirmation,) = mail.outbox
    assert confirmation.to == ["alice@example.com"]


def test_a_double_click_deletes_once_and_says_so_the_second_time(player, monkeypatch):
    """The second POST was let in before the first committed: it waits at the row lock, then
    finds the account gone."""
    real = closing.close_account

    def first_request_committed_meanwhile(*, user):
        real(user=user)
        return real(user=user)

    monkeypatch.setattr("games.views.closing.close_account", first_request_committed_meanwhile)
    response = delete(as_user(player), follow=True)
    assert "This account is already deleted: there is nothing more to do" in (
        response.content.decode()
    )
    assert not response.context["user"].is_authenticated
    assert User.objects.filter(pk=player.pk, deleted_at__isnull=False).count() == 1


def test_a_page_left_open_on_another_device_is_told_that_nothing_more_happens(player):
    stale = Client()
    stale.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    delete(as_user(player))
    response = delete(stale, follow=True)
    assert "You are not logged in, so nothing was deleted" in response.content.decode()
    assert response.redirect_chain[-1][0].startswith(reverse("login"))


def test_a_newcomer_cannot_take_the_deleted_name_or_a_look_alike_until_it_is_let_go(
    player, settings
):
    delete(as_user(player))
    for name in ("alice", "ALICE", "\u0430lice"):  # the last with a Cyrillic a
        response = Client().post(reverse("signup"), {**NEWCOMER, "username": name})
        assert response.status_code == 200, name
        assert "Please choose another" in response.content.decode(), name
    assert not User.objects.filter(email="new@example.com").exists()
    later = timezone.now() + timedelta(days=settings.RETIRED_USERNAME_DAYS, minutes=1)
    with time_machine.travel(later):
        response = Client().post(reverse("signup"), {**NEWCOMER, "username": "alice"})
    assert response.status_code == 302
    assert User.objects.get(username="alice").email == "new@example.com"


def test_staff_cannot_rename_an_account_to_the_deleted_name(player, other_player):
    delete(as_user(player))
    staff = as_user(UserFactory(username="helper", is_staff=True, is_superuser=True))
    url = reverse("admin:accounts_user_change", args=[other_player.pk])
    form = staff.get(url).context["adminform"].form
    data = {
        name: value
        for name, value in {**form.initial, "username": "Alice"}.items()
        if value is not None and name not in ("password", "groups", "user_permissions")
    }
    data.update(
        date_joined_0="2026-01-01", date_joined_1="10:00:00", last_login_0="", last_login_1=""
    )
    response = staff.post(url, data)
    assert "That username is taken" in response.content.decode()
    assert User.objects.get(pk=other_player.pk).username == "bob"


def test_the_deleted_players_page_says_so_by_either_name(player, other_player):
    delete(as_user(player))
    bob = as_user(other_player)
    for name in ("alice", f"deleted~{player.pk}"):
        response = bob.get(reverse("records:player", args=[name]))
        assert response.status_code == 404
        assert DELETED_NAME in response.content.decode() and "Alice" not in (
            response.content.decode()
        )
    assert bob.get(reverse("records:player", args=["nobody-ever"])).status_code == 404


def test_the_other_players_history_sheet_and_replay_show_a_deleted_player(
    player, other_player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        finished = play_to_the_end(start_game(player, other_player))
    delete(as_user(player))
    bob = as_user(other_player)
    for url in (
        reverse("records:history"),
        reverse("records:sheet", args=[finished.pk]),
        reverse("records:replay", args=[finished.pk]),
        reverse("records:replay", args=[finished.pk]) + "?move=5",
        finished.get_absolute_url(),
        reverse("records:leaderboards"),
    ):
        response = bob.get(url)
        page = response.content.decode()
        assert response.status_code == 200, url
        assert "Alice" not in page, url
    assert DELETED_NAME in bob.get(reverse("records:sheet", args=[finished.pk])).content.decode()
