"""Invitations by address follow the person, and only the person: an address invites the account
that has confirmed it; the invitation page says who invites and keeps the invitation through
sign-up, log-in and confirmation; the signed link still seats whoever holds it."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import emails
from accounts.models import User
from games import services
from games.models import Game
from games.models.social import invitation_token
from games.services import invitations
from tests.clients import as_user
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

ADDRESS = "bea@example.org"


def invite_by_address(creator) -> Game:
    game = services.create_game(
        creator=creator, players=2, side="A", spirits=False, emails=[ADDRESS], name="Sunday river"
    )
    return game


def link_of(game: Game) -> str:
    return reverse("games:invited", args=[invitation_token(game.invitations.get())])


def sign_up(client: Client, username: str, email: str = ADDRESS, next_url: str = ""):
    return client.post(
        reverse("signup"),
        {
            "username": username, "email": email, "time_zone": "UTC",
            "password1": PASSWORD, "password2": PASSWORD, "next": next_url,
        },
        follow=True,
    )  # fmt: skip


def confirm(client: Client, user: User):
    return client.post(reverse("confirm_email", args=[emails.confirmation_token(user)]))


@pytest.fixture
def squatter(db):
    """Signed up first with Bea's address, which they cannot confirm: it is not theirs."""
    return UserFactory(
        username="squat", display_name="Squat", email=ADDRESS, email_confirmed_at=None
    )


def test_an_address_nobody_confirmed_invites_no_account(player, squatter):
    game = invite_by_address(player)
    invitation = game.invitations.get()
    assert invitation.user is None and invitation.email == ADDRESS
    mine = as_user(squatter).get(reverse("games:mine")).content.decode()
    assert "Sunday river" not in mine
    refused = as_user(squatter).get(game.get_absolute_url())
    assert refused.status_code == 403


def test_the_owner_who_confirms_the_address_receives_the_invitation_and_the_squatter_nothing(
    player, squatter
):
    game = invite_by_address(player)
    owner_client = Client()
    sign_up(owner_client, "bea")  # the address is not yet confirmed by anyone: sign-up accepts it
    owner = User.objects.get(username="bea")
    assert game.invitations.get().user is None
    done = confirm(owner_client, owner)
    assert done.status_code == 200
    page = done.content.decode()
    assert "Email address confirmed" in page
    assert f"{player.public_name} invites you to Sunday river" in page  # the way on
    assert game.get_absolute_url() in page
    invitation = game.invitations.get()
    assert invitation.user == owner
    mine = owner_client.get(reverse("games:mine")).content.decode()
    assert "Sunday river" in mine
    table = owner_client.get(game.get_absolute_url())
    assert table.status_code == 200 and "Take a seat" in table.content.decode()
    assert "Sunday river" not in as_user(squatter).get(reverse("games:mine")).content.decode()
    # Invited again by the same address, the owner is invited as themselves.
    assert invitations.invitees_for(emails=[ADDRESS.upper()])[0].user == owner


def test_whoever_holds_the_signed_link_may_still_take_the_seat(player, squatter):
    game = invite_by_address(player)
    link = link_of(game)
    token = link.split("/")[-2]
    client = as_user(squatter)
    assert client.get(link).status_code == 200
    client.post(reverse("games:join", args=[game.pk]), {"invitation": token})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.filter(user=squatter).exists()


def test_the_link_tells_a_visitor_who_invites_to_what_and_offers_an_account_with_the_address(
    player, client
):
    game = invite_by_address(player)
    link = link_of(game)
    page = client.get(link).content.decode()
    assert f"{player.public_name} invites you to play Harmonies" in page
    assert "Sunday river" in page
    create = re.search(r'href="([^"]+)"[^>]*>Create an account to join<', page).group(1)
    create = create.replace("&amp;", "&")
    assert create.startswith(reverse("signup") + "?next=")
    signup = client.get(create).content.decode()
    assert f'value="{ADDRESS}"' in signup  # the address, filled in
    assert f'name="next" value="{link}"' in signup
    assert f"{player.public_name} invites you to <strong>Sunday river</strong>" in signup


