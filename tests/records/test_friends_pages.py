"""Friends on the pages: the profile's add and remove, head-to-head records, the type-ahead."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Friendship
from games import services
from games.services import friends
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import start_game
from tests.records.helpers import quick_game

pytestmark = pytest.mark.django_db
ADD = reverse("records:friend_add")
REMOVE = reverse("records:friend_remove")
SUGGEST = reverse("records:friend_suggest")


def profile(user):
    return reverse("records:player", args=[user.username])


def test_a_friend_is_added_and_removed_from_the_profile(player, other_player):
    client = as_user(player)
    response = client.post(ADD, {"username": "bob"}, follow=True)
    assert "Bob is now among your friends." in response.content.decode()
    assert response.redirect_chain[-1][0] == profile(player)
    page = client.get(profile(player)).content.decode()
    assert "Add a friend by username" in page and "Remove Bob" in page
    response = client.post(REMOVE, {"friend": other_player.pk}, follow=True)
    assert "Bob is no longer among your friends." in response.content.decode()
    assert not friends.is_friend(player, other_player)


@pytest.mark.parametrize(
    "name, words",
    [
        ("alice", "That is you: you cannot add yourself as a friend."),
        ("ghost", "No player is called ghost."),
        ("<b>x</b>", "No player is called &lt;b&gt;x&lt;/b&gt;."),
    ],
)
def test_a_bad_friend_request_says_why_and_stores_nothing(player, name, words):
    response = as_user(player).post(ADD, {"username": name}, follow=True)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not Friendship.objects.exists()


def test_asking_twice_says_so_and_stores_one_row(player, other_player):
    client = as_user(player)
    client.post(ADD, {"username": "bob"})
    response = client.post(ADD, {"username": "bob"}, follow=True)
    assert "Bob is already your friend." in response.content.decode()
    assert Friendship.objects.count() == 1


def test_adding_is_rate_limited(player, other_player, settings):
    client = as_user(player)
    for _ in range(30):
        client.post(ADD, {"username": "ghost"})
    response = client.post(ADD, {"username": "bob"}, follow=True)
    assert "Too many friend requests" in response.content.decode()
    assert not Friendship.objects.exists()


def test_a_foreign_next_address_is_ignored(player, other_player):
    response = as_user(player).post(ADD, {"username": "bob", "next": "https://evil.example/"})
    assert response.url == profile(player)


@pytest.mark.parametrize("bare", ["-1", "x", "records:player", ""])
@pytest.mark.parametrize("url", [ADD, REMOVE])
def test_a_bare_word_next_leads_back_to_the_profile(player, other_player, url, bare):
    """`redirect("-1")` reads the word as a view name and answered 500."""
    response = as_user(player).post(
        url, {"username": "bob", "friend": other_player.pk, "next": bare}
    )
    assert response.status_code == 302
    assert response.url == profile(player)


def test_the_own_profile_shows_the_record_against_each_friend(player, other_player, carol):
    quick_game(player, other_player, seed=2)
    quick_game(other_player, player, seed=3)
    quick_game(player, other_player, seed=4)
    friends.add_friend(user=player, name="carol")
    rows = {r["friend"].username: r for r in as_user(player).get(profile(player)).context[
        "friend_rows"
    ]}  # fmt: skip
    assert (rows["bob"]["games"], rows["bob"]["wins"], rows["bob"]["losses"]) == (3, 2, 1)
    assert rows["carol"]["games"] == 0
    assert list(rows) == ["bob", "carol"]  # most games together first


def test_games_that_do_not_count_are_together_but_not_won(player, other_player):
    game = quick_game(player, other_player, seed=2)
    game.results.update(counts=False)
    row = as_user(player).get(profile(player)).context["friend_rows"][0]
    assert (row["games"], row["counted"], row["wins"], row["losses"]) == (1, 0, 0, 0)


def test_another_profile_shows_our_record_and_never_their_friends(player, other_player, carol):
    quick_game(other_player, player, seed=2)
    friends.add_friend(user=other_player, name="carol")
    page = as_user(player).get(profile(other_player)).content.decode()
    assert "You and Bob" in page and "you won 0, lost 1" in page
    assert "Remove from friends" in page
    assert "Carol" not in page
    page = as_user(player).get(profile(carol)).content.decode()
    assert "Add to friends" in page and "No finished games together yet." in page


def test_the_type_ahead_offers_only_friends_as_options(player, other_player, carol):
    UserFactory(username="bobcat")
    start_game(player, other_player)
    client = as_user(player)
    response = client.get(SUGGEST, {"friend_2": "bo"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<option value="bob">Bob</option>' in body and "bobcat" not in body
    assert client.get(SUGGEST, {"q": "car"}).content.decode().strip() == ""
    assert client.get(SUGGEST, {"q": "\x00" * 5}).status_code == 400  # the site refuses NUL
    assert "no-store" in response["Cache-Control"]


def test_the_invite_boxes_offer_friends_for_one_name_only(player, other_player):
    start_game(player, other_player)
    client = as_user(player)
    assert "bob" in client.get(SUGGEST, {"invite": "b"}).content.decode()
    assert client.get(SUGGEST, {"invite": "carol@example.com, b"}).content.decode().strip() == ""
    table = services.create_game(creator=player, players=3, side="A", spirits=False)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'list="invite-options"' in page and '<datalist id="invite-options">' in page


def test_the_friends_pages_need_a_login_and_the_right_method(player):
    assert Client().get(SUGGEST).status_code == 302
    assert Client().post(ADD, {"username": "alice"}).status_code == 302
    assert as_user(player).get(ADD).status_code == 405
    assert as_user(player).post(SUGGEST).status_code == 405


def test_the_leaderboard_friends_filter_follows_added_and_removed_friends(
    player, other_player, carol
):
    quick_game(player, other_player, seed=2)
    quick_game(carol, UserFactory(username="dave"), seed=3)
    client = as_user(player)

    def shown():
        response = client.get(reverse("records:leaderboards"), {"friends": "on"})
        return {row["username"] for row in response.context["rows"]}

    assert shown() == {"alice", "bob"}
    friends.add_friend(user=player, name="carol")
    assert shown() == {"alice", "bob", "carol"}
    friends.remove_friend(user=player, friend_id=str(other_player.pk))
    assert shown() == {"alice", "carol"}


def test_is_friend_gives_the_friend_lists_answer_in_every_case(player, other_player, carol):
    """`is_friend` asks the two players' own rows; it must agree with `friends_of`."""
    bot, gone, stranger, dropped = (
        UserFactory(bot_level="easy"),
        UserFactory(is_active=False),
        UserFactory(),
        UserFactory(),
    )
    start_game(player, other_player)  # played with
    services.create_game(creator=player, players=2, side="A", spirits=False, invitees=[stranger])
    friends.add_friend(user=player, name=carol.username)  # added
    Friendship.objects.create(user=player, friend=gone)
    start_game(player, dropped)
    friends.remove_friend(user=player, friend_id=str(dropped.pk))  # played with, then removed
    Friendship.objects.create(user=player, friend=bot)  # a row from before bots were refused
    everyone = [player, other_player, carol, bot, gone, stranger, dropped]
    listed = set(friends.friends_of(player).values_list("pk", flat=True))
    assert listed == {other_player.pk, carol.pk}
    for other in everyone:
        assert friends.is_friend(player, other) == (other.pk in listed), other.username
