"""Inviting an address tells the creator nothing about who owns it, replayed as a prober would.

A tester typed addresses into the invite box and read, on the page that followed, which had an
account and its display name. Now the creator sees the address as typed, with the same messages,
until the invitee takes the seat; the invitee with an account still gets the invitation, in the
site and by email, as before.

Personas: alice (player) creates the tables; bob (other_player) has an account behind
bob@example.com; nobody has one behind wanderer@example.org; mallory (stranger) sits at a table.
"""

import re

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from games.models import Game
from tests.clients import as_user

pytestmark = pytest.mark.django_db

BOBS = "bob@example.com"
NOBODYS = "wanderer@example.org"


def table(creator, players: int = 3, **kwargs) -> Game:
    return services.create_game(creator=creator, players=players, side="A", spirits=False, **kwargs)


def what_the_creator_sees(page: str, game: Game, address: str) -> str:
    """The card of the table page, with what differs between two tables anyway made equal."""
    card = page.split('<div class="card narrow"', 1)[1].split("</main>", 1)[0]
    card = card.replace(address, "ADDRESS").replace(game.title, "TITLE")
    card = card.replace(f"/games/{game.pk}/", "/games/ID/").replace(game.invite_token, "LINK")
    card = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", card)
    return re.sub(r"p=[^\"&]+", "p=PRESENCE", card)


def test_inviting_an_address_looks_the_same_whether_or_not_it_has_an_account(
    player, other_player, post
):
    pages = []
    for address in (BOBS, NOBODYS):
        game = table(player)
        invited = post(
            as_user(player),
            reverse("games:invite", args=[game.pk]),
            {"invite": address},
            follow=True,
        )
        page = invited.content.decode()
        assert f"Invited: {address}. They will get an email." in page
        assert f"{address} (invited)" in page
        pages.append(what_the_creator_sees(page, game, address))
    assert pages[0] == pages[1]
    assert "Bob" not in pages[0]


def test_the_new_game_form_shows_the_address_not_the_players_name(player, other_player, post):
    created = post(
        as_user(player),
        reverse("games:new"),
        {"players": 2, "side": "A", "friend_2": BOBS.upper()},
        follow=True,
    )
    page = created.content.decode()
    assert f"{BOBS} (invited)" in page
    assert "Bob" not in page


def test_the_invited_player_still_gets_the_invitation_in_the_site_and_by_email(
    player, other_player, post
):
    game = table(player)
    post(as_user(player), reverse("games:invite", args=[game.pk]), {"invite": BOBS})
    (message,) = mail.outbox
    assert message.to == [other_player.email]
    assert "/accounts/unsubscribe/invitation/" in message.body  # as a player, with preferences
    mine = as_user(other_player).get(reverse("games:mine")).content.decode()
    assert "Alice</strong> invites you to" in mine
    page = as_user(other_player).get(game.get_absolute_url()).content.decode()
    assert "Take a seat" in page and "You (invited)" in page


def test_once_the_invitee_takes_the_seat_the_table_names_them(player, other_player):
    game = table(player)
    services.invite(game_id=game.pk, by=player, emails=[BOBS])
    as_user(other_player).post(reverse("games:join", args=[game.pk]))
    page = as_user(player).get(game.get_absolute_url()).content.decode()
    assert "<li>Bob</li>" in page and BOBS not in page


def test_a_decline_tells_the_creator_the_address_not_the_name(player, other_player, post):
    game = table(player)
    services.invite(game_id=game.pk, by=player, emails=[BOBS])
    post(as_user(other_player), reverse("games:decline", args=[game.pk]))
    (told,) = [m for m in mail.outbox if m.to == [player.email]]
    assert told.subject.startswith(f"{BOBS} declined your invitation")
    assert "Bob" not in told.body
    page = as_user(player).get(game.get_absolute_url()).content.decode()
    assert f"{BOBS} declined the invitation" in page


def test_the_others_at_the_table_see_someone_invited_by_email(player, other_player, stranger):
    game = table(player, public=True)
    services.join_game(game_id=game.pk, user=stranger)
    services.invite(game_id=game.pk, by=player, emails=[BOBS])
    page = as_user(stranger).get(game.get_absolute_url()).content.decode()
    assert "Someone invited by email (invited)" in page and "Bob" not in page


@pytest.mark.parametrize("first, then", [("bob", BOBS), (BOBS, "bob")])
def test_a_name_and_an_address_never_say_whose_address_it_is(
    player, other_player, post, first, then
):
    """Either order, both are invitations like any other: a refusal would say whose it is."""
    game = table(player, players=4)
    client = as_user(player)
    for name in (first, then):
        response = post(client, reverse("games:invite", args=[game.pk]), {"invite": name})
        assert response.status_code == 302
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"{BOBS} (invited)" in page and "Bob (invited)" in page
    services.join_game(game_id=game.pk, user=other_player)
    assert not game.invitations.exists()  # his seat uses up both ways to him


def test_the_address_of_a_player_at_the_table_is_an_address_like_any_other(
    player, other_player, post
):
    game = table(player, public=True)
    services.join_game(game_id=game.pk, user=other_player)
    mail.outbox.clear()
    response = post(
        as_user(player), reverse("games:invite", args=[game.pk]), {"invite": BOBS}, follow=True
    )
    page = response.content.decode()
    assert f"Invited: {BOBS}." in page and f"{BOBS} (invited)" in page
    assert mail.outbox == []  # Bob sits here already: nothing to tell him
    post(as_user(player), reverse("games:cancel", args=[game.pk]))
    assert [m.to for m in mail.outbox] == [[other_player.email]]  # once, as the seated player


def test_the_invite_box_refuses_an_address_twice_in_the_same_words_either_way(player, other_player):
    answers = []
    for address in (BOBS, NOBODYS):
        game = table(player, players=4)
        services.invite(game_id=game.pk, by=player, emails=[address])
        again = as_user(player).post(reverse("games:invite", args=[game.pk]), {"invite": address})
        assert again.status_code == 400
        answers.append(re.search(r"errorlist[^>]*>\s*<li>([^<]*)", again.content.decode()).group(1))
    assert answers == [
        f"{BOBS} is already invited to this table.",
        f"{NOBODYS} is already invited to this table.",
    ]
