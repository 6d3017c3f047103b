"""The plan on the game page and the plan pad: the author's alone, kept without a move, every
refusal in words with nothing stored."""

import pytest
from django.urls import reverse

from games import engine
from games.models import Game, Plan
from games.presenters import plans as plan_pages
from games.presenters.plans import PENCIL_CLASS
from games.services import plans
from tests.answers import answered
from tests.clients import as_user
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db

NOTE = "Secret plan: herons by the river, planted"
HX = {"HX-Request": "true"}


def empty_cells(game: Game, user) -> list[str]:
    state = game.engine_state()
    position = game.seats.get(user=user).position
    geo = engine.geometry(game.side)
    return [geo.names[i] for i, s in enumerate(state.players[position].stacks) if not s]


@pytest.fixture
def waiting_game(player, other_player):
    """A game in which `player` waits for `other_player`."""
    game = start_game(player, other_player)
    if user_to_move(game) == player:
        game = play_turns(game, turns=1)
    return game


def test_the_author_sees_their_notes_and_the_other_player_does_not(
    waiting_game, player, other_player
):
    plans.save_notes(game_id=waiting_game.pk, user=player, notes=NOTE)
    mine = as_user(player).get(waiting_game.get_absolute_url()).content.decode()
    theirs = as_user(other_player).get(waiting_game.get_absolute_url()).content.decode()
    assert NOTE in mine and 'id="plan"' in mine
    assert NOTE not in theirs  # their own plan is empty
    assert "Open the plan pad" in mine


def test_notes_post_plainly_and_with_htmx_and_bump_no_version(waiting_game, player):
    client = as_user(player)
    url = reverse("games:plan-notes", args=[waiting_game.pk])
    response = client.post(url, {"notes": "first"})
    assert response.status_code == 302
    assert response["Location"] == waiting_game.get_absolute_url() + "#plan"
    response = client.post(url, {"notes": "second"}, headers=HX)
    assert response.status_code == 200 and "Saved at" in response.content.decode()
    assert Plan.objects.get().notes == "second"
    assert Game.objects.get(pk=waiting_game.pk).version == waiting_game.version


def test_a_note_of_100000_characters_is_refused_with_the_limit(waiting_game, player):
    url = reverse("games:plan-notes", args=[waiting_game.pk])
    for headers in ({}, HX):
        response = as_user(player).post(url, {"notes": "y" * 100_000}, headers=headers)
        assert answered(response) == 400
        assert "5,000" in response.content.decode()
    assert not Plan.objects.exists()


def test_a_stranger_cannot_read_or_write_a_plan(waiting_game, player, stranger, client):
    plans.save_notes(game_id=waiting_game.pk, user=player, notes=NOTE)
    pad = reverse("games:plan", args=[waiting_game.pk])
    notes = reverse("games:plan-notes", args=[waiting_game.pk])
    assert as_user(stranger).get(pad).status_code == 403
    assert NOTE not in as_user(stranger).get(pad).content.decode()
    assert as_user(stranger).post(notes, {"notes": "overwritten"}).status_code == 403
    assert client.get(pad).status_code == 302  # to log in
    assert Plan.objects.get().notes == NOTE


def test_the_pad_pencils_a_legal_hex_and_refuses_the_rest(waiting_game, player):
    client = as_user(player)
    cell = empty_cells(waiting_game, player)[0]
    pencil = reverse("games:plan-pencil", args=[waiting_game.pk])
    response = client.post(pencil, {"cell": cell, "colour": "blue", "back": "pad"})
    assert response.status_code == 302 and response["Location"].endswith("/plan/?colour=blue")
    # Water takes nothing on top; a forged colour or hex is refused as plainly.
    for data in (
        {"cell": cell, "colour": "green"},
        {"cell": cell, "colour": "purple"},
        {"cell": "42,42", "colour": "blue"},
    ):
        response = client.post(pencil, {**data, "back": "pad"})
        assert response.status_code == 400, data
    assert Plan.objects.get().marks == [{"cell": cell, "colour": "blue"}]
    page = client.get(reverse("games:plan", args=[waiting_game.pk]), {"colour": "green"})
    html = page.content.decode()
    assert page.status_code == 200
    assert PENCIL_CLASS in html and "pencilled in your plan" in html
    assert "Pencil a foliage token (green) on" in html  # the clickable hexes say what they do


