"""Sock puppets: new accounts on one mailbox, or a circle of new accounts, lift nobody's rating.

Testers put a new account first on the players' leaderboard (8-0) in 21 s with eight confirmed
plus-address puppets. A game counts only if the players' addresses are distinct once normalised
(games.results.starting_reason), and a new account's rating cannot rise from a game against
another new account (records.ratings.rate).
"""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.identity import normalised_email
from games.models import Game
from records import ratings
from records.models import Rating, SeatResult
from tests.clients import as_user
from tests.factories import UserFactory
from tests.records.helpers import quick_game, real_game

pytestmark = pytest.mark.django_db

URL = reverse("records:leaderboards")


def newcomer(username: str, email: str):
    """An account made a moment ago, its address confirmed."""
    return UserFactory(username=username, email=email, date_joined=timezone.now())


def rating(user) -> Rating:
    return Rating.objects.get(user=user, pool="players", scope="all")


def rating_board(client) -> list[str]:
    response = client.get(URL)
    assert response.status_code == 200
    return [row["username"] for row in response.context["rows"]]


@pytest.mark.parametrize(
    ("address", "same_as"),
    [
        ("Me+1@Example.com", "me@example.com"),
        ("me+a+b@example.org", "me@example.org"),
        ("j.o.h.n+x@gmail.com", "john@gmail.com"),
        ("John@GoogleMail.com", "john@gmail.com"),
        ("j.ohn@example.com", "j.ohn@example.com"),  # dots matter outside Gmail
    ],
)
def test_addresses_are_compared_by_mailbox(address, same_as):
    assert normalised_email(address) == same_as


@pytest.mark.parametrize(
    ("main", "puppet"),
    [
        ("me@example.com", "me+1@example.com"),
        ("john.smith@gmail.com", "JohnSmith+x@googlemail.com"),
    ],
)
def test_a_game_against_a_puppet_on_ones_own_mailbox_counts_for_nothing(
    django_capture_on_commit_callbacks, main, puppet
):
    cheat = UserFactory(username="cheat", email=main)
    sock = UserFactory(username="sock", email=puppet)
    game = real_game(django_capture_on_commit_callbacks, cheat, sock)
    assert game.uncounted == Game.Uncounted.SAME_ADDRESS
    assert not SeatResult.objects.filter(game=game, counts=True).exists()
    assert not Rating.objects.filter(user__in=[cheat, sock]).exists()
    sheet = as_user(cheat).get(reverse("records:sheet", args=[game.pk])).content.decode()
    assert "two players at the table shared one email address" in sheet


def test_eight_plus_address_puppets_put_nobody_on_the_leaderboard(player, other_player):
    """The testers' replay: eight confirmed puppets, `me+1@` to `me+8@`, lose to `me@`."""
    cheat = newcomer("cheat", "me@example.com")
    for n in range(1, 9):
        quick_game(cheat, newcomer(f"sock{n}", f"me+{n}@example.com"), seed=n)
    quick_game(player, other_player, seed=20)  # an honest game, for a board to look at
    assert not Rating.objects.filter(user=cheat).exists()
    assert "cheat" not in rating_board(as_user(player))


def test_a_circle_of_new_accounts_on_distinct_mailboxes_cannot_lift_one_of_them_first(
    player, other_player
):
    """Eight new puppets on eight real mailboxes: the games count (wins, history), but the new
    account's rating does not rise from them, so an established player who won fewer games
    stays above it. Its puppets' losses count."""
    for n in range(5):
        quick_game(player, other_player, seed=30 + n)
    cheat = newcomer("cheat", "cheat@example.com")
    socks = [newcomer(f"sock{n}", f"sock{n}@elsewhere.example") for n in range(1, 9)]
    for n, sock in enumerate(socks, start=1):
        quick_game(cheat, sock, seed=n)
    held = rating(cheat)
    assert (held.games, held.wins) == (8, 8)
    assert (held.mu, held.sigma) == ratings.START and held.shown == ratings.SHOWN_START
    assert all(rating(sock).ordinal < 0 for sock in socks)
    board = rating_board(as_user(player))
    assert board[0] == "alice" and board.index("alice") < board.index("cheat")


def test_a_new_account_is_rated_in_full_against_established_players_and_after_a_week(
    player, other_player
):
    fresh = newcomer("fresh", "fresh@example.com")
    quick_game(fresh, player, seed=1)
    assert rating(fresh).ordinal > 0  # a real newcomer who beats a regular goes up at once
    friend = newcomer("friend", "friend@example.com")
    quick_game(fresh, friend, seed=2)
    before = rating(fresh)
    a_week_on = timezone.now() + ratings.NEW_ACCOUNT_AGE + timedelta(hours=1)
    quick_game(fresh, friend, seed=3, finished_at=a_week_on)
    assert rating(fresh).ordinal > before.ordinal
