"""The command line: python -m games.engine score | simulate | replay."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.cli import main

FIXTURES = Path(__file__).with_name("fixtures")
ROOT = Path(__file__).resolve().parents[2]


def run(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", ["game_recorded_2p_spirits", "game_recorded_solo_b"])
def test_replay_prints_the_final_scores_of_a_golden_game(name):
    code, out, err = run("replay", str(FIXTURES / f"{name}.json"))
    assert (code, err) == (0, "")
    expected = json.loads((FIXTURES / f"{name}.expected.json").read_text())
    assert json.loads(out) == expected


def test_replay_reads_stdin():
    text = (FIXTURES / "game_recorded_solo_b.json").read_text()
    code, out, _ = run("replay", "-", stdin=text)
    assert code == 0 and json.loads(out)["suns"] == 3


def test_replay_reports_the_failing_move_and_exits_with_2(tmp_path):
    raw = json.loads((FIXTURES / "game_recorded_2p_spirits.json").read_text())
    raw["actions"][5] = {"type": "take_card", "card_id": "animal_99"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(raw))
    code, out, err = run("replay", str(path))
    assert code == 2 and out == ""
    assert "move 6" in err and "unknown animal card 'animal_99'" in err


@pytest.mark.parametrize("text", ["{", "[]", '{"config": {}, "seed": 1}'])
def test_replay_refuses_a_malformed_file(text):
    code, _, err = run("replay", "-", stdin=text)
    assert code == 2 and err.startswith("-: ")


def test_replay_of_a_missing_file_exits_with_2(tmp_path):
    code, _, err = run("replay", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json" in err


def test_simulate_prints_speed_and_scores():
    code, out, _ = run("simulate", "--players", "2", "--side", "B", "--games", "3", "--seed", "5")
    assert code == 0
    assert "games/s" in out and "mean turns" in out
    assert "total" in out and "suns" not in out


def test_simulate_solo_prints_the_mean_suns():
    code, out, _ = run("simulate", "--players", "1", "--spirits", "--games", "3")
    assert code == 0 and "mean suns" in out


def test_simulate_takes_one_policy_per_seat():
    code, _, _ = run("simulate", "--players", "2", "--games", "1", "--policy", "random,random")
    assert code == 0
    code, _, err = run("simulate", "--players", "2", "--games", "1", "--policy", "genius")
    assert code == 2 and "unknown policy 'genius'" in err


def test_simulate_pits_bots_against_each_other_and_prints_win_rates_per_seat():
    argv = ("simulate", "--players", "2", "--games", "1", "--policy", "medium,easy")
    code, out, err = run(*argv, "--seed", "3")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    seat_lines = [
        line.split()
        for line in lines[lines.index(next(x for x in lines if x.startswith("seat"))) + 1 :]
    ]
    assert [row[:2] for row in seat_lines] == [["0", "medium"], ["1", "easy"]]
    assert sum(float(row[3].rstrip("%")) for row in seat_lines) == 100.0


def test_simulate_passes_a_budget_to_the_hard_bot_and_refuses_a_bad_one():
    argv = ("simulate", "--players", "1", "--games", "1", "--policy", "hard")
    code, out, _ = run(*argv, "--budget", "0.02")
    assert code == 0 and "hard" in out
    code, _, err = run(*argv, "--budget", "0")
    assert code == 2 and "budget" in err


def test_score_delegates_to_the_board_interchange():
    board = {"side": "A", "stacks": {"0,0": ["yellow"], "0,1": ["yellow"]}}
    code, out, _ = run("score", "-", stdin=json.dumps(board))
    assert code == 0 and json.loads(out)["fields"] == 5


def test_the_module_runs_as_a_program():
    result = subprocess.run(
        [sys.executable, "-m", "games.engine", "simulate", "--players", "1", "--games", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "games/s" in result.stdout


def test_replay_checks_the_final_boards_a_file_carries(tmp_path):
    from games.engine import replay_record
    from games.engine.interchange import player_board

    raw = json.loads((FIXTURES / "game_recorded_2p_spirits.json").read_text())
    state = replay_record(raw)
    raw["boards"] = [player_board(state, seat) for seat in range(2)]
    raw["game"] = {"title": "other fields are for people"}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(raw))
    assert run("replay", str(path))[0] == 0
    raw["boards"] = raw["boards"][:1]
    path.write_text(json.dumps(raw))
    code, _, err = run("replay", str(path))
    assert code == 2 and '"boards" must list the boards of the 2 players' in err
