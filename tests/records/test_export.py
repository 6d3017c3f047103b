"""A finished game as a JSON file, which the engine's command line replays to the same scores."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from games import services
from games.engine.cli import main
from games.engine.interchange import parse_board
from games.models import Game
from tests.clients import as_user
from tests.games.helpers import play_turns, start_game
from tests.records.helpers import real_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def export_url(game) -> str:
    return reverse("records:export", args=[game.pk])


def replay_file(tmp_path, content: bytes) -> tuple[int, dict | None, str]:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    out, err = io.StringIO(), io.StringIO()
    code = main(["replay", str(path)], stdout=out, stderr=err)
    return code, json.loads(out.getvalue()) if code == 0 else None, err.getvalue()


@pytest.fixture
def played(player, other_player, django_capture_on_commit_callbacks):
    return real_game(django_capture_on_commit_callbacks, player, other_player, spirits=True)


def stored_scores(game) -> list[int]:
    return [s.final_score for s in game.seats.order_by("position")]


def test_the_export_replays_with_the_engine_to_the_stored_final_scores(played, stranger, tmp_path):
    response = as_user(stranger).get(export_url(played))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert (
        response["Content-Disposition"] == f'attachment; filename="harmonies-game-{played.pk}.json"'
    )
    assert "no-store" in response["Cache-Control"]
    code, result, err = replay_file(tmp_path, response.content)
    assert (code, err) == (0, "")
    assert result["finished"] is True
    assert [s["total"] for s in result["scores"]] == stored_scores(played)


def test_the_command_line_itself_reads_the_exported_file(played, player, tmp_path):
    path = tmp_path / "export.json"
    path.write_bytes(as_user(player).get(export_url(played)).content)
    run = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert [s["total"] for s in json.loads(run.stdout)["scores"]] == stored_scores(played)


def test_the_export_holds_settings_seats_moves_and_the_final_boards(played, player):
    data = as_user(player).get(export_url(played)).json()
    assert data["format"] == "harmonies-game/1"
    assert data["game"]["id"] == played.pk and data["game"]["spirits"] is True
    assert data["config"] == {"players": 2, "side": "A", "spirits": True}
    assert data["seed"] == played.seed  # no secret once the game is over
    seats = list(played.seats.select_related("user").order_by("position"))
    assert [s["name"] for s in data["seats"]] == [s.user.public_name for s in seats]
    assert [s["final_score"] for s in data["seats"]] == stored_scores(played)
    assert len(data["actions"]) == played.moves.count() and data["events"] == []
    for board, score in zip(data["boards"], data["scores"], strict=True):
        parse_board(board)  # the rules §14 interchange format
        assert set(board) == {"side", "stacks", "cube_hexes", "cards"}
        assert score["total"] in stored_scores(played)
    text = json.dumps(data)
    for seat in seats:  # the names the pages show, no addresses
        assert seat.user.email not in text


def test_a_game_ended_by_a_resignation_replays_to_its_final_scores(
    player, other_player, tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_turns(start_game(player, other_player), 5)
        services.resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    data = as_user(other_player).get(export_url(game)).json()
    player_seat = game.seats.get(user=player).position
    assert data["events"][-1]["type"] == "resign"
    assert data["events"][-1]["seat"] == player_seat
    assert data["seats"][player_seat]["left"] == "resigned"
    code, result, err = replay_file(tmp_path, json.dumps(data).encode())
    assert (code, err) == (0, "")
    assert [s["total"] for s in result["scores"]] == stored_scores(game)


def test_a_tampered_board_is_refused_by_the_replay(played, player, tmp_path):
    data = as_user(player).get(export_url(played)).json()
    data["boards"][1]["stacks"]["0,0"] = ["gray", "gray", "gray"]
    code, _, err = replay_file(tmp_path, json.dumps(data).encode())
    assert code == 2 and "the board of seat 2 differs from the replayed game" in err


def test_anonymous_visitors_are_sent_to_log_in(played):
    response = as_user(None).get(export_url(played))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_an_unfinished_game_cannot_be_downloaded(player, other_player):
    game = play_turns(start_game(player, other_player), 2)
    response = as_user(player).get(export_url(game))
    assert response.status_code == 403 and b"not over" in response.content
    assert game.seed is not None and str(game.seed).encode() not in response.content


def test_a_missing_game_is_404(player):
    assert as_user(player).get(reverse("records:export", args=[999999])).status_code == 404


def test_the_score_sheet_links_to_the_download(played, player):
    page = as_user(player).get(reverse("records:sheet", args=[played.pk])).content.decode()
    assert f'href="{export_url(played)}" download>Download (JSON)</a>' in page


@pytest.mark.parametrize("page", ["records:export", "records:replay"])
def test_the_export_and_the_replay_cost_a_few_queries_however_long_the_game(
    played, player, page, django_assert_max_num_queries
):
    assert played.moves.count() > 50
    client = as_user(player)
    client.get(reverse(page, args=[played.pk]))  # the session and the caches, once
    with django_assert_max_num_queries(10):
        response = client.get(reverse(page, args=[played.pk]), {"move": 40})
    assert response.status_code == 200