def test_the_headers_sign_up_and_log_in_keep_the_invitation(player, client):
    game = invite_by_address(player)
    link = link_of(game)
    page = client.get(link).content.decode()
    header = page.split("</nav>", 1)[0]
    signup_href = re.search(r'href="([^"]*/accounts/signup/[^"]*)"', header).group(1)
    login_href = re.search(r'href="([^"]*/accounts/login/[^"]*)"', header).group(1)
    for href in (signup_href, login_href):
        target = client.get(href.replace("&amp;", "&")).content.decode()
        assert f'name="next" value="{link}"' in target
        assert "invites you to <strong>Sunday river</strong>" in target
    # From the log-in page, "Create an account" still carries the invitation and its address.
    login_page = client.get(login_href.replace("&amp;", "&")).content.decode()
    create = re.search(r'href="([^"]+)">Create an account<', login_page).group(1)
    assert "next=" in create and "email=" in create


def test_the_headers_sign_up_fills_in_the_invited_address_from_the_invitation_and_log_in(
    player, client
):
    game = invite_by_address(player)
    invitation = game.invitations.get()
    link = link_of(game)
    login_href = ""
    for page_url in (link, None):
        page = client.get(page_url or login_href).content.decode()
        header = page.split("</nav>", 1)[0]
        signup_href = re.search(r'href="([^"]*/accounts/signup/[^"]*)"', header).group(1)
        login_href = re.search(r'href="([^"]*/accounts/login/[^"]*)"', header).group(1)
        login_href = login_href.replace("&amp;", "&")
        signup_page = client.get(signup_href.replace("&amp;", "&")).content.decode()
        assert f'value="{invitation.email}"' in signup_page  # the address box is filled in


def test_the_header_on_the_sign_up_page_keeps_where_the_visitor_was_going(client):
    page = client.get(reverse("signup") + "?next=/games/12/").content.decode()
    header = page.split("</nav>", 1)[0]
    assert 'href="/accounts/login/?next=/games/12/"' in header


def test_a_newcomer_who_signed_up_finds_the_table_in_my_games_before_confirming(player):
    game = invite_by_address(player)
    link = link_of(game)
    client = Client()
    client.get(link)  # opened from the email, before having an account
    landed = sign_up(client, "bea", next_url=link)
    assert landed.redirect_chain[-1][0] == link
    assert "Take a seat" in landed.content.decode()
    mine = client.get(reverse("games:mine")).content.decode()
    assert "Sunday river" in mine  # held by the link opened in this session
    token = link.split("/")[-2]
    assert f'name="invitation" value="{token}"' in mine
    client.post(reverse("games:join", args=[game.pk]), {"invitation": token})
    game.refresh_from_db()
    assert game.seats.filter(user__username="bea").exists()


@pytest.mark.parametrize("bare", ["-1", "x", "//evil.example/", "https://evil.example/"])
def test_a_bare_or_foreign_next_on_sign_up_lands_home_after_the_account_is_made(client, bare):
    """`redirect("-1")` read the word as a view name: 500 after the account was created."""
    response = sign_up(client, "newby", email="newby@example.org", next_url=bare)
    assert response.status_code == 200
    assert response.redirect_chain[0][0] == reverse("home")
    assert User.objects.filter(username="newby").exists()


def test_the_invitation_email_leads_to_the_welcome_page(
    player, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invite_by_address(player)
    path = re.search(r"https?://[^/\s]+(/games/invited/[^/\s]+/)", mail.outbox[-1].body).group(1)
    assert "Create an account to join" in client.get(path).content.decode()


def test_claiming_on_confirmation_changes_nothing_the_creator_sees(player):
    """It used to move the table's version and name the player on the creator's page: that told
    the creator the address now had an account, and whose. The address stays until Bea sits."""
    game = invite_by_address(player)
    version = game.version
    client = Client()
    sign_up(client, "bea")
    confirm(client, User.objects.get(username="bea"))
    game.refresh_from_db()
    assert game.version == version
    assert game.invitations.get().user.username == "bea"  # hers, in her My games
    table = as_user(player).get(game.get_absolute_url()).content.decode()
    assert f"{ADDRESS} (invited)" in table and "bea (invited)" not in table.lower()


@pytest.mark.parametrize("bare", ["/accounts/login/", "-1", "x"])
def test_log_in_follows_only_a_path_of_this_site_and_never_itself(player, bare):
    """Django's own log-in answered 500 to a logged-in visitor sent back to it, and followed a
    bare word as a relative address."""
    client = Client()
    landed = client.post(
        reverse("login") + f"?next={bare}",
        {"username": player.username, "password": PASSWORD, "next": bare},
    )
    assert landed.status_code == 302
    assert landed.url == reverse("home")
    again = client.get(reverse("login") + f"?next={bare}")
    assert again.status_code == 302 and not again.url.startswith(reverse("login"))
