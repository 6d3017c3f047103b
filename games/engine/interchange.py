"""The board interchange format (rules §14) and the `score` command built on it.

A board file is JSON: {"side", "stacks": {"col,row": [bottom..top]}, "cube_hexes", "cards"}.
Parsing checks everything a hand-written file can get wrong and names the problem.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from .cards import CARDS
from .hexgrid import SIDES, geometry
from .queries import scored_cards
from .scoring import score_board
from .state import GameState
from .tokens import COLOURS, LEGAL_STACKS, Stack

_FIELDS = ("side", "stacks", "cube_hexes", "cards")


class BoardFormatError(ValueError):
    """A board JSON object that does not describe a legal board."""


@dataclass(frozen=True)
class Board:
    """One player's board: stacks per cell index, cubes as a mask, cards as (id, cubes placed)."""

    side: str
    stacks: tuple[Stack, ...]
    cube_mask: int
    cards: tuple[tuple[str, int], ...] = ()


def _hex_index(side: str, name: object, where: str) -> int:
    geo = geometry(side)
    if not isinstance(name, str) or name not in geo.index:
        raise BoardFormatError(f"unknown hex {json.dumps(name)} on side {side} ({where})")
    return geo.index[name]


def _parse_stack(name: str, raw: object) -> Stack:
    if not isinstance(raw, list):
        raise BoardFormatError(f'the stack on "{name}" must be a list of colours')
    for colour in raw:
        if colour not in COLOURS:
            raise BoardFormatError(
                f'unknown colour {json.dumps(colour)} on "{name}" '
                f"(expected one of {', '.join(COLOURS)})"
            )
    stack = tuple(raw)
    if stack and stack not in LEGAL_STACKS:
        raise BoardFormatError(f'illegal stack {json.dumps(raw)} on "{name}"')
    return stack


def _parse_cards(raw: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(raw, list):
        raise BoardFormatError('"cards" must be a list of {"id", "cubes_placed"} objects')
    cards: list[tuple[str, int]] = []
    spirits = 0
    for entry in raw:
        if not isinstance(entry, dict) or set(entry) != {"id", "cubes_placed"}:
            raise BoardFormatError(
                f'each card must be {{"id": ..., "cubes_placed": ...}}, got {json.dumps(entry)}'
            )
        card_id, placed = entry["id"], entry["cubes_placed"]
        if not isinstance(card_id, str) or card_id not in CARDS:
            raise BoardFormatError(f"unknown card {json.dumps(card_id)}")
        c = CARDS[card_id]
        if type(placed) is not int or placed < 0:
            raise BoardFormatError(f"cubes_placed of {card_id} must be a whole number >= 0")
        if placed > c.cube_count:
            raise BoardFormatError(
                f"more cubes than slots: {card_id} ({c.name}) has {c.cube_count} slot(s), "
                f"cubes_placed is {placed}"
            )
        if any(card_id == seen for seen, _ in cards):
            raise BoardFormatError(f"card {card_id} is listed twice")
        spirits += c.kind == "spirit"
        if spirits > 1:
            raise BoardFormatError("a player keeps at most one Nature's Spirit card")
        cards.append((card_id, placed))
    return tuple(cards)


def parse_board(obj: object) -> Board:
    """A Board from a decoded interchange object; BoardFormatError names what is wrong."""
    if not isinstance(obj, dict):
        raise BoardFormatError("a board must be a JSON object")
    unknown = sorted(set(obj) - set(_FIELDS))
    if unknown:
        raise BoardFormatError(
            f"unknown field {json.dumps(unknown[0])} (expected {', '.join(_FIELDS)})"
        )
    side = obj.get("side")
    if side not in SIDES:
        raise BoardFormatError(f'"side" must be "A" or "B", got {json.dumps(side)}')
    geo = geometry(side)
    raw_stacks = obj.get("stacks", {})
    if not isinstance(raw_stacks, dict):
        raise BoardFormatError('"stacks" must be an object mapping "col,row" to a list of colours')
    stacks: list[Stack] = [()] * geo.size
    for name, raw in raw_stacks.items():
        stacks[_hex_index(side, name, "in stacks")] = _parse_stack(name, raw)
    raw_cubes = obj.get("cube_hexes", [])
    if not isinstance(raw_cubes, list):
        raise BoardFormatError('"cube_hexes" must be a list of "col,row" names')
    cube_mask = 0
    for name in raw_cubes:
        i = _hex_index(side, name, "in cube_hexes")
        if cube_mask >> i & 1:
            raise BoardFormatError(f'two cubes on hex "{name}": a hex takes at most one cube')
        if not stacks[i]:
            raise BoardFormatError(f'cube on an empty hex "{name}"')
        cube_mask |= 1 << i
    cards = _parse_cards(obj.get("cards", []))
    return Board(side=side, stacks=tuple(stacks), cube_mask=cube_mask, cards=cards)


def dump_board(board: Board) -> dict:
    """The interchange object of a Board (parse_board(dump_board(b)) == b)."""
    geo = geometry(board.side)
    return {
        "side": board.side,
        "stacks": {geo.names[i]: list(s) for i, s in enumerate(board.stacks) if s},
        "cube_hexes": [geo.names[i] for i in range(geo.size) if board.cube_mask >> i & 1],
        "cards": [{"id": cid, "cubes_placed": placed} for cid, placed in board.cards],
    }


def player_board(state: GameState, seat: int) -> dict:
    """The interchange object of a seat's board in a game: every card it took (completed ones
    with all their cubes) and its kept spirit, so that scoring it gives the seat's score."""
    player = state.players[seat]
    board = Board(state.config.side, player.stacks, player.cube_mask, tuple(scored_cards(player)))
    return dump_board(board)


def score_json(obj: object) -> dict[str, int]:
    """The §14 score object of one decoded board."""
    board = parse_board(obj)
    return score_board(board.side, board.stacks, board.cube_mask, board.cards).as_dict()


def score_files(paths: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """The `score` command: one JSON score line per board, in order; 2 if anything was malformed.

    Each path ("-" is stdin) holds one board or a JSON list of boards. A malformed board is
    reported as "FILE: message" on stderr and skipped; the other boards are still scored.
    """
    status = 0
    for path in paths or ["-"]:
        label = "<stdin>" if path == "-" else path
        try:
            text = stdin.read() if path == "-" else _read(path)
            data = json.loads(text)
        except OSError as exc:
            print(f"{label}: cannot read: {exc.strerror or exc}", file=stderr)
            status = 2
            continue
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            print(f"{label}: not valid JSON: {exc}", file=stderr)
            status = 2
            continue
        boards = data if isinstance(data, list) else [data]
        for number, obj in enumerate(boards, start=1):
            try:
                score = score_json(obj)
            except BoardFormatError as exc:
                where = f"{label}: board {number}" if isinstance(data, list) else label
                print(f"{where}: {exc}", file=stderr)
                status = 2
                continue
            print(json.dumps(score), file=stdout)
    return status


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()
