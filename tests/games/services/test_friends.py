"""Friends: added by username or played with, less those removed; bots and oneself never."""

import pytest

from accounts.models import Friendship
from games import services
from games.services import friends
from games.services.bots import bots_for
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def names(user) -> set[str]:
    return set(friends.friends_of(user).values_list("username", flat=True))


def test_people_played_with_are_friends_both_ways_but_bots_are_not(player, other_player):
    start_game(player, other_player)
    services.create_game(
        creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
    )
    assert names(player) == {"bob"} and names(other_player) == {"alice"}


def test_an_open_table_makes_nobody_a_friend(player, other_player):
    services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player]
    )
    assert names(player) == set()


def test_adding_by_username_is_one_way(player, other_player):
    friends.add_friend(user=player, name="BOB")
    assert names(player) == {"bob"} and names(other_player) == set()


def test_adding_oneself_twice_an_unknown_name_or_a_bot_is_refused_and_stores_nothing(
    player, other_player
):
    bot = bots_for(["easy"])[0]
    for name, words in [
        ("alice", "That is you"),
        ("nobody-here", "No player is called nobody-here"),
        (bot.username, "computer opponent"),
        ("", "Type the username"),
        ("x" * 300, "not a username"),
        ("bo\x00b", "not a username"),
    ]:
        with pytest.raises(friends.FriendError, match=words):
            friends.add_friend(user=player, name=name)
    assert not Friendship.objects.exists()
    friends.add_friend(user=player, name="bob")
    with pytest.raises(friends.FriendError, match="Bob is already your friend"):
        friends.add_friend(user=player, name="bob")
    assert Friendship.objects.count() == 1


def test_someone_played_with_is_already_a_friend(player, other_player):
    start_game(player, other_player)
    with pytest.raises(friends.FriendError, match="already your friend"):
        friends.add_friend(user=player, name="bob")
    assert not Friendship.objects.exists()


def test_removing_someone_played_with_hides_them_until_added_again(player, other_player):
    start_game(player, other_player)
    friends.remove_friend(user=player, friend_id=str(other_player.pk))
    assert names(player) == set() and names(other_player) == {"alice"}
    row = Friendship.objects.get()
    assert row.removed_at is not None
    friends.add_friend(user=player, name="bob")
    assert names(player) == {"bob"}
    row.refresh_from_db()
    assert row.removed_at is None


def test_removing_someone_who_is_no_friend_is_refused(player, other_player):
    for friend_id in (str(other_player.pk), "abc", None, "9" * 40, str(player.pk)):
        with pytest.raises(friends.FriendError, match="not among your friends"):
            friends.remove_friend(user=player, friend_id=friend_id)
    assert not Friendship.objects.exists()


def test_suggestions_offer_only_friends(player, other_player, carol):
    UserFactory(username="bobby")  # exists, but no friend of alice's
    start_game(player, other_player)
    friends.add_friend(user=player, name="carol")
    assert [u.username for u in friends.suggestions(player, "bo")] == ["bob"]
    assert [u.username for u in friends.suggestions(player, "C")] == ["carol"]
    assert friends.suggestions(player, "") == []
    assert friends.suggestions(player, "\x00") == []
