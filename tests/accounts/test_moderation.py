"""A suspended account (accounts.moderation): it cannot log in, its open sessions stop working,
every change it asks for is refused in words and changes nothing, and its games go on by their
time limits. Each refusal is replayed as the request the suspended player's browser sends."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import moderation
from accounts.models import DELETED_NAME, EMAIL_KINDS, Block, Friendship, RetiredUsername, User
from games import services
from games.models import Game, Message
from tests.answers import answered
from tests.clients import as_user
from tests.factories import PASSWORD
from tests.games.helpers import first_legal, user_to_move

pytestmark = pytest.mark.django_db
SUSPENDED = "Your account is suspended"


def log_in(client: Client, username: str, password: str = PASSWORD):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_a_suspended_player_cannot_log_in_and_is_told_why(player):
    moderation.suspend(player.pk)
    client = Client()
    response = log_in(client, "alice")
    assert response.status_code == 200
    assert "suspended by the site&#x27;s staff" in response.content.decode()
    assert SESSION_KEY not in client.session
    # A wrong password is told nothing about the account.
    wrong = log_in(Client(), "alice", "not-her-password")
    assert b"Please enter a correct username" in wrong.content and b"suspended" not in wrong.content


def test_an_open_session_stops_working_at_once_and_says_why(game, player):
    client = as_user(player)
    assert client.get(game.get_absolute_url()).status_code == 200
    moderation.suspend(player.pk)
    response = client.get(game.get_absolute_url())
    assert response.status_code == 403 and SUSPENDED in response.content.decode()
    assert 'id="game"' not in response.content.decode()  # nothing of the game is shown
    # Logged out now: the next page is a visitor's.
    again = client.get(game.get_absolute_url())
    assert again.status_code == 302 and again.url.startswith(reverse("login"))


def test_every_change_a_suspended_session_posts_is_refused_and_changes_nothing(
    game, player, other_player, carol
):
    mover = user_to_move(game)
    table = services.create_game(creator=mover, players=3, side="A", spirits=False)
    before = (game.version, Game.objects.count(), User.objects.get(pk=mover.pk).display_name)
    moderation.suspend(mover.pk)
    move = {"version": game.version, **first_legal(game)}
    profile = {"display_name": "Renamed", "email": mover.email, "time_zone": "UTC"}
    posts = {
        "play": (reverse("games:act", args=[game.pk]), move),
        "talk": (reverse("games:talk", args=[game.pk]), {"text": "let me play"}),
        "invite": (reverse("games:invite", args=[table.pk]), {"invite": "carol"}),
        "resign": (reverse("games:resign", args=[game.pk]), {}),
        "new game": (reverse("games:new"), {"players": 2, "side": "A", "bots": "easy"}),
        "profile": (reverse("profile"), profile),
        "friend": (reverse("records:friend_add"), {"username": "carol"}),
    }  # fmt: skip
    for what, (url, data) in posts.items():
        for headers in ({}, {"HX-Request": "true"}):
            response = as_user(mover).post(url, data, headers=headers)
            assert answered(response) == 403, what
            assert SUSPENDED in response.content.decode(), what
            if headers:  # htmx puts the words in place of the page's content
                assert response["HX-Retarget"] == "#main", what
    game.refresh_from_db()
    after = (game.version, Game.objects.count(), User.objects.get(pk=mover.pk).display_name)
    assert after == before
    assert not Message.objects.exists() and not table.invitations.exists()
    assert not Friendship.objects.exists()
    assert game.seats.get(user=mover).resigned_at is None


def test_a_suspended_players_games_go_on_by_their_time_limits(player, other_player):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player],
        turn_limit_days=1,
    )  # fmt: skip
    services.join_game(game_id=game.pk, user=other_player)
    game.refresh_from_db()
    late = user_to_move(game)
    moderation.suspend(late.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seats.get(user=late).resigned_at is None
    turn = game.engine_state().turn
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert services.act_on_timeout(game.pk, turn)  # the sweep, as for anyone who is late
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and user_to_move(game) != late
    assert game.seats.get(user=late).resigned_at is None


def test_once_lifted_the_player_logs_in_and_plays_again(game, player):
    moderation.suspend(player.pk)
    assert not moderation.suspend(player.pk)  # twice: nothing more
    assert moderation.lift_suspension(player.pk)
    assert not moderation.lift_suspension(player.pk)
    client = Client()
    assert log_in(client, "alice").status_code == 302
    response = client.post(reverse("games:talk", args=[game.pk]), {"text": "back again"})
    assert response.status_code == 302 and Message.objects.filter(text="back again").exists()


def test_a_page_that_never_reads_the_session_costs_no_look_at_the_account(
    game, player, django_assert_num_queries
):
    """The poll names its viewer by a token: the middleware must not read the session for it."""
    client = as_user(player)
    page = client.get(game.get_absolute_url()).content.decode()
    poll = re.search(r'hx-get="(/games/\d+/poll/[^"]*)"', page).group(1).replace("&amp;", "&")
    client.get(poll)  # the first answer may fill the cache
    with django_assert_num_queries(0):
        assert client.get(poll).status_code in (200, 204)


def test_a_suspended_player_gets_no_game_emails_and_gets_them_again_once_lifted(player):
    assert all(player.wants_email(kind) for kind in ("turn", "reminder", "invitation"))
    moderation.suspend(player.pk)
    player.refresh_from_db()
    assert not any(player.wants_email(kind) for kind in EMAIL_KINDS)
    moderation.lift_suspension(player.pk)
    player.refresh_from_db()
    assert player.wants_email("turn")


def test_nobody_can_pass_for_a_deleted_account(player):
    client = as_user(player)
    for name in (DELETED_NAME, "A Deleted Player"):
        response = client.post(
            reverse("profile"),
            {"display_name": name, "email": player.email, "time_zone": player.time_zone},
        )
        assert "kept for the accounts that were deleted" in response.content.decode()
        player.refresh_from_db()
        assert player.display_name != name


def test_staff_see_blocks_and_may_release_a_retired_username(player, other_player):
    staff = Client()
    staff.force_login(User.objects.create_superuser("root", "root@example.com", "x" * 12))
    Block.objects.create(blocker=player, blocked=other_player)
    retired = RetiredUsername.objects.create(
        username_key="zed", username_skeleton="zed", retired_at=timezone.now()
    )
    blocks = staff.get(reverse("admin:accounts_block_changelist"))
    assert blocks.status_code == 200 and "alice" in blocks.content.decode().lower()
    assert staff.get(reverse("admin:accounts_block_add")).status_code == 403
    names = staff.get(reverse("admin:accounts_retiredusername_changelist"))
    assert names.status_code == 200 and "zed" in names.content.decode()
    staff.post(reverse("admin:accounts_retiredusername_delete", args=[retired.pk]), {"post": "yes"})
    assert not RetiredUsername.objects.exists()
