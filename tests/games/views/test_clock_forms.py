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


def test_the_table_page_of_a_bank_with_nothing_added_never_says_it_is_topped_up(
    player, other_player
):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player],
        clock="bank", bank_days=3, increment_hours=0, on_timeout="drop",
    )  # fmt: skip
    html = as_user(other_player).get(game.get_absolute_url()).content.decode()
    assert "Clock: A 3-day time bank, no time added per move." in html
    assert "Each player's bank is spent on their own turns; when it runs out" in html
    assert "topped up" not in html and "+0 h" not in html


def test_the_lobby_says_each_open_tables_clock_before_anyone_joins(player, other_player):
    services.create_game(
        creator=player, players=2, side="A", spirits=False, public=True,
        clock="bank", bank_days=7, increment_hours=12, pause_weekends=True,
    )  # fmt: skip
    services.create_game(
        creator=player, players=2, side="B", spirits=False, public=True, turn_limit_days=1
    )
    html = as_user(other_player).get(reverse("games:lobby")).content.decode()
    assert "a 7-day time bank, +12 h per move, paused at weekends" in html
    assert "1 day per turn" in html


def test_the_invitation_page_of_a_newcomer_says_the_clock(player, client):
    from urllib.parse import urlsplit

    from games.mail.tables import invitation_url

    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, emails=["new@example.com"],
        turn_limit_days=3, pause_weekends=True,
    )  # fmt: skip
    url = invitation_url(game.invitations.get())
    html = client.get(urlsplit(url).path, follow=True).content.decode()
    assert "2 players, side A; 3 days per turn, paused at weekends." in html


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


def test_a_waiting_player_sees_their_own_bank_and_a_watcher_none(
    player, other_player, client, frozen
):
    from games.services import watching

    game = bank_game(player, other_player)
    watching.set_open(game_id=game.pk, user=player, open_to_watchers=True)
    first = user_to_move(game)
    second = other_player if first == player else player
    theirs = as_user(second).get(game.get_absolute_url()).content.decode()
    assert (
        f"{first.public_name}&#39;s time bank: 2 days left (+6 h per move). Your bank: 2 days."
        in theirs
    )
    frozen.shift(timedelta(hours=10))
    game = play_turns(game, turns=1)  # 2 days, less 10 h, plus 6 h
    frozen.shift(timedelta(hours=1))
    mine = as_user(first).get(game.get_absolute_url()).content.decode()
    assert (
        f"{second.public_name}&#39;s time bank: 1 day 23 h left (+6 h per move). "
        "Your bank: 1 day 20 h.</p>"
    ) in mine
    moving = as_user(second).get(game.get_absolute_url()).content.decode()
    assert "Time bank: 1 day 23 h left (+6 h per move).</p>" in moving  # the mover: one bank
    watched = client.get(reverse("games:watch", args=[game.pk])).content.decode()
    assert "time bank: 1 day 23 h left (+6 h per move).</p>" in watched
    assert "Your bank" not in watched
    # A player who left the game has no more turns: no bank of theirs is told.
    from games.presenters.clocks import clock_line

    seats = {seat.user_id: seat for seat in game.seats.select_related("user")}
    seats[first.pk].resigned_at = START
    assert "Your bank" not in clock_line(game, seats[second.pk], seats[first.pk])
    assert clock_line(game, seats[second.pk], seats[second.pk]).startswith("Time bank:")


def test_a_paused_weekend_is_said_on_the_game_page(player, other_player, frozen):
    frozen.move_to(datetime(2026, 12, 5, 12, 0, tzinfo=UTC))  # Saturday
    game = bank_game(player, other_player, pause_weekends=True)
    mover = user_to_move(game)
    html = as_user(mover).get(game.get_absolute_url()).content.decode()
    assert "Time bank: 2 days left" in html
    assert "Paused for the weekend until Monday 00:00 your time." in html


