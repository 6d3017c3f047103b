"""The clocks on the pages: the New game form's options and refusals, the table page's words, the
game page's deadline line and My games' end-date forecast (at a flat number of queries)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Game, Seat
from tests.clients import as_user
from tests.factories import UserFactory
from tests.games.helpers import play_turns, user_to_move

pytestmark = pytest.mark.django_db

# Wednesday 2 December 2026, 10:00 UTC.
START = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def new_game(client, **fields):
    data = {"players": 1, "side": "A", **fields}
    return client.post(reverse("games:new"), data)


def test_the_form_offers_both_clocks_and_the_weekend_pause(player):
    html = as_user(player).get(reverse("games:new")).content.decode()
    for words in ("A limit per turn", "A time bank", "Days in each player", "Hours added per move"):
        assert words in html
    assert "Pause at weekends" in html and "Saturday 00:00 to Monday 00:00" in html


def test_a_time_bank_game_is_created_with_its_clock(player):
    response = new_game(
        as_user(player), clock="bank", bank_days="5", increment_hours="8", pause_weekends="on"
    )
    assert response.status_code == 302
    game = Game.objects.get(created_by=player)
    assert (game.clock, game.bank_days, game.increment_hours, game.pause_weekends) == (
        "bank", 5, 8, True,
    )  # fmt: skip
    assert game.turn_limit_days is None
    assert Seat.objects.get(game=game).bank == timedelta(days=5)


def test_the_bank_boxes_are_ignored_with_a_limit_per_turn(player):
    """Without scripts the page posts every box: the clock chosen decides."""
    response = new_game(
        as_user(player), clock="turn", turn_limit_days="3", bank_days="abc", increment_hours="7"
    )
    assert response.status_code == 302
    game = Game.objects.get(created_by=player)
    assert (game.clock, game.turn_limit_days, game.bank_days, game.increment_hours) == (
        "turn", 3, None, 0,
    )  # fmt: skip


def test_an_older_page_without_a_clock_gets_the_limit_per_turn(player):
    assert new_game(as_user(player), turn_limit_days="7").status_code == 302
    game = Game.objects.get(created_by=player)
    assert (game.clock, game.turn_limit_days) == ("turn", 7)


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"clock": "bank", "bank_days": "-2", "increment_hours": "6"}, "1 to 30 days"),
        ({"clock": "bank", "bank_days": "0", "increment_hours": "0"}, "1 to 30 days"),
        ({"clock": "bank", "bank_days": "99999999999", "increment_hours": "6"}, "1 to 30 days"),
        ({"clock": "bank", "bank_days": "", "increment_hours": "6"}, "1 to 30 days"),
        ({"clock": "bank", "bank_days": "3", "increment_hours": "1000"}, "0 to 48 hours"),
        ({"clock": "bank", "bank_days": "3", "increment_hours": "0"}, "could never play again"),
        ({"clock": "bank", "bank_days": "3", "increment_hours": "2.5"}, "whole number"),
        (
            {"clock": "bank", "bank_days": "3", "increment_hours": "6", "turn_limit_days": "3"},
            "not both",
        ),
        ({"clock": "sundial"}, "Select a valid choice"),
        ({"clock": "turn", "pause_weekends": "on"}, "needs a time limit"),
        ({"clock": "turn", "turn_limit_days": "5"}, "Select a valid choice"),
    ],
)
def test_an_impossible_clock_is_refused_in_words_and_nothing_is_stored(player, fields, reason):
    response = new_game(as_user(player), **fields)
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert not Game.objects.filter(created_by=player).exists()


def bank_game(creator, friend, **more) -> Game:
    game = services.create_game(
        creator=creator, players=2, side="A", spirits=False, invitees=[friend],
        clock="bank", bank_days=2, increment_hours=6, **more,
    )  # fmt: skip
    services.join_game(game_id=game.pk, user=friend)
    game.refresh_from_db()
    return game


def test_the_table_page_says_which_clock(player, other_player):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player],
        clock="bank", bank_days=7, increment_hours=12, pause_weekends=True,
    )  # fmt: skip
    html = as_user(other_player).get(game.get_absolute_url()).content.decode()
    assert "Clock: A 7-day time bank, +12 h per move, paused at weekends." in html
    assert "a stand-in plays their turn" in html


def test_the_game_page_shows_each_player_the_bank_of_the_player_to_move(
    player, other_player, frozen
):
    game = bank_game(player, other_player)
    mover = user_to_move(game)
    waiting = other_player if mover == player else player
    frozen.shift(timedelta(hours=3, minutes=30))
    mine = as_user(mover).get(game.get_absolute_url()).content.decode()
    assert "Time bank: 1 day 20 h left (+6 h per move)." in mine
    theirs = as_user(waiting).get(game.get_absolute_url()).content.decode()
    assert f"{mover.public_name}&#39;s time bank: 1 day 20 h left (+6 h per move)." in theirs


def test_a_paused_weekend_is_said_on_the_game_page(player, other_player, frozen):
    frozen.move_to(datetime(2026, 12, 5, 12, 0, tzinfo=UTC))  # Saturday
    game = bank_game(player, other_player, pause_weekends=True)
    mover = user_to_move(game)
    html = as_user(mover).get(game.get_absolute_url()).content.decode()
    assert "Time bank: 2 days left" in html
    assert "Paused for the weekend until Monday 00:00 your time." in html


def test_my_games_forecasts_the_end_from_the_players_pace(player, other_player, frozen):
    game = bank_game(player, other_player)
    client = as_user(player)
    assert "end date: not enough turns yet" in client.get(reverse("games:mine")).content.decode()
    for _ in range(4):  # four turns, five hours each
        frozen.shift(timedelta(hours=5))
        play_turns(game, turns=1)
    game.refresh_from_db()
    html = client.get(reverse("games:mine")).content.decode()
    end = START + timedelta(hours=20) + timedelta(hours=5) * game.turns_left
    assert f"ends about {end.day} {end:%b}" in html


def test_my_games_forecasts_at_the_same_cost_for_one_game_or_many(player, frozen):
    def played_game() -> Game:
        game = bank_game(player, UserFactory())
        for _ in range(4):
            frozen.shift(timedelta(hours=2))
            play_turns(game, turns=1)
        return game

    played_game()
    client = as_user(player)
    client.get(reverse("games:mine"))
    with CaptureQueriesContext(connection) as one:
        assert "ends about" in client.get(reverse("games:mine")).content.decode()
    for _ in range(3):
        played_game()
    with CaptureQueriesContext(connection) as many:
        assert client.get(reverse("games:mine")).status_code == 200
    assert len(many) == len(one)
    assert not any('"games_game"."state"' in q["sql"] for q in many.captured_queries)
