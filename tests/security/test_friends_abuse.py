"""Forged and odd requests to the friends and rematch pages: each is refused in words, changes
nothing, never errs, and nothing user-written comes back unescaped."""

import pytest
from django.urls import reverse

from accounts.models import Friendship
from games import services
from games.models import Game
from games.services import friends
from tests.answers import answered
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "data",
    [
        {"username": "b" * 10_000},
        {"username": "<script>alert(1)</script>"},
        {"username": ["bob", "carol"]},
        {},
        {"username": "bob", "next": "//evil.example/"},
        {"username": "bob", "next": "javascript:alert(1)"},
    ],
)
def test_forged_friend_requests_never_err_or_leave_the_site(player, other_player, data):
    response = as_user(player).post(reverse("records:friend_add"), data)
    assert answered(response) == 302
    assert response.url.startswith("/")
    assert not response.url.startswith("//")


@pytest.mark.parametrize("friend", ["", "-1", "1e9", "٣", "9" * 400, "<b>"])
def test_forged_removals_change_nothing(player, other_player, friend):
    start_game(player, other_player)
    response = as_user(player).post(reverse("records:friend_remove"), {"friend": friend})
    assert answered(response) == 302
    assert not Friendship.objects.exists()
    assert friends.is_friend(player, other_player)


def test_names_come_back_escaped_from_the_type_ahead_and_the_profile(player):
    villain = UserFactory(username="villain", display_name='<img src=x onerror="alert(1)">')
    friends.add_friend(user=player, name="villain")
    client = as_user(player)
    options = client.get(reverse("records:friend_suggest"), {"q": "vil"}).content.decode()
    page = client.get(reverse("records:player", args=[player.username])).content.decode()
    for body in (options, page):
        assert "<img src=x" not in body and "&lt;img src=x" in body
    assert villain.username in options


def test_play_again_on_a_game_that_is_not_over_or_not_ones_own_is_refused(
    player, other_player, stranger
):
    table = services.create_game(creator=player, players=2, side="A", spirits=False)
    active = start_game(player, other_player)
    client = as_user(player)
    for game_id, status in [(table.pk, 409), (active.pk, 409), (987654, 404)]:
        response = client.post(reverse("games:again", args=[game_id]))
        assert answered(response) == status
        assert "game" in response.content.decode()
    services.resign(game_id=active.pk, user=other_player)
    response = as_user(stranger).post(
        reverse("games:again", args=[active.pk]), HTTP_HX_REQUEST="true"
    )
    assert answered(response) == 403
    assert "Only the players of this game can play it again." in response.content.decode()
    assert not Game.objects.filter(rematch_of__isnull=False).exists()
