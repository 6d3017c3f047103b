"""Replaying a recorded game: the seed and the action log reproduce the state exactly."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import Action, IllegalAction, action_from_json
from .interchange import parse_board, player_board
from .rules import apply
from .setup_game import new_game
from .state import GameConfig, GameState


class ReplayError(IllegalAction):
    """Move `move` (1-based) of a recorded game was refused; the message says which and why."""

    def __init__(self, move: int, action: object, reason: str) -> None:
        super().__init__(f"move {move} ({action}) failed: {reason}")
        self.move = move
        self.action = action
        self.reason = reason


def replay(config: GameConfig, seed: int, actions: Iterable[Action | dict[str, Any]]) -> GameState:
    """The state after `actions` (values or their JSON form) from `new_game(config, seed)`."""
    state = new_game(config, seed)
    for move, raw in enumerate(actions, start=1):
        try:
            action = raw if isinstance(raw, Action) else action_from_json(raw)
            state = apply(state, action)
        except IllegalAction as exc:
            raise ReplayError(move, _describe(raw), str(exc)) from exc
    return state


def _describe(raw: object) -> str:
    if isinstance(raw, Action):
        raw = raw.to_json()
    text = str(raw)
    return text if len(text) <= 80 else text[:77] + "..."


def record(config: GameConfig, seed: int, actions: Iterable[Action]) -> dict[str, Any]:
    """The JSON-able record of a game, as `replay_record` (and `replay FILE`) read it."""
    return {
        "config": config.to_json(),
        "seed": seed,
        "actions": [a.to_json() for a in actions],
    }


def replay_record(obj: object) -> GameState:
    """Replay a record `{"config": {...}, "seed": N, "actions": [...]}`, or a game exported by
    the site, which adds other fields; its final "boards" (rules §14), if given, must be the
    boards the replay ends with.

    ValueError for a malformed record or boards that differ, ReplayError for a refused move.
    """
    if not isinstance(obj, dict) or not {"config", "seed", "actions"} <= set(obj):
        raise ValueError('a game record is an object with "config", "seed" and "actions"')
    config = GameConfig.from_json(obj["config"])
    seed = obj["seed"]
    if type(seed) is not int:
        raise ValueError(f"the seed must be an integer, not {seed!r}")
    actions = obj["actions"]
    if not isinstance(actions, list):
        raise ValueError('"actions" must be a list')
    state = replay(config, seed, actions)
    if "boards" in obj:
        _check_boards(state, obj["boards"])
    return state


def _check_boards(state: GameState, boards: object) -> None:
    if not isinstance(boards, list) or len(boards) != len(state.players):
        raise ValueError(f'"boards" must list the boards of the {len(state.players)} players')
    for seat, board in enumerate(boards):
        if parse_board(board) != parse_board(player_board(state, seat)):
            raise ValueError(f"the board of seat {seat + 1} differs from the replayed game")
