"""Moves told in words a player can follow on the board: never the engine's coordinates."""

import pytest
from django.urls import reverse

from games import engine
from games.narration import cell_words, describe
from tests.games.helpers import start_game, user_to_move
from tests.games.views.test_game import act, as_user


@pytest.mark.parametrize(
    ("cell", "words"),
    [
        ("0,0", "column 1, 1st from the top"),
        ("1,2", "column 2, 3rd from the top"),
        ("4,4", "column 5, 5th from the top"),
        ("3,10", "column 4, 11th from the top"),
    ],
)
def test_a_hex_is_named_by_its_column_and_place_in_it(cell, words):
    assert cell_words(cell) == words


def test_the_log_names_hexes_in_words():
    placed = describe({"type": "place_token", "colour": "yellow", "cell": "4,4"}, {}, "Ann")
    cube = describe({"type": "place_cube", "card_id": "A01", "cell": "1,0"}, {}, "Bob")

    assert placed == "Ann placed a field token (yellow) in column 5, 5th from the top."
    assert "in column 2, 1st from the top" in cube
    assert "4,4" not in placed and "1,0" not in cube


@pytest.mark.django_db
def test_the_form_without_javascript_names_hexes_in_words(player, other_player):
    game = start_game(player, other_player)
    mover = user_to_move(game)
    client = as_user(mover)
    act(client, game, type="take_tokens", space=0)
    game.refresh_from_db()
    colour = game.engine_state().hand[0]
    target = engine.token_targets(game.engine_state(), colour)[0]

    html = client.get(reverse("games:detail", args=[game.pk]), {"token": colour}).content.decode()

    assert f'<option value="{target}">{cell_words(target)}</option>' in html
    assert f"<option>{target}</option>" not in html


@pytest.mark.django_db
def test_the_score_table_puts_the_viewers_column_first():
    from games.presenters.game import game_page
    from tests.factories import UserFactory

    players = [UserFactory(display_name=name) for name in ("Ann", "Bob", "Cat")]
    game = start_game(*players)
    seats = list(game.seats.select_related("user"))
    for seat in seats:
        context = game_page(game, seats, seat)
        assert context["player_names"][0] == seat.user.display_name
