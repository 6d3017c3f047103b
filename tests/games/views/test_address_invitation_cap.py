"""Invitations by email address are capped per day, replayed as a sock puppet would send them.

Each is an email to someone who may never have heard of the site, and accounts are free to make:
an account younger than a week, or without a finished game that counts, invites at most 3
addresses a day (ADDRESS_INVITATIONS_PER_DAY_NEW); an established player many more. Over the cap
the page says so, and nothing is stored or sent.

Personas: a puppet made today; an old account, a year old but with no finished game yet; bob
(other_player), who has an account behind his address; a veteran, a year old with a finished
game that counts.
"""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import AddressInvitationSent, Game, Invitation, Seat
from tests.clients import as_user
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CAPPED = "people by email address a day"


@pytest.fixture
def puppet(db):
    return UserFactory(username="puppet", date_joined=timezone.now() - timedelta(hours=1))


A_YEAR_AGO = timezone.now() - timedelta(days=365)


@pytest.fixture
def old_account(db):
    return UserFactory(username="oldie", date_joined=A_YEAR_AGO)


@pytest.fixture
def established(db):
    veteran = UserFactory(username="veteran", date_joined=A_YEAR_AGO)
    game = Game.objects.create(created_by=veteran, players=1, status=Game.Status.FINISHED)
    Seat.objects.create(game=game, user=veteran, position=0)
    return veteran


def strangers(first: int, count: int) -> str:
    return " ".join(f"stranger{n}@example.org" for n in range(first, first + count))


def new_table(client, invite: str, players: int = 4):
    return client.post(reverse("games:new"), {"players": players, "side": "A", "invite": invite})


def invite_more(client, game: Game, invite: str):
    return client.post(reverse("games:invite", args=[game.pk]), {"invite": invite})


def test_a_new_account_cannot_email_a_fourth_stranger_in_a_day(
    puppet, django_capture_on_commit_callbacks
):
    client = as_user(puppet)
    with django_capture_on_commit_callbacks(execute=True):
        assert new_table(client, strangers(1, 2)).status_code == 302
        assert new_table(client, "").status_code == 302
        game = Game.objects.filter(created_by=puppet).latest("pk")
        assert invite_more(client, game, strangers(3, 1)).status_code == 302
    assert len(mail.outbox) == 3
    with django_capture_on_commit_callbacks(execute=True):
        refused = invite_more(client, game, strangers(4, 1))
        again = new_table(client, strangers(5, 1), players=2)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "A new account can invite 3 people by email address a day" in page
    assert "you have none left for now" in page
    assert again.status_code == 200 and CAPPED in again.content.decode()
    assert Game.objects.filter(created_by=puppet).count() == 2
    assert Invitation.objects.count() == 3
    assert len(mail.outbox) == 3  # nothing more was mailed


def test_a_request_over_the_cap_invites_none_of_its_addresses(puppet):
    client = as_user(puppet)
    assert new_table(client, strangers(1, 2), players=3).status_code == 302
    over = new_table(client, strangers(3, 2), players=3)
    assert "you have 1 left for now" in over.content.decode()
    assert Invitation.objects.count() == 2


def test_cancelling_or_starting_the_table_does_not_give_the_day_back(puppet, stranger):
    """The invitations go (a started table deletes them), the count of what was sent stays."""
    client = as_user(puppet)
    assert new_table(client, strangers(1, 2), players=3).status_code == 302
    cancelled = Game.objects.get(created_by=puppet)
    client.post(reverse("games:cancel", args=[cancelled.pk]))
    assert new_table(client, strangers(3, 1), players=2).status_code == 302
    started = Game.objects.get(created_by=puppet, status=Game.Status.OPEN)
    as_user(stranger).post(
        reverse("games:join", args=[started.pk]), {"token": started.invite_token}
    )
    started.refresh_from_db()
    assert started.status == Game.Status.ACTIVE and not started.invitations.exists()
    refused = new_table(client, strangers(4, 1), players=2)
    assert refused.status_code == 200 and CAPPED in refused.content.decode()


def test_an_old_account_without_a_finished_game_is_still_capped_as_new(old_account):
    client = as_user(old_account)
    assert new_table(client, strangers(1, 3)).status_code == 302
    refused = new_table(client, strangers(4, 1), players=2)
    assert "A new account can invite 3" in refused.content.decode()


def test_addresses_with_an_account_count_like_any_other(puppet, other_player):
    """Otherwise the cap itself would tell the puppet which addresses have an account."""
    client = as_user(puppet)
    assert new_table(client, f"{other_player.email} {strangers(1, 2)}").status_code == 302
    refused = new_table(client, strangers(3, 1), players=2)
    assert refused.status_code == 200 and "none left" in refused.content.decode()


def test_usernames_are_not_capped(puppet, other_player, carol, stranger):
    client = as_user(puppet)
    assert new_table(client, strangers(1, 3)).status_code == 302
    assert new_table(client, "bob carol mallory").status_code == 302
    assert Invitation.objects.filter(user__isnull=False, email="").count() == 3


def test_an_established_player_keeps_a_generous_cap(established, settings):
    assert settings.ADDRESS_INVITATIONS_PER_DAY == 50  # as many as may wait for answers at once
    settings.ADDRESS_INVITATIONS_PER_DAY = 5  # the same rule, reached in fewer tables
    client = as_user(established)
    assert new_table(client, strangers(1, 3)).status_code == 302
    assert new_table(client, strangers(4, 2), players=3).status_code == 302
    refused = new_table(client, strangers(6, 1), players=2)
    assert "You can invite 5 people by email address a day" in refused.content.decode()
    assert "new account" not in refused.content.decode()


def test_an_established_player_whose_games_never_counted_is_capped_as_new(established):
    Game.objects.filter(seats__user=established).update(uncounted=Game.Uncounted.ABANDONED)
    client = as_user(established)
    assert new_table(client, strangers(1, 3)).status_code == 302
    assert "A new account" in new_table(client, strangers(4, 1), players=2).content.decode()


def test_the_cap_is_counted_over_the_last_24_hours(puppet):
    client = as_user(puppet)
    assert new_table(client, strangers(1, 3)).status_code == 302
    AddressInvitationSent.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert new_table(client, strangers(4, 1), players=2).status_code == 302
    assert AddressInvitationSent.objects.count() == 1  # the old ones are pruned as it counts


def test_the_writer_refuses_too_so_no_other_caller_can_skip_the_cap(puppet):
    services.create_game(
        creator=puppet, players=4, side="A", spirits=False, emails=strangers(1, 3).split()
    )
    game = services.create_game(creator=puppet, players=2, side="A", spirits=False)
    with pytest.raises(services.GameError, match="none left"):
        services.invite(game_id=game.pk, by=puppet, emails=["late@example.org"])
    assert not game.invitations.exists()