def test_an_htmx_pencil_stroke_answers_the_pad_with_the_reason(waiting_game, player):
    client = as_user(player)
    cell = empty_cells(waiting_game, player)[0]
    pencil = reverse("games:plan-pencil", args=[waiting_game.pk])
    ok = client.post(pencil, {"cell": cell, "colour": "yellow", "back": "pad"}, headers=HX)
    assert ok.status_code == 200 and 'id="pad"' in ok.content.decode()
    refused = client.post(pencil, {"cell": cell, "colour": "gray", "back": "pad"}, headers=HX)
    assert answered(refused) == 400
    assert "cannot be pencilled there" in refused.content.decode()
    assert 'id="pad"' in refused.content.decode()


def test_on_their_turn_the_page_lists_the_pencilled_hexes_and_rings_them(
    waiting_game, player, other_player
):
    game = play_turns(waiting_game, turns=1)  # other_player's turn ends: the player's comes
    assert user_to_move(game) == player
    cells = empty_cells(game, player)
    central = game.engine_state().central
    offered = central[0][0]
    plans.pencil(game_id=game.pk, user=player, cell=cells[0], colour=offered)
    plans.pencil(game_id=game.pk, user=player, cell=cells[1], colour="blue")
    html = as_user(player).get(game.get_absolute_url()).content.decode()
    assert "Pencilled on your board" in html
    spaces = [str(i + 1) for i, space in enumerate(central) if offered in space]
    assert f"{', '.join(spaces)} of the central board offer" in html
    assert html.count(f'class="hex hex-empty {PENCIL_CLASS}"') == 2
    theirs = as_user(other_player).get(game.get_absolute_url()).content.decode()
    assert PENCIL_CLASS not in theirs and "Pencilled on your board" not in theirs


def test_a_hex_filled_since_it_was_pencilled_is_said_to_be_impossible(player, other_player):
    game = play_turns(start_game(player, other_player), turns=4)
    while user_to_move(game) != player:
        game = play_turns(game, turns=1)
    position = game.seats.get(user=player).position
    geo = engine.geometry(game.side)
    stacks = game.engine_state().players[position].stacks
    filled = next(geo.names[i] for i, s in enumerate(stacks) if s)
    # Pencilled while the hex was empty; the player's own token went there since.
    plans.save_notes(game_id=game.pk, user=player, notes="")
    Plan.objects.update(marks=[{"cell": filled, "colour": "blue"}])
    html = as_user(player).get(game.get_absolute_url()).content.decode()
    assert "not possible any more" in html
    assert PENCIL_CLASS not in html  # only hexes that still take the token are ringed


def test_a_colour_no_space_offers_is_not_possible_this_turn(game, player):
    cell = empty_cells(game, player)[0]
    plans.pencil(game_id=game.pk, user=player, cell=cell, colour="green")
    game.refresh_from_db()  # it now says that this seat has a plan
    seat = game.seats.get(user=player)
    view = {"taken_space": None, "central": [["blue", "gray", "red"]], "hand": []}
    panel = plan_pages.for_page(game, seat, game.engine_state(), view, my_turn=True)
    assert panel.rows[0].fits and not panel.rows[0].possible and panel.rows[0].spaces == ()
    view = {"taken_space": 0, "central": [[]], "hand": ["green"]}
    panel = plan_pages.for_page(game, seat, game.engine_state(), view, my_turn=True)
    assert panel.rows[0].in_hand and panel.rows[0].possible


def test_a_finished_game_has_no_pad(player, other_player):
    game = play_to_the_end(start_game(player, other_player))
    assert as_user(player).get(reverse("games:plan", args=[game.pk])).status_code == 409
