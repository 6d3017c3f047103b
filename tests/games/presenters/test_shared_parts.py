"""What every viewer of a game version shares (games/presenters/shared_parts.py): kept once,
never stale, and each viewer still sees it in their own time zone."""

import random
import re
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.presenters import shared_parts
from games.presenters.talk import Conversation
from games.services import talk
from tests.games.helpers import play_one_action, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(player, other_player):
    game = start_game(player, other_player)
    rng = random.Random(1)
    for _ in range(4):
        game.refresh_from_db()
        play_one_action(game, rng)
    game.refresh_from_db()
    return game


def page(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def log_clocks(html: str) -> list[str]:
    return re.findall(
        r'<li value="\d+"><time datetime="[^"]+" title="[^"]+">(\d\d:\d\d)</time>', html
    )


def test_each_viewer_reads_the_log_in_their_own_time_zone(game, player, other_player):
    player.time_zone, other_player.time_zone = "Asia/Tokyo", "America/New_York"
    player.save()
    other_player.save()
    tokyo = log_clocks(page(player, game))
    new_york = log_clocks(page(other_player, game))  # the same kept log, drawn for New York
    assert tokyo and len(tokyo) == len(new_york)
    hours = {(int(t[:2]) - int(n[:2])) % 24 for t, n in zip(tokyo, new_york, strict=True)}
    assert hours <= {13, 14}  # Tokyo is 13 or 14 hours ahead, whatever the season


def log_entries(html: str) -> list[str]:
    return re.findall(r'<li value="(\d+)">', html)


def test_a_new_move_makes_a_new_log_and_new_pictures(game, player, other_player):
    before = page(player, game)
    assert log_entries(page(other_player, game)) == log_entries(before)  # the kept log
    kept = set(shared_parts.pictures._items)
    play_one_action(game, random.Random(2))
    game.refresh_from_db()
    after = page(player, game)
    assert log_entries(after)[0] == str(int(log_entries(before)[0]) + 1)
    assert set(shared_parts.pictures._items) - kept  # pictures of the new version


def test_a_hidden_message_leaves_every_page_at_once(game, player, other_player):
    message = talk.post(game_id=game.pk, user=player, text="something rude")
    game.refresh_from_db()
    assert "something rude" in page(other_player, game)
    talk.hide(type(message).objects.filter(pk=message.pk))
    game.refresh_from_db()
    assert "something rude" not in page(other_player, game)


def test_the_page_is_drawn_from_the_database_when_the_cache_is_down(game, player):
    expected = log_clocks(page(player, game))
    shared_parts.logs.clear()  # as in another process, which has not read this log yet
    down = ConnectionError("Redis is down")
    with (
        mock.patch.object(shared_parts.cache, "get", side_effect=down),
        mock.patch.object(shared_parts.cache, "set", side_effect=down),
    ):
        assert log_clocks(page(player, game)) == expected


def test_a_process_reads_a_kept_log_from_the_shared_cache_once(game, player, other_player):
    first = page(player, game)
    with mock.patch.object(shared_parts.cache, "get", wraps=shared_parts.cache.get) as get:
        again = page(player, game)
    assert not [c for c in get.call_args_list if str(c.args[0]).startswith("game-log:")]
    assert log_entries(again) == log_entries(first)
    shared_parts.logs.clear()  # as in another process: it asks the shared cache
    with mock.patch.object(shared_parts.cache, "get", wraps=shared_parts.cache.get) as get:
        assert log_entries(page(other_player, game)) == log_entries(first)
    assert [c for c in get.call_args_list if str(c.args[0]).startswith("game-log:")]


def test_the_kept_talk_carries_no_private_field_of_its_authors(game, player, other_player):
    talk.post(game_id=game.pk, user=player, text="hello")
    game.refresh_from_db()
    seat = game.seats.get(user=other_player)
    (message,) = Conversation(game, seat, other_player.pk).messages
    assert message.author.public_name == player.public_name
    assert {"password", "email"} <= message.author.get_deferred_fields()


def test_a_game_nobody_wrote_in_reads_no_talk_and_a_renamed_player_is_renamed_in_the_log(
    game, player, other_player
):
    with mock.patch.object(shared_parts, "talk_messages") as talk_messages:
        page(player, game)
    talk_messages.assert_not_called()  # talk version 0: never a message to read
    newest = Move.objects.filter(game=game).latest("seq")
    mover = game.seats.select_related("user").get(position=newest.seat).user
    mover.display_name = "Renamed Mover"
    mover.save()
    assert "Renamed Mover" in page(other_player, game).split('id="move-log"')[1]
