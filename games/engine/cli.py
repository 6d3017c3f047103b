"""`python -m games.engine`: score boards, simulate games, replay a recorded game."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .interchange import score_files
from .queries import ranking, score_sheets, suns
from .replay import ReplayError, replay_record
from .simulate import simulate
from .state import GameConfig


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="score boards in the interchange format (rules §14)")
    score.add_argument("files", nargs="+", metavar="FILE", help='board JSON files, "-" for stdin')

    sim = sub.add_parser(
        "simulate", help="play games with policies and print speed, score and win figures"
    )
    sim.add_argument("--players", type=int, choices=range(1, 5), default=2)
    sim.add_argument("--side", choices=("A", "B"), default="A")
    sim.add_argument("--spirits", action="store_true", help="use the Nature's Spirit cards")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "--policy",
        default="random",
        help='random, easy, medium or hard for all seats, or one per seat: "medium,easy"',
    )
    sim.add_argument(
        "--budget", type=float, default=None, help="the hard bot's seconds per decision (2)"
    )

    rep = sub.add_parser("replay", help="replay a recorded game and print its final scores")
    rep.add_argument(
        "file",
        metavar="FILE",
        help='{"config", "seed", "actions"} JSON (a game exported by the site too), "-" for stdin',
    )
    return parser


def _replay(path: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        text = stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
        state = replay_record(json.loads(text))
    except ReplayError as exc:
        print(f"{path}: {exc}", file=stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"{path}: {exc}", file=stderr)
        return 2
    sheets = score_sheets(state)
    result = {
        "finished": state.finished,
        "turns": state.turn,
        "scores": [s.as_dict() for s in sheets],
        "ranking": [p.to_json() for p in ranking(state, sheets)],
    }
    if state.config.solo:
        result["suns"] = suns(state, sheets[0].total)
    print(json.dumps(result, sort_keys=True), file=stdout)
    return 0


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one command; return the exit status (the streams are parameters for the tests)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = _parser().parse_args(argv)
    if args.command == "score":
        return score_files(args.files, stdin, stdout, stderr)
    if args.command == "replay":
        return _replay(args.file, stdin, stdout, stderr)
    try:
        config = GameConfig(players=args.players, side=args.side, spirits=args.spirits)
        if args.budget is not None and args.budget <= 0:
            raise ValueError("the budget must be a positive number of seconds")
        report = simulate(config, args.games, args.seed, args.policy, args.budget)
    except ValueError as exc:
        print(f"simulate: {exc}", file=stderr)
        return 2
    for line in report.lines():
        print(line, file=stdout)
    return 0
