"""Invitations under forged or repeated input: a clear 4xx in words, never a 500 (issue 12.7)."""

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Invitation

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


# "bob bob@EXAMPLE.com" is no longer refused: a name and an address are never compared, since
# "Bob is named twice" told the creator whose address it is (tests/games/views/
# test_invited_address_privacy.py). Two spellings of one address still are.
@pytest.mark.parametrize("names", ["bob Bob", "bob,BOB", "bob@example.com BOB@EXAMPLE.com"])
def test_one_friend_under_two_spellings_is_a_message_not_a_500(player, other_player, names):
    client = logged_in(player)
    created = client.post(reverse("games:new"), {"players": 3, "side": "A", "invite": names})
    assert created.status_code == 200 and b"named twice" in created.content
    game = services.create_game(creator=player, players=3, side="A", spirits=False)
    invited = client.post(reverse("games:invite", args=[game.pk]), {"invite": names})
    assert invited.status_code == 400 and b"named twice" in invited.content
    assert not Invitation.objects.exists()


def test_the_same_player_twice_through_the_writer_is_refused(player, other_player):
    game = services.create_game(creator=player, players=3, side="A", spirits=False)
    with pytest.raises(services.GameError, match="named twice"):
        services.invite(game_id=game.pk, by=player, invitees=[other_player, other_player])
    with pytest.raises(services.GameError, match="named twice"):
        services.invite(game_id=game.pk, by=player, emails=["x@y.org", "X@Y.ORG"])
    assert not game.invitations.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"invite": ""},
        {"invite": "not-an-address@"},
        {"invite": "nobody-by-that-name"},
        {"invite": "a\x00b"},
        {"invite": "x" * 5000},
        {},
    ],
)
def test_junk_invitations_from_the_table_page_are_refused_in_words(player, data):
    game = services.create_game(creator=player, players=3, side="A", spirits=False)
    response = logged_in(player).post(reverse("games:invite", args=[game.pk]), data)
    assert response.status_code == 400
    # The form's own errors; a NUL is refused before any form sees it.
    assert b"errorlist" in response.content or b"cannot have" in response.content
    assert not game.invitations.exists()


@pytest.mark.parametrize("token", ["a\x00b", "x" * 3000, "1:2:3", "%00"])
def test_junk_invitation_links_are_refused_in_words(player, token):
    response = logged_in(player).get(f"/games/invited/{token}/")
    assert response.status_code in (400, 404)
    joined = logged_in(player).post(reverse("games:join", args=[1]), {"invitation": token})
    assert joined.status_code in (400, 404)
    assert not Game.objects.exists()