def test_a_waiting_players_own_bank_comes_after_the_movers_paused_weekend(
    player, other_player, frozen
):
    frozen.move_to(datetime(2026, 12, 5, 12, 0, tzinfo=UTC))  # Saturday
    game = bank_game(player, other_player, pause_weekends=True)
    mover = user_to_move(game)
    waiting = other_player if mover == player else player
    html = as_user(waiting).get(game.get_absolute_url()).content.decode()
    assert (
        f"{mover.public_name}&#39;s time bank: 2 days left (+6 h per move). Paused for "
        f"{mover.public_name}&#39;s weekend until Monday 00:00 your time. Your bank: 2 days.</p>"
    ) in html


def test_a_paused_weekend_is_told_to_each_viewer_in_their_own_time_and_no_zone_to_watchers(
    player, other_player, client, frozen
):
    from games.services import watching

    frozen.move_to(datetime(2026, 12, 5, 12, 0, tzinfo=UTC))  # Saturday
    player.time_zone, other_player.time_zone = "Europe/Paris", "America/Los_Angeles"
    for user in (player, other_player):
        user.save(update_fields=["time_zone"])
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player],
        turn_limit_days=3, pause_weekends=True,
    )  # fmt: skip
    services.join_game(game_id=game.pk, user=other_player)
    watching.set_open(game_id=game.pk, user=player, open_to_watchers=True)
    mover = user_to_move(game)
    waiting = other_player if mover == player else player
    # Monday 00:00 in Paris is Sunday 15:00 in Los Angeles; Monday 00:00 in Los Angeles is
    # Monday 09:00 in Paris.
    told = "Sunday 15:00" if mover == player else "Monday 09:00"
    html = as_user(mover).get(game.get_absolute_url()).content.decode()
    assert "Paused for the weekend until Monday 00:00 your time." in html
    html = as_user(waiting).get(game.get_absolute_url()).content.decode()
    assert f"Paused for {mover.public_name}&#39;s weekend until {told} your time." in html
    html = client.get(reverse("games:watch", args=[game.pk])).content.decode()
    assert f"Paused for {mover.public_name}&#39;s weekend until Monday 00:00 their time." in html
    assert mover.time_zone not in html


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


def test_my_games_never_forecasts_an_end_before_the_player_to_move_is_back(
    player, other_player, frozen
):
    from datetime import date

    from accounts.models import set_away

    game = bank_game(player, other_player)
    for _ in range(4):
        frozen.shift(timedelta(hours=5))
        play_turns(game, turns=1)
    mover = user_to_move(game)
    set_away(mover, date(2026, 12, 28))
    mover.refresh_from_db()
    game.refresh_from_db()
    html = as_user(player).get(reverse("games:mine")).content.decode()
    # Back on 29 December: the rest of the game, five hours a turn, comes after that.
    end = mover.back_at + timedelta(hours=5) * game.turns_left
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


@pytest.mark.parametrize(
    ("clock", "mine", "theirs"),
    [
        ({}, "You are away until 9 December.</p>", "is away until 9 December.</p>"),
        (
            {"turn_limit_days": 3},
            "You are away until 9 December: the time limit of this turn waits for your return.",
            "is away until 9 December: the time limit of this turn waits for their return.",
        ),
        (
            {"clock": "bank", "bank_days": 2, "increment_hours": 6},
            "You are away until 9 December: your time bank waits for your return.",
            "is away until 9 December: their time bank waits for their return.",
        ),
    ],
)
def test_the_away_note_names_the_clock_that_waits_and_none_without_a_clock(
    player, other_player, clock, mine, theirs
):
    from datetime import date

    from accounts.models import set_away

    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player], **clock
    )
    services.join_game(game_id=game.pk, user=other_player)
    mover = user_to_move(game)
    waiting = other_player if mover == player else player
    set_away(mover, date(2026, 12, 9))
    assert mine in as_user(mover).get(game.get_absolute_url()).content.decode()
    assert theirs in as_user(waiting).get(game.get_absolute_url()).content.decode()
