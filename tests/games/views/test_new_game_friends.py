"""The new-game form names a friend in each seat (type-ahead from one's friends, or typed)."""

import pytest
from django.urls import reverse

from games.models import Game, Invitation
from tests.clients import as_user
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db
URL = reverse("games:new")


def create(client, **fields):
    data = {"players": "3", "side": "A", "on_timeout": "stand_in", **fields}
    return client.post(URL, data)


def test_friends_named_in_the_seats_are_invited(player, other_player, carol):
    response = create(as_user(player), friend_2="bob", friend_3="carol@example.com")
    game = Game.objects.get(created_by=player, status=Game.Status.OPEN)
    assert response.url == game.get_absolute_url()
    assert {i.user.username for i in game.invitations.all()} == {"bob", "carol"}


def test_seat_names_and_the_invite_box_add_up(player, other_player, carol):
    create(as_user(player), friend_2="bob", invite="carol")
    assert Invitation.objects.count() == 2


def test_each_seat_box_offers_friends_by_htmx_and_works_as_a_plain_box(player):
    page = as_user(player).get(URL).content.decode()
    for n in (2, 3, 4):
        assert f'list="friend-options-{n}"' in page
        assert f'<datalist id="friend-options-{n}"></datalist>' in page
        assert f'hx-target="#friend-options-{n}"' in page
    assert 'hx-get="/friends/suggest/"' in page


@pytest.mark.parametrize(
    "fields, field, words",
    [
        ({"friend_2": "ghost"}, "friend_2", "No player is called ghost"),
        ({"friend_2": "alice"}, "friend_2", "no need to invite yourself"),
        ({"friend_2": "bob", "friend_3": "BOB"}, "friend_3", "bob is named twice"),
        ({"friend_2": "bob", "invite": "bob"}, "friend_2", "bob is named twice"),
        ({"friend_2": "bob carol"}, "friend_2", "One name for seat 2"),
        ({"friend_2": "bob", "seat_2": "easy"}, "friend_2", "Seat 2 has a computer opponent"),
        ({"friend_2": "x" * 300}, "friend_2", "at most 254 characters"),
    ],
)
def test_bad_seat_names_are_refused_on_their_seat(
    player, other_player, carol, fields, field, words
):
    response = create(as_user(player), **fields)
    assert response.status_code == 200
    assert words in " ".join(response.context["form"].errors[field])
    assert not Game.objects.exists()


def test_seats_beyond_the_table_size_are_ignored(player, other_player):
    create(as_user(player), players="2", friend_2="bob", friend_3="ghost", friend_4="alice")
    game = Game.objects.get()
    assert [i.user for i in game.invitations.all()] == [other_player]


def test_the_form_still_starts_a_game_with_a_bot_and_a_friend(player, other_player):
    start_game(player, other_player)
    create(as_user(player), seat_2="easy", friend_3="bob")
    game = Game.objects.filter(status=Game.Status.OPEN).get()
    assert game.seats.filter(user__bot_level="easy").exists()
    assert game.invitations.get().user == other_player
