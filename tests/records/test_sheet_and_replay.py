"""A finished game's score sheet and its replay: open to every player once the game is over."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import engine
from games.pictures.boards import board_svg
from games.pictures.sprite import sprite_url
from records.models import SeatResult
from tests.clients import as_user
from tests.games.helpers import play_to_the_end, play_turns, start_game
from tests.records.helpers import quick_game, real_game

pytestmark = pytest.mark.django_db


def sheet_url(game) -> str:
    return reverse("records:sheet", args=[game.pk])


def replay_url(game, move=None) -> str:
    url = reverse("records:replay", args=[game.pk])
    return url if move is None else f"{url}?move={move}"


@pytest.fixture
def finished(player, other_player):
    return quick_game(player, other_player, spirits=True)


@pytest.fixture
def played(player, other_player, django_capture_on_commit_callbacks):
    """Played through the site, as players do."""
    return real_game(django_capture_on_commit_callbacks, player, other_player, spirits=True)


@pytest.fixture
def in_progress(player, other_player):
    return play_turns(start_game(player, other_player), 2)


def boards_of(state, side) -> list[str]:
    view = engine.view_for(state, None)
    return [
        board_svg(side, p["stacks"], p["cube_hexes"], sprite=sprite_url()) for p in view["players"]
    ]


def without_titles(svg: str) -> str:
    return svg.split(">", 1)[1]  # the <svg ...> tag carries the player's name; the hexes do not


# --- Guards ---------------------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(finished):
    for url in (sheet_url(finished), replay_url(finished)):
        response = as_user(None).get(url)
        assert response.status_code == 302 and "/accounts/login/" in response.url


def test_an_unfinished_game_has_no_sheet_or_replay(in_progress, player, stranger):
    for user in (player, stranger):
        for url in (sheet_url(in_progress), replay_url(in_progress, 1)):
            response = as_user(user).get(url)
            assert response.status_code == 403
            assert b"not over" in response.content


def test_a_missing_game_is_404(player):
    assert as_user(player).get(reverse("records:sheet", args=[99999])).status_code == 404
    assert as_user(player).get(reverse("records:replay", args=[99999])).status_code == 404


# --- Score sheet ----------------------------------------------------------------------------------


def test_any_player_can_read_the_sheet_of_a_finished_game(played, stranger):
    finished = played
    response = as_user(stranger).get(sheet_url(finished))
    assert response.status_code == 200
    html = response.content.decode()
    assert str(finished.seed) not in html
    assert "(provisional)" not in html
    for result in SeatResult.objects.filter(game=finished):
        assert f"{result.total} points" in html
    assert "Game page" not in html  # only for the players at the table
    assert "Game page" in as_user(finished.created_by).get(sheet_url(finished)).content.decode()


def test_the_sheet_reads_the_stored_results(finished, stranger):
    SeatResult.objects.filter(game=finished).update(trees=99)  # what the page shows comes from here
    response = as_user(stranger).get(sheet_url(finished))
    assert response.context["score_rows"][0]["values"] == [99, 99]


def test_the_sheet_is_provisional_until_recorded(player, other_player, stranger):
    game = start_game(player, other_player)
    play_to_the_end(game)  # the end-of-game tasks are still waiting for the commit
    response = as_user(stranger).get(sheet_url(game))
    assert response.status_code == 200
    assert response.context["provisional"]
    assert b"(provisional)" in response.content
    sheets = engine.score_sheets(game.engine_state())
    assert response.context["score_rows"][-2]["values"] == [s.total for s in sheets]


# --- Replay ---------------------------------------------------------------------------------------


def test_the_first_step_is_the_set_up_table(finished, stranger):
    response = as_user(stranger).get(replay_url(finished))
    assert response.status_code == 200
    assert response.context["upto"] == 0
    assert response.context["state"] == engine.new_game(finished.config, finished.seed)
    assert b"The game is set up" in response.content


def test_a_middle_step_shows_the_table_after_that_many_moves(finished, stranger):
    moves = list(finished.moves.order_by("seq").values_list("action", flat=True))
    middle = len(moves) // 2
    response = as_user(stranger).get(replay_url(finished, middle))
    assert response.context["upto"] == middle
    expected = engine.replay(finished.config, finished.seed, moves[:middle])
    assert response.context["state"] == expected
    html = response.content.decode()
    assert f"Move {middle} of {len(moves)}" in html
    assert f"?move={middle - 1}" in html and f"?move={middle + 1}" in html
    for board in boards_of(expected, finished.side):
        assert without_titles(board) in html


def test_the_last_step_is_the_final_stored_board(played, stranger):
    total = played.moves.count()
    response = as_user(stranger).get(replay_url(played, total))
    assert engine.state_to_json(response.context["state"]) == played.state
    html = response.content.decode()
    for board in boards_of(played.engine_state(), played.side):
        assert without_titles(board) in html
    assert str(played.seed) not in html
    assert "The game is over." in html


@pytest.mark.parametrize("asked, shown", [("-3", 0), ("abc", 0), ("", 0), ("100000", "total")])
def test_out_of_range_steps_clamp_to_the_log(finished, stranger, asked, shown):
    total = finished.moves.count()
    response = as_user(stranger).get(replay_url(finished), {"move": asked})
    assert response.status_code == 200
    assert response.context["upto"] == (total if shown == "total" else shown)


def test_each_step_says_what_the_move_did(finished, stranger):
    first = finished.moves.get(seq=1)
    response = as_user(stranger).get(replay_url(finished, 1))
    name = finished.seats.get(position=first.seat).user.public_name
    assert response.context["said"].startswith(name)
    assert escape(response.context["said"]) in response.content.decode()


def test_turns_can_be_jumped_to(finished, stranger):
    response = as_user(stranger).get(replay_url(finished, 0))
    turns = response.context["turns"]
    assert turns[0] == {"turn": 0, "move": 0, "name": turns[0]["name"], "current": True}
    second = turns[1]["move"]
    assert finished.moves.order_by("seq")[second].turn == 1
    later = as_user(stranger).get(replay_url(finished, second))
    assert later.context["state_view"]["turn"] == 1


def test_an_htmx_step_gets_only_the_replay(finished, stranger):
    response = as_user(stranger).get(replay_url(finished, 3), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="replay"') and "<html" not in html
    assert 'hx-push-url="true"' in html


def test_a_history_restore_gets_the_whole_page(finished, stranger):
    headers = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
    response = as_user(stranger).get(replay_url(finished, 3), headers=headers)
    assert "<html" in response.content.decode()


def test_site_events_in_the_log_are_told_but_not_replayed(player, other_player, stranger):
    game = quick_game(player, other_player)
    last = game.moves.order_by("-seq").first()
    game.moves.create(
        seq=last.seq + 1, seat=last.seat, user=player, turn=last.turn, action={"type": "resign"}
    )
    total = game.moves.count()
    response = as_user(stranger).get(replay_url(game, total))
    assert response.status_code == 200
    assert engine.state_to_json(response.context["state"]) == game.state
    assert "resigned" in response.context["said"]
    assert "game over" in response.content.decode()


def test_an_unrated_game_has_the_same_winner_on_its_page_and_its_sheet(
    player, other_player, django_capture_on_commit_callbacks
):
    """A game that counts for no ratings (an address was not confirmed) still has a winner: the
    game page and the score sheet name the same one; only the counting sentence differs."""
    type(other_player).objects.filter(pk=other_player.pk).update(email_confirmed_at=None)
    other_player.refresh_from_db()
    game = real_game(django_capture_on_commit_callbacks, player, other_player)
    game.refresh_from_db()
    assert game.uncounted == game.Uncounted.UNCONFIRMED
    winner = game.seats.get(rank=1).user.public_name
    page = as_user(player).get(game.get_absolute_url()).content.decode()
    sheet = as_user(player).get(sheet_url(game)).content.decode()
    for html in (page, sheet):
        assert "Winner:" in html and winner in html.split("Winner:", 1)[1][:300]
    assert "Place 1:" not in sheet
