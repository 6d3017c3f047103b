"""A private table's talk stays between its players once the game is over; a public table's is
then open to anyone logged in, and its players are told so while they write.

Every page that draws a game (or offers its talk) is asked by a stranger: the talk page and its
htmx fragment, the game page and its fragments and poll, the replay, the score sheet, the JSON
export and the histories."""

import html

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.services import talk
from tests.answers import answered
from tests.clients import as_user
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
SECRET = "Meet me at the old mill at nine"


def ended_game(player, other_player, *, public: bool = False) -> Game:
    """A game whose players talked, over once one of them resigned."""
    game = start_game(player, other_player)
    Game.objects.filter(pk=game.pk).update(public=public)
    talk.post(game_id=game.pk, user=player, text=SECRET)
    services.resign(game_id=game.pk, user=other_player)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def private_game(player, other_player) -> Game:
    return ended_game(player, other_player)


def shows_no_talk(response) -> bool:
    return SECRET not in html.unescape(response.content.decode())


def test_a_stranger_cannot_read_a_private_games_talk_page_once_it_is_over(private_game, stranger):
    response = as_user(stranger).get(reverse("games:talk", args=[private_game.pk]))
    assert answered(response) == 403 and shows_no_talk(response)
    assert b"not playing in this game" in response.content


def test_a_stranger_cannot_fetch_a_private_games_talk_fragment(private_game, stranger):
    url = reverse("games:talk", args=[private_game.pk])
    response = as_user(stranger).get(url, headers=HTMX)
    assert answered(response) == 403 and shows_no_talk(response)


def test_a_stranger_cannot_read_the_talk_on_the_game_page_or_its_fragments(private_game, stranger):
    url = reverse("games:detail", args=[private_game.pk])
    client = as_user(stranger)
    for response in (
        client.get(url),
        client.get(url + "?fragment=game", headers=HTMX),
        client.get(url + "?fragment=select", headers=HTMX),
    ):
        assert answered(response) == 403 and shows_no_talk(response)


def test_a_stranger_learns_nothing_from_the_poll(private_game, stranger):
    url = reverse("games:poll", args=[private_game.pk])
    response = as_user(stranger).get(url, {"v": 0, "t": 0})
    assert answered(response) == 404 and shows_no_talk(response)


def test_a_stranger_finds_no_talk_in_the_replay(private_game, stranger):
    url = reverse("records:replay", args=[private_game.pk])
    for response in (
        as_user(stranger).get(url, {"move": 3}),
        as_user(stranger).get(url, {"move": 3}, headers=HTMX),
    ):
        assert answered(response) == 200 and shows_no_talk(response)
        assert reverse("games:talk", args=[private_game.pk]) not in response.content.decode()


def test_a_stranger_is_offered_no_talk_on_the_score_sheet(private_game, stranger, player):
    url = reverse("records:sheet", args=[private_game.pk])
    talk_url = reverse("games:talk", args=[private_game.pk])
    response = as_user(stranger).get(url)
    assert answered(response) == 200 and shows_no_talk(response)
    assert talk_url not in response.content.decode()
    assert talk_url in as_user(player).get(url).content.decode()  # its players keep the link


def test_a_stranger_finds_no_talk_in_the_export(private_game, stranger):
    response = as_user(stranger).get(reverse("records:export", args=[private_game.pk]))
    assert answered(response) == 200 and shows_no_talk(response)
    assert "talk" not in response.json() and "messages" not in response.json()


def test_a_stranger_finds_no_talk_in_the_histories(private_game, stranger, player):
    client = as_user(stranger)
    for response in (
        client.get(reverse("records:history")),
        client.get(reverse("records:player", args=[player.username])),
    ):
        assert answered(response) == 200 and shows_no_talk(response)
        assert reverse("games:talk", args=[private_game.pk]) not in response.content.decode()


def test_the_players_still_read_a_private_games_talk_once_it_is_over(private_game, player):
    url = reverse("games:talk", args=[private_game.pk])
    for user in private_game.seats.values_list("user", flat=True):
        client = as_user(type(player).objects.get(pk=user))
        for response in (client.get(url), client.get(url, headers=HTMX)):
            assert answered(response) == 200 and not shows_no_talk(response)


def test_a_public_tables_talk_is_open_to_anyone_logged_in_once_it_is_over(
    player, other_player, stranger
):
    game = ended_game(player, other_player, public=True)
    response = as_user(stranger).get(reverse("games:talk", args=[game.pk]))
    assert answered(response) == 200 and not shows_no_talk(response)
    sheet = as_user(stranger).get(reverse("records:sheet", args=[game.pk]))
    assert reverse("games:talk", args=[game.pk]) in sheet.content.decode()


@pytest.mark.parametrize(
    ("public", "words"),
    [
        (False, "Only this game's players can read this talk, also once the game is over."),
        (True, "This table is public: once the game is over, anyone logged in can read this talk."),
    ],
)
def test_the_players_are_told_who_reads_the_talk_while_they_write(
    player, other_player, public, words
):
    game = start_game(player, other_player)
    Game.objects.filter(pk=game.pk).update(public=public)
    page = as_user(player).get(reverse("games:detail", args=[game.pk]))
    assert words in html.unescape(page.content.decode())


@pytest.mark.parametrize("public", [False, True])
def test_a_table_channel_is_told_instead_of_only_the_players_reading_the_talk(
    player, other_player, public
):
    """A table's chat channel posts every message out: "Only this game's players can read this
    talk" would then be untrue, so the channel's sentence says who else reads it instead (a
    public table's sentence stays true beside it)."""
    from webhooks import channels
    from webhooks.models import Webhook

    game = start_game(player, other_player)
    Game.objects.filter(pk=game.pk).update(public=public)
    Webhook.objects.create(owner=player, game=game, kind="slack", url="https://hooks.slack.com/x")
    channels.refresh(game.pk)
    client = as_user(other_player)
    said = f"Every message also goes to Slack, the table's channel set by {player.public_name}."
    public_words = "This table is public: once the game is over, anyone logged in can read"
    url = reverse("games:talk", args=[game.pk])
    for response in (client.get(game.get_absolute_url()), client.get(url, headers=HTMX)):
        page = html.unescape(response.content.decode())
        assert said in page
        assert "Only this game's players can read this talk" not in page
        assert (public_words in page) is public
