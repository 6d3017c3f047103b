"""Invitations that arrive: by username or email address, their links, declines, cancelled tables.

Personas: alice (player) creates the tables, bob (other_player) is her friend, mallory (stranger)
is invited nowhere; a newcomer has only an email address.
"""

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import presence, services, tasks
from games.mail import tables as table_mail
from games.models import Game, Invitation, Seat
from games.models.social import invitation_token
from tests.clients import as_user
from tests.factories import PASSWORD, UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db

NEWCOMER = "newcomer@example.org"


def table(creator, players: int = 2, **kwargs) -> Game:
    return services.create_game(creator=creator, players=players, side="A", spirits=False, **kwargs)


def link_in(message) -> str:
    """The path of the first link to the site in an email's text."""
    return re.search(r"https?://[^/\s]+(/games/invited/[^/\s]+/)", message.body).group(1)


# --- Invitations by username ----------------------------------------------------------------------


def test_an_invited_player_is_emailed_with_join_and_decline_links(
    player, other_player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = table(player, invitees=[other_player])
    (message,) = mail.outbox
    assert message.to == [other_player.email]
    assert message.subject == "Alice invites you to a game of Harmonies"
    path = link_in(message)
    assert f"{path}?decline=1" in message.body
    assert "/accounts/unsubscribe/invitation/" in message.body
    page = as_user(other_player).get(path)
    assert page.status_code == 200
    assert b"Take a seat" in page.content and b"Decline" in page.content
    assert Invitation.objects.get(game=game).emailed_at is not None


def test_the_invitation_email_is_claimed_and_sent_once(
    player, other_player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table(player, invitees=[other_player])
    invitation = Invitation.objects.get()
    assert tasks.notify_invitation(invitation.pk) is False
    assert len(mail.outbox) == 1


def test_a_failed_send_gives_the_claim_back_for_the_retry(player, other_player):
    game = table(player, invitees=[other_player])
    invitation = game.invitations.get()
    failing = mock.patch.object(table_mail.emails, "send", side_effect=OSError("server down"))
    with failing, pytest.raises(OSError):
        table_mail.send_invitation(invitation.pk)
    invitation.refresh_from_db()
    assert invitation.emailed_at is None
    assert table_mail.send_invitation(invitation.pk) is True
    assert len(mail.outbox) == 1


def test_a_player_who_switched_invitations_off_gets_none(
    player, other_player, django_capture_on_commit_callbacks
):
    User.objects.filter(pk=other_player.pk).update(email_invitation=False)
    with django_capture_on_commit_callbacks(execute=True):
        table(player, invitees=[other_player])
    assert mail.outbox == []
    assert Invitation.objects.get().emailed_at is not None  # claimed all the same


def test_the_preferences_page_lists_invitations(player):
    page = as_user(player).get(reverse("profile"))
    assert b"Invitations and tables" in page.content
    assert player.email_invitation is True


def test_the_link_is_for_the_invited_player_only(player, other_player, stranger):
    game = table(player, invitees=[other_player])
    token = invitation_token(game.invitations.get())
    page = as_user(stranger).get(reverse("games:invited", args=[token]))
    assert page.status_code == 403
    assert b"This invitation is for another player." in page.content
    joined = as_user(stranger).post(reverse("games:join", args=[game.pk]), {"invitation": token})
    assert joined.status_code == 403
    assert not game.seats.filter(user=stranger).exists()


# --- Invitations by email address -----------------------------------------------------------------


def test_a_newcomer_is_invited_by_email_address(player, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = table(player, emails=["NewComer@Example.org"])
    invitation = game.invitations.get()
    assert invitation.user is None and invitation.email == NEWCOMER
    (message,) = mail.outbox
    assert message.to == [NEWCOMER]
    assert "create an account" in message.body
    assert "unsubscribe" not in message.body  # no account, so no preferences to point at
    assert "Hello," in message.body


def test_an_address_that_belongs_to_a_player_invites_the_player(
    player, other_player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = table(player, emails=[other_player.email.upper()])
    assert game.invitations.get().user == other_player
    assert mail.outbox[0].to == [other_player.email]


def test_the_newcomer_signs_up_through_the_link_and_lands_on_take_a_seat(player, client):
    game = table(player, emails=[NEWCOMER])
    path = reverse("games:invited", args=[invitation_token(game.invitations.get())])
    welcome = client.get(path)  # who invites, to what, and the two ways on: both come back
    assert welcome.status_code == 200
    assert b"Create an account to join" in welcome.content
    login_page = client.get(reverse("login") + "?next=" + path)
    signup_url = reverse("signup") + "?next=" + path.replace(":", "%3A")
    assert signup_url.encode() in login_page.content
    form = client.get(reverse("signup") + "?next=" + path)
    assert f'name="next" value="{path}"'.encode() in form.content
    signed_up = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": NEWCOMER,
            "time_zone": "UTC",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": path,
        },
        follow=True,
    )
    assert signed_up.redirect_chain[-1][0] == path
    assert b"Take a seat" in signed_up.content
    joined = client.post(
        reverse("games:join", args=[game.pk]),
        {"invitation": path.split("/")[-2]},
        follow=True,
    )
    assert joined.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.filter(user__username="newcomer").exists()


def test_joining_uses_up_an_invitation_to_ones_address(player):
    game = table(player, players=3, public=True, emails=[NEWCOMER])
    newcomer = UserFactory(username="newcomer", email=NEWCOMER)
    services.join_game(game_id=game.pk, user=newcomer)  # by the lobby, not the emailed link
    assert not game.invitations.exists()  # the seat is not held twice


def test_sign_up_ignores_a_next_that_leaves_the_site(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": NEWCOMER,
            "time_zone": "UTC",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response.status_code == 302 and response.url == reverse("home")


def test_a_used_link_says_so_and_changes_nothing(player, stranger):
    game = table(player, players=3, emails=[NEWCOMER])
    token = invitation_token(game.invitations.get())
    services.join_game(game_id=game.pk, user=stranger, invitation_token=token)
    again = as_user(UserFactory()).post(
        reverse("games:join", args=[game.pk]), {"invitation": token}
    )
    assert again.status_code == 409
    assert b"This invitation has already been used." in again.content
    page = as_user(UserFactory()).get(reverse("games:invited", args=[token]))
    assert page.status_code == 409
    assert game.seats.count() == 2


def test_a_link_opens_its_own_table_only(player, stranger):
    mine = table(player, emails=[NEWCOMER])
    other = table(player, players=3)
    token = invitation_token(mine.invitations.get())
    response = as_user(stranger).post(reverse("games:join", args=[other.pk]), {"invitation": token})
    assert response.status_code == 403
    assert b"This invitation is for another table." in response.content
    assert other.seats.count() == 1 and mine.invitations.exists()


def test_a_forged_link_says_so(player, stranger):
    game = table(player, emails=[NEWCOMER])
    token = invitation_token(game.invitations.get())
    for forged in (token[:-2] + "xx", "abc", signing.dumps(game.invitations.get().pk)):
        page = as_user(stranger).get(reverse("games:invited", args=[forged]))
        assert page.status_code == 404
        assert b"This invitation link is not valid" in page.content
    refused = as_user(stranger).post(reverse("games:join", args=[game.pk]), {"invitation": "x"})
    assert refused.status_code == 404
    assert game.seats.count() == 1


def test_an_expired_link_says_so(player, stranger):
    game = table(player, emails=[NEWCOMER])
    invitation = game.invitations.get()
    token = invitation_token(invitation)
    later = timezone.now() + timedelta(days=15)
    with mock.patch("django.core.signing.time.time", return_value=later.timestamp()):
        page = as_user(stranger).get(reverse("games:invited", args=[token]))
        joined = as_user(stranger).post(
            reverse("games:join", args=[game.pk]), {"invitation": token}
        )
    assert page.status_code == joined.status_code == 409
    assert b"This invitation has expired" in page.content
    assert game.seats.count() == 1


def test_an_expired_invitation_by_name_no_longer_opens_the_table(player, other_player):
    game = table(player, invitees=[other_player])
    Invitation.objects.update(created_at=timezone.now() - timedelta(days=15))
    with pytest.raises(services.NotAllowed, match="expired"):
        services.join_game(game_id=game.pk, user=other_player)
    page = as_user(other_player).get(game.get_absolute_url())
    assert page.status_code == 403 and b"expired" in page.content
    assert b"invites you" not in as_user(other_player).get(reverse("games:mine")).content


# --- The same person twice ------------------------------------------------------------------------


@pytest.mark.parametrize("names", ["bob, Bob", "bob BOB", "BOB@example.com bob@EXAMPLE.com"])
def test_naming_a_friend_twice_on_the_new_game_form_is_a_message(player, other_player, names):
    response = as_user(player).post(
        reverse("games:new"), {"players": 3, "side": "A", "invite": names}
    )
    assert response.status_code == 200
    assert b"is named twice" in response.content
    assert not Game.objects.exists()


def test_a_name_and_the_same_players_address_are_two_invitations_like_any_others(
    player, other_player, django_capture_on_commit_callbacks
):
    """ "Bob is named twice" told the creator whose address it was: a name and an address are
    never compared. Bob, who has his invitation by name, is not emailed twice."""
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(player).post(
            reverse("games:new"), {"players": 3, "side": "A", "invite": "bob BOB@example.com"}
        )
    assert response.status_code == 302
    game = Game.objects.get()
    assert {(i.user, i.email) for i in game.invitations.all()} == {
        (other_player, ""),
        (None, "bob@example.com"),
    }
    assert [m.to for m in mail.outbox] == [[other_player.email]]


def test_inviting_someone_already_invited_is_a_message_in_any_case(player, other_player):
    game = table(player, players=4, invitees=[other_player], emails=[NEWCOMER])
    client = as_user(player)
    for again in ("BOB", "NEWCOMER@example.ORG"):
        response = client.post(reverse("games:invite", args=[game.pk]), {"invite": again})
        assert response.status_code == 400
        assert b"is already invited to this table." in response.content
    assert game.invitations.count() == 2
    # Bob's address is an address like any other: refusing it would say whose it is.
    response = client.post(reverse("games:invite", args=[game.pk]), {"invite": "bob@Example.com"})
    assert response.status_code == 302
    assert game.invitations.count() == 3


def test_the_creator_invites_more_from_the_table_page(
    player, other_player, django_capture_on_commit_callbacks
):
    game = table(player, players=3)
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(player).post(
            reverse("games:invite", args=[game.pk]), {"invite": f"bob {NEWCOMER}"}
        )
    assert response.status_code == 302
    assert sorted(m.to[0] for m in mail.outbox) == sorted([other_player.email, NEWCOMER])
    full = as_user(player).post(reverse("games:invite", args=[game.pk]), {"invite": "mallory"})
    assert full.status_code == 400


def test_only_the_creator_invites(player, other_player, stranger):
    game = table(player, players=3, public=True)
    services.join_game(game_id=game.pk, user=other_player)
    response = as_user(other_player).post(
        reverse("games:invite", args=[game.pk]), {"invite": "mallory"}
    )
    assert response.status_code == 403
    assert not game.invitations.exists()


def test_computer_opponents_are_not_invited(player):
    from games.services.bots import bots_for

    (bot,) = bots_for(["easy"])
    with pytest.raises(services.GameError, match="seated, not invited"):
        table(player, emails=[bot.email] if bot.email else [], invitees=[bot])


# --- The creator hears that the game has started --------------------------------------------------


def test_the_creator_is_emailed_when_the_last_seat_is_taken(
    player, other_player, django_capture_on_commit_callbacks
):
    game = table(player, invitees=[other_player])
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game_id=game.pk, user=other_player)
    # Alice may also play first ("your turn"): the table's own news is one email.
    (started,) = [m for m in mail.outbox if "table is full" in m.subject]
    assert started.to == [player.email]
    game.refresh_from_db()
    assert started.subject == f"Your table is full: {game.title} have started"  # their names
    assert "Bob took the last seat" in started.body
    assert tasks.notify_table_started(game.pk, other_player.pk) is False  # once


def test_the_creator_looking_at_the_table_is_not_emailed(
    player, other_player, django_capture_on_commit_callbacks
):
    game = table(player, invitees=[other_player])
    presence.mark_present(game.pk, player.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game_id=game.pk, user=other_player)
    assert not [m for m in mail.outbox if "table is full" in m.subject]


def test_the_table_page_marks_its_creator_as_looking(player, other_player):
    game = table(player, invitees=[other_player])
    as_user(player).get(game.get_absolute_url())
    assert presence.is_looking(game.pk, player.pk)


def test_a_creator_who_starts_the_game_is_not_emailed_about_it(
    player, django_capture_on_commit_callbacks
):
    from games.services.bots import bots_for

    with django_capture_on_commit_callbacks(execute=True):
        table(player, bots=bots_for(["easy"]))
    assert not [m for m in mail.outbox if "table is full" in m.subject]


# --- Declines -------------------------------------------------------------------------------------


def test_a_decline_tells_the_creator_and_opens_the_seat(
    player, other_player, stranger, django_capture_on_commit_callbacks
):
    game = table(player, invitees=[other_player])
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(other_player).post(reverse("games:decline", args=[game.pk]))
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == [player.email]
    assert message.subject == f"Bob declined your invitation to Game {game.pk}"  # as listed
    assert tasks.notify_invitation_declined(game.invitations.get().pk) is False  # once
    page = as_user(player).get(game.get_absolute_url())
    assert b"Bob declined the invitation" in page.content
    services.invite(game_id=game.pk, by=player, invitees=[stranger])  # the seat is free again
    assert game.invitations.filter(user=stranger, declined_at__isnull=True).exists()


def test_a_declined_player_may_be_invited_again(player, other_player):
    game = table(player, invitees=[other_player])
    services.decline_invitation(game_id=game.pk, user=other_player)
    services.invite(game_id=game.pk, by=player, invitees=[other_player])
    assert game.invitations.get(user=other_player).declined_at is None


@pytest.mark.parametrize(
    "who, status, message",
    [
        ("other_player", 409, b"You already declined this invitation."),
        ("player", 409, b"You already have a seat at this table"),
        ("stranger", 403, b"You are not invited to this table."),
    ],
)
def test_declining_answers_truthfully(player, other_player, stranger, who, status, message):
    people = {"player": player, "other_player": other_player, "stranger": stranger}
    game = table(player, invitees=[other_player])
    services.decline_invitation(game_id=game.pk, user=other_player)
    version = Game.objects.get(pk=game.pk).version
    response = as_user(people[who]).post(reverse("games:decline", args=[game.pk]))
    assert response.status_code == status
    assert message in response.content
    assert Game.objects.get(pk=game.pk).version == version


def test_declining_a_table_that_does_not_exist_or_has_started(player, other_player):
    response = as_user(other_player).post(reverse("games:decline", args=[99999]))
    assert response.status_code == 404 and b"There is no such table." in response.content
    game = start_game(player, other_player)
    seated = as_user(other_player).post(reverse("games:decline", args=[game.pk]))
    assert seated.status_code == 409 and b"already have a seat" in seated.content


def test_a_newcomer_declines_through_their_link(
    player, stranger, django_capture_on_commit_callbacks
):
    game = table(player, emails=[NEWCOMER])
    token = invitation_token(game.invitations.get())
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(stranger).post(
            reverse("games:decline", args=[game.pk]), {"invitation": token}
        )
    assert response.status_code == 302
    assert game.invitations.get().declined_at is not None
    assert f"{NEWCOMER} declined" in mail.outbox[0].subject
    again = as_user(stranger).get(reverse("games:invited", args=[token]))
    assert again.status_code == 409 and b"declined" in again.content


# --- Cancelled tables -----------------------------------------------------------------------------


@pytest.fixture
def cancelled(player, other_player, stranger, django_capture_on_commit_callbacks):
    """Alice's 4-seat table: Bob seated, Mallory invited, a newcomer invited; then cancelled."""
    game = table(player, players=4, public=True, invitees=[stranger], emails=[NEWCOMER])
    services.join_game(game_id=game.pk, user=other_player)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.cancel_game(game_id=game.pk, user=player)
    return game


def test_everyone_seated_or_invited_is_emailed_once(cancelled, player, other_player, stranger):
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [other_player.email, stranger.email, NEWCOMER]
    )
    assert all(m.subject == f"Alice cancelled Game {cancelled.pk}" for m in mail.outbox)
    assert tasks.notify_table_cancelled(cancelled.pk) == 0
    assert Seat.objects.filter(game=cancelled, cancel_emailed_at__isnull=False).count() == 1


def test_a_cancelled_table_stays_in_my_games(cancelled, player, other_player, stranger):
    for user in (player, other_player, stranger):
        page = as_user(user).get(reverse("games:mine"))
        assert b"cancelled by Alice" in page.content
        assert b"invites you" not in page.content


@pytest.mark.parametrize(
    "who, method, name, data",
    [
        ("other_player", "post", "games:join", {}),
        ("stranger", "post", "games:join", {}),
        ("player", "post", "games:cancel", {}),
        ("other_player", "post", "games:leave", {}),
        ("stranger", "post", "games:decline", {}),
        ("player", "post", "games:act", {"type": "end_turn", "version": "0"}),
        ("player", "post", "games:invite", {"invite": "carol@example.com"}),
        ("player", "get", "records:sheet", {}),
        ("player", "get", "records:replay", {}),
    ],
)
def test_every_request_on_a_cancelled_table_says_so(
    cancelled, player, other_player, stranger, who, method, name, data
):
    people = {"player": player, "other_player": other_player, "stranger": stranger}
    response = getattr(as_user(people[who]), method)(reverse(name, args=[cancelled.pk]), data)
    assert response.status_code == 409
    assert b"This table was cancelled." in response.content
    cancelled.refresh_from_db()
    assert cancelled.status == Game.Status.CANCELLED and cancelled.seats.count() == 2


def test_the_links_of_a_cancelled_table_say_so(cancelled, player, other_player, stranger):
    link = as_user(other_player).get(reverse("games:invitation", args=[cancelled.invite_token]))
    assert link.status_code == 409 and b"This table was cancelled." in link.content
    token = invitation_token(cancelled.invitations.get(user=stranger))
    own = as_user(stranger).get(reverse("games:invited", args=[token]))
    assert own.status_code == 409 and b"This table was cancelled." in own.content
    page = as_user(other_player).get(cancelled.get_absolute_url())
    assert page.status_code == 200 and b"This table was cancelled by Alice" in page.content
