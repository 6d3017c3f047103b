"""Game endpoints: what each role may do, and what a refusal looks like."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Game
from games.presenters.game import LOG_LENGTH
from tests.answers import answered
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import (
    first_legal,
    play_one_action,
    play_turns,
    start_game,
    user_to_move,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def mover(game):
    return user_to_move(game)


@pytest.fixture
def waiting(game, mover, player, other_player):
    return other_player if mover == player else player


def act(client, game, **fields):
    data = {"version": game.version, **fields}
    return client.post(reverse("games:act", args=[game.pk]), data)


def test_anonymous_visitors_are_sent_to_log_in(game):
    client = as_user(None)
    for url in [
        reverse("games:detail", args=[game.pk]),
        reverse("games:mine"),
        reverse("games:new"),
        reverse("games:lobby"),
    ]:
        response = client.get(url)
        assert answered(response) == 302 and "/accounts/login/" in response.url
    response = act(client, game, type="take_tokens", space=0)
    assert answered(response) == 302
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_stranger_can_neither_see_nor_play_a_game(game, stranger):
    client = as_user(stranger)
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert answered(response) == 403
    assert b"You are not playing in this game" in response.content
    response = act(client, game, type="take_tokens", space=0)
    assert answered(response) == 403
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_player_to_move_plays_and_is_sent_back_to_the_board(game, mover):
    response = act(as_user(mover), game, **first_legal(game))
    assert answered(response) == 302
    assert response.url == reverse("games:detail", args=[game.pk])
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_the_other_player_sees_the_game_but_cannot_act(game, waiting):
    client = as_user(waiting)
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert answered(response) == 200
    assert b"Waiting for" in response.content
    response = act(client, game, **first_legal(game))
    assert answered(response) == 409
    assert b"It is not your turn." in response.content
    assert Game.objects.get(pk=game.pk).version == game.version


def test_an_illegal_move_shows_the_reason_and_the_fresh_board(game, mover):
    response = act(as_user(mover), game, type="place_token", colour="blue", cell="0,0")
    assert answered(response) == 400
    assert b"message-error" in response.content
    assert b'id="my-board"' in response.content
    assert Game.objects.get(pk=game.pk).moves.count() == 0


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "take_tokens", "space": "-1"},
        {"type": "take_tokens", "space": "99999999999999999999"},
        {"type": "take_tokens"},
        {"type": "place_cube", "card_id": "<script>", "cell": "0,0"},
        {"type": "place_token", "colour": "purple", "cell": "9,9"},
        {"type": ""},
        {},
    ],
)
def test_forged_actions_get_a_4xx_and_change_nothing(game, mover, fields):
    response = act(as_user(mover), game, **fields)
    assert 400 <= answered(response) < 500
    assert b"<script>" not in response.content
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_stale_version_gets_the_fresh_board(game, mover):
    client = as_user(mover)
    action = first_legal(game)
    act(client, game, **action)
    response = act(client, game, **action)  # same version again: a double click
    assert answered(response) == 409
    assert b"The board changed" in response.content
    assert Game.objects.get(pk=game.pk).moves.count() == 1


def test_an_htmx_action_swaps_only_what_changed(game, mover):
    client = as_user(mover)
    response = client.post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, **first_legal(game)},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert answered(response) == 200
    swapped = set(re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', html))
    assert {"game-version", "central", "hand", "log"} <= swapped
    assert "display" not in swapped and "my-board" not in swapped


def test_once_the_log_is_full_an_htmx_move_sends_only_its_own_entry(game):
    rng = random.Random(3)
    while game.move_count < LOG_LENGTH or game.engine_state().taken_space is not None:
        play_one_action(game, rng)  # more moves than the page shows, then a turn's start
    before = game.move_count
    response = as_user(user_to_move(game)).post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, "type": "take_tokens", "space": 0},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert 'hx-swap-oob="afterbegin:#move-log"' in html
    assert re.findall(r'<li value="(\d+)"', html) == [str(before + 1)]
    assert 'id="log"' not in html  # the rest of the log stays as the page has it


def test_while_the_log_is_short_an_htmx_move_redraws_it(game, mover):
    response = as_user(mover).post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, **first_legal(game)},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert re.findall(r'<li value="(\d+)"', html) == ["1"]
    assert "afterbegin" not in html and 'id="move-log"' in html


def test_ending_the_turn_with_htmx_swaps_parts_and_starts_the_poll(game):
    rng = random.Random(5)
    while not any(isinstance(a, engine.EndTurn) for a in engine.legal_actions(game.engine_state())):
        play_one_action(game, rng)
    response = as_user(user_to_move(game)).post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, "type": "end_turn"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert answered(response) == 200 and "HX-Retarget" not in response
    swapped = set(re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', html))
    assert {"controls", "poll", "central", "display", "log"} <= swapped
    assert "others" not in swapped and "scores" not in swapped
    assert re.search(r'<div id="poll" hx-get="/games/\d+/poll/\?v=', html)


def test_an_htmx_refusal_redraws_the_whole_game(game, waiting):
    response = as_user(waiting).post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, **first_legal(game)},
        headers={"HX-Request": "true"},
    )
    assert answered(response) == 409
    assert response["HX-Retarget"] == "#game"
    assert b"It is not your turn." in response.content


def test_selecting_a_token_highlights_where_it_may_go(game, mover):
    client = as_user(mover)
    act(client, game, type="take_tokens", space=0)
    game.refresh_from_db()
    colour = game.engine_state().hand[0]
    response = client.get(
        reverse("games:detail", args=[game.pk]),
        {"token": colour, "fragment": "select"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    expected = engine.token_targets(game.engine_state(), colour)
    assert len(re.findall(r'class="hex[^"]*hex-target', html)) == len(expected) > 0
    assert "place_token" in html


def test_the_poll_answers_204_until_the_game_changes(
    game, mover, waiting, django_capture_on_commit_callbacks
):
    client = as_user(waiting)
    url = reverse("games:poll", args=[game.pk])
    assert client.get(url, {"v": game.version}).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        act(as_user(mover), game, **first_legal(game))
    response = client.get(url, {"v": game.version})
    assert answered(response) == 200
    assert response["HX-Trigger"] == "game-changed"
    assert answered(Client().get(reverse("games:poll", args=[999999]), {"v": 1})) == 404


def test_the_poll_costs_at_most_one_query(game, waiting, django_assert_max_num_queries):
    from django.core.cache import cache

    from games import presence

    cache.clear()
    client = as_user(waiting)
    url = reverse("games:poll", args=[game.pk])
    params = {"v": game.version, "p": presence.token_for(game.pk, waiting.pk)}  # as the page
    with django_assert_max_num_queries(1):
        client.get(url, params)
    with django_assert_max_num_queries(0):
        client.get(url, params)


def test_the_game_page_costs_the_same_queries_whatever_the_log_length(
    game, mover, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.games.helpers import play_turns

    client = as_user(mover)
    url = reverse("games:detail", args=[game.pk])
    with CaptureQueriesContext(connection) as fresh:
        assert client.get(url).status_code == 200
    first_look = len(fresh.captured_queries)  # read now: the connection keeps the last 9,000
    with CaptureQueriesContext(connection) as again:
        assert client.get(url).status_code == 200
    repeat = len(again.captured_queries)  # the log and the talk of this version are kept
    play_turns(game, turns=6)
    client.get(url)  # the first look after the others moved also reads and marks what changed
    with django_assert_num_queries(repeat):
        assert client.get(url).status_code == 200
    # One of them (issue 34): has the player finished 3 games, which folds the turn reminder.
    assert first_look <= 9 and repeat <= 6


def test_a_polling_page_marks_its_player_as_looking(game, waiting, stranger):
    from games import presence

    url = reverse("games:poll", args=[game.pk])
    assert not presence.is_looking(game.pk, waiting.pk)
    Client().get(url, {"v": game.version, "p": presence.token_for(game.pk, waiting.pk)})
    assert presence.is_looking(game.pk, waiting.pk)
    forged = presence.token_for(game.pk + 1, stranger.pk)
    Client().get(url, {"v": game.version, "p": forged})
    Client().get(url, {"v": game.version, "p": "garbage"})
    assert not presence.is_looking(game.pk, stranger.pk)


def test_the_presence_token_is_stable_between_page_views(game, waiting):
    import time_machine
    from django.utils import timezone

    from games import presence

    first = presence.token_for(game.pk, waiting.pk)
    with time_machine.travel(timezone.now() + timezone.timedelta(hours=1)):
        assert presence.token_for(game.pk, waiting.pk) == first


def test_the_whole_move_log_is_for_the_players(game, mover, stranger):
    from tests.games.helpers import play_turns

    play_turns(game, turns=8)
    url = reverse("games:log", args=[game.pk])
    response = as_user(mover).get(url)
    assert answered(response) == 200
    assert response.content.count(b"<li value=") == game.moves.count()
    assert answered(as_user(stranger).get(url)) == 403
    page = as_user(mover).get(reverse("games:detail", args=[game.pk])).content
    assert url.encode() in page  # the page shows the newest moves and links to the rest


# --- The page of the player to move stays live --------------------------------------------------


def _poll_url(html: str) -> str:
    return re.search(r'<div id="poll" hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")


def test_the_page_of_the_player_to_move_hears_of_a_resignation(
    player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player, UserFactory(username="carol", display_name="Carol"))
    mover = user_to_move(game)
    seated = [s.user for s in game.seats.select_related("user") if s.user != mover]
    page = as_user(mover).get(reverse("games:detail", args=[game.pk])).content.decode()
    url = _poll_url(page)
    assert f"v={game.version}" in url and "turn=mine" in url
    assert Client().get(url).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=game.pk, user=seated[0])  # during the mover's turn
    response = Client().get(url)
    assert response.status_code == 200 and response["HX-Trigger"] == "game-changed"


def test_a_poll_on_ones_own_turn_does_not_count_as_looking(game, mover):
    from games import presence

    page = as_user(mover).get(reverse("games:detail", args=[game.pk])).content.decode()
    presence_key_before = presence.last_seen(game.pk, mover.pk)
    Client().get(_poll_url(page))
    assert presence.last_seen(game.pk, mover.pk) == presence_key_before


def test_each_action_redraws_the_poll_with_the_new_version(game, mover):
    client = as_user(mover)
    response = client.post(
        reverse("games:act", args=[game.pk]),
        {"version": game.version, "type": "take_tokens", "space": 0},
        headers={"HX-Request": "true"},
    )
    game.refresh_from_db()
    html = response.content.decode()
    assert 'id="poll"' in html and f"v={game.version}&amp;" in html
    assert Client().get(_poll_url(html)).status_code == 204  # its own move is no news


def test_while_a_bot_plays_the_page_asks_every_second(player, settings):
    from games.services.bots import bots_for

    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, bots=bots_for(["easy"])
    )
    game.refresh_from_db()
    if user_to_move(game) == player:  # (the bot's task waits for a commit these tests never make)
        play_turns(game, 1)
    assert user_to_move(game).is_bot
    page = as_user(player).get(reverse("games:detail", args=[game.pk])).content.decode()
    every = re.search(r'<div id="poll"[^>]*hx-trigger="every (\d+)s"', page).group(1)
    assert int(every) == settings.AUTOMATIC_TURN_POLL_SECONDS < settings.GAME_POLL_SECONDS
