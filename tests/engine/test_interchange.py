"""The board interchange format and the `score` command (rules §14)."""

import io
import json
from pathlib import Path

import pytest

from games.engine.interchange import (
    Board,
    BoardFormatError,
    dump_board,
    parse_board,
    score_files,
    score_json,
)

FIXTURES = Path(__file__).parent / "fixtures"
RULEBOOK = {
    "board": json.loads((FIXTURES / "board_rulebook_example.json").read_text(encoding="utf-8")),
    "expected": json.loads(
        (FIXTURES / "board_rulebook_example_expected.json").read_text(encoding="utf-8")
    )["score"],
}

EXAMPLE = {
    "side": "A",
    "stacks": {"0,0": ["yellow"], "2,1": ["brown", "red"], "4,0": ["gray", "gray", "gray"]},
    "cube_hexes": ["0,0"],
    "cards": [
        {"id": "animal_29", "cubes_placed": 1},
        {"id": "spirit_tortoise", "cubes_placed": 1},
    ],
}


def run(paths, stdin_text=""):
    out, err = io.StringIO(), io.StringIO()
    status = score_files(paths, io.StringIO(stdin_text), out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_example_of_the_rules_parses_into_a_board():
    board = parse_board(EXAMPLE)
    assert board.side == "A"
    assert board.stacks[0] == ("yellow",)
    assert board.stacks[10] == ("brown", "red")  # "2,1" is index 10 on side A
    assert board.stacks[1] == ()
    assert board.cube_mask == 1
    assert board.cards == (("animal_29", 1), ("spirit_tortoise", 1))


def test_cube_hexes_and_cards_are_optional():
    board = parse_board({"side": "B", "stacks": {}})
    assert board == Board(side="B", stacks=((),) * 25, cube_mask=0, cards=())
    assert parse_board({"side": "B"}) == board


def test_a_board_round_trips_through_the_format():
    board = parse_board(EXAMPLE)
    assert parse_board(dump_board(board)) == board
    assert parse_board(json.loads(json.dumps(dump_board(board)))) == board


def test_the_rulebook_board_scores_as_in_the_rules():
    assert score_json(RULEBOOK["board"]) == RULEBOOK["expected"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stacks": {"9,9": ["blue"]}}, 'unknown hex "9,9" on side A'),
        ({"stacks": {"1,1": ["blue", "gray"]}}, 'illegal stack ["blue", "gray"] on "1,1"'),
        ({"stacks": {"1,1": ["purple"]}}, 'unknown colour "purple" on "1,1"'),
        ({"stacks": {"1,1": "blue"}}, 'the stack on "1,1" must be a list'),
        ({"stacks": ["blue"]}, '"stacks" must be an object'),
        ({"side": "C"}, '"side" must be "A" or "B"'),
        ({"cards": [{"id": "animal_99", "cubes_placed": 0}]}, 'unknown card "animal_99"'),
        ({"cards": [{"id": "animal_25", "cubes_placed": 3}]}, "more cubes than slots"),
        ({"cards": [{"id": "animal_25", "cubes_placed": -1}]}, "whole number"),
        ({"cards": [{"id": "animal_25", "cubes_placed": True}]}, "whole number"),
        ({"cards": [{"id": "animal_25"}]}, "each card must be"),
        ({"cards": {"id": "animal_25"}}, '"cards" must be a list'),
        (
            {"cards": [{"id": "animal_25", "cubes_placed": 0}] * 2},
            "card animal_25 is listed twice",
        ),
        (
            {
                "cards": [
                    {"id": "spirit_lion", "cubes_placed": 0},
                    {"id": "spirit_owl", "cubes_placed": 0},
                ]
            },
            "at most one Nature's Spirit",
        ),
        ({"cube_hexes": ["1,1"]}, 'cube on an empty hex "1,1"'),
        ({"cube_hexes": ["0,0", "0,0"]}, 'two cubes on hex "0,0"'),
        ({"cube_hexes": ["5,5"]}, 'unknown hex "5,5" on side A (in cube_hexes)'),
        ({"cube_hexes": "0,0"}, '"cube_hexes" must be a list'),
        ({"score": 3}, 'unknown field "score"'),
    ],
)
def test_a_malformed_board_is_refused_with_a_message_naming_the_problem(change, message):
    with pytest.raises(BoardFormatError) as caught:
        parse_board({**EXAMPLE, **change})
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_board_that_is_not_an_object_is_refused():
    with pytest.raises(BoardFormatError, match="must be a JSON object"):
        parse_board(["side", "A"])


def test_a_hex_of_side_b_is_unknown_on_side_a():
    with pytest.raises(BoardFormatError, match='unknown hex "6,0" on side A'):
        parse_board({"side": "A", "stacks": {"6,0": ["blue"]}})
    assert parse_board({"side": "B", "stacks": {"6,0": ["blue"]}}).stacks[21] == ("blue",)


def test_the_score_command_prints_one_json_line_per_board(tmp_path):
    one = tmp_path / "one.json"
    one.write_text(json.dumps(RULEBOOK["board"]), encoding="utf-8")
    many = tmp_path / "many.json"
    many.write_text(json.dumps([{"side": "B"}, {"side": "A"}]), encoding="utf-8")
    status, out, err = run([str(one), str(many)])
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert [json.loads(line) for line in lines] == [
        RULEBOOK["expected"],
        {**dict.fromkeys(RULEBOOK["expected"], 0), "water": 5, "total": 5},
        dict.fromkeys(RULEBOOK["expected"], 0),
    ]
    assert lines[0] == (
        '{"trees": 4, "mountains": 10, "fields": 10, "buildings": 10, "water": 19, '
        '"animals": 63, "spirit": 0, "total": 116}'
    )


def test_the_score_command_reads_stdin_for_a_dash():
    status, out, _ = run(["-"], json.dumps(RULEBOOK["board"]))
    assert status == 0 and json.loads(out) == RULEBOOK["expected"]


def test_a_malformed_board_is_reported_with_its_file_and_exit_status_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"side": "A", "stacks": {"9,9": ["blue"]}}), encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"side": "A"}), encoding="utf-8")
    status, out, err = run([str(bad), str(good)])
    assert status == 2
    assert err == f'{bad}: unknown hex "9,9" on side A (in stacks)\n'
    assert len(out.splitlines()) == 1  # the good board is still scored


def test_a_malformed_board_in_a_list_is_reported_with_its_position(tmp_path):
    boards = tmp_path / "boards.json"
    boards.write_text(json.dumps([{"side": "A"}, {"side": "Z"}]), encoding="utf-8")
    status, _, err = run([str(boards)])
    assert status == 2 and err.startswith(f"{boards}: board 2: ")


def test_unreadable_files_and_invalid_json_are_reported(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    status, out, err = run([str(tmp_path / "missing.json"), str(broken)])
    assert status == 2 and out == ""
    missing_line, broken_line = err.splitlines()
    assert missing_line.startswith(f"{tmp_path / 'missing.json'}: cannot read")
    assert broken_line.startswith(f"{broken}: not valid JSON")


def test_the_adversarial_golden_boards_score_as_recorded():
    expected = json.loads((FIXTURES / "board_adversarial_expected.json").read_text("utf-8"))
    status, out, err = run([str(FIXTURES / "board_adversarial.json")])
    assert (status, err) == (0, "")
    scores = [json.loads(line) for line in out.splitlines()]
    assert scores == [case["score"] for case in expected]
