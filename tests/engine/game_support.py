"""Builders for game-layer tests: states arranged by hand, through the public state values."""

from __future__ import annotations

from games.engine import (
    EndTurn,
    GameConfig,
    GameState,
    PlaceToken,
    TakeTokens,
    apply,
    geometry,
    new_game,
)
from games.engine.state import evolve


def game(players: int = 2, side: str = "A", spirits: bool = False, seed: int = 1, **changes):
    """A fresh game with seat 0 to move first (unless `changes` say otherwise)."""
    state = new_game(GameConfig(players=players, side=side, spirits=spirits), seed)
    changes.setdefault("first_seat", 0)
    changes.setdefault("current_seat", changes["first_seat"])
    return evolve(state, **changes)


def stacks_of(side: str, cells: dict[str, tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """A board's stacks tuple from {"col,row": stack}."""
    geo = geometry(side)
    stacks = [()] * geo.size
    for name, stack in cells.items():
        stacks[geo.index[name]] = tuple(stack)
    return tuple(stacks)


def cube_mask_of(side: str, cells) -> int:
    index = geometry(side).index
    return sum(1 << index[name] for name in cells)


def with_player(state: GameState, seat: int | None = None, board=None, cubes=(), **changes):
    """`state` with one player's board ({"col,row": stack}), cubes and other fields replaced."""
    seat = state.current_seat if seat is None else seat
    player = state.players[seat]
    side = state.config.side
    if board is not None:
        changes["stacks"] = stacks_of(side, board)
    if cubes:
        changes["cube_mask"] = cube_mask_of(side, cubes)
    players = list(state.players)
    players[seat] = evolve(player, **changes)
    return evolve(state, players=tuple(players))


def full_board(side: str, leave_empty: int, colour: str = "yellow") -> dict[str, tuple[str, ...]]:
    """Every hex covered by one `colour` token except the last `leave_empty` hexes."""
    names = geometry(side).names
    return {n: (colour,) for n in names[: len(names) - leave_empty]}


def holding(state: GameState, *colours: str, space: int = 0) -> GameState:
    """The mover takes central space `space` after it was arranged to hold `colours`."""
    central = list(state.central)
    central[space] = tuple(colours)
    return apply(evolve(state, central=tuple(central)), TakeTokens(space))


def empty_cells(state: GameState, seat: int | None = None) -> list[str]:
    seat = state.current_seat if seat is None else seat
    names = geometry(state.config.side).names
    return [names[i] for i, s in enumerate(state.players[seat].stacks) if not s]


def play_turn(state: GameState, colours=("yellow", "yellow", "yellow"), space: int = 0):
    """A plain turn: take `colours`, put them on the first empty hexes, end the turn."""
    state = holding(state, *colours, space=space)
    for colour, cell in zip(colours, empty_cells(state), strict=False):
        state = apply(state, PlaceToken(colour, cell))
    return apply(state, EndTurn())
