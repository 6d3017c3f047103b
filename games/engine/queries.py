"""Answers the page needs, computed from a state without changing it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import card
from .habitats import cube_targets
from .hexgrid import geometry
from .rules import cube_cards, landscapes, spirit_pending, token_cells
from .scoring import ScoreSheet, score_board, solo_suns
from .state import GameState, PlayerState


def token_targets(state: GameState, colour: str) -> tuple[str, ...]:
    """Cells ("col,row") where the mover may put a taken token of `colour` now."""
    if state.finished or colour not in state.hand or spirit_pending(state):
        return ()
    names = geometry(state.config.side).names
    return tuple(names[i] for i in token_cells(state.mover, colour))


def cube_options(state: GameState, seat: int) -> dict[str, dict[str, tuple[str, ...]]]:
    """For each card of `seat` with a cube to place: cube hex -> the cells of a matching habitat.

    Cards whose habitat is nowhere on the board map to an empty dict, so the page can list them.
    """
    player = state.players[seat]
    side = state.config.side
    names = geometry(side).names
    lands = landscapes(player)
    return {
        card_id: {
            names[cell]: tuple(names[i] for i in habitat)
            for cell, habitat in sorted(
                cube_targets(side, lands, player.cube_mask, card_id).items()
            )
        }
        for card_id in cube_cards(player)
    }


def scored_cards(player: PlayerState) -> list[tuple[str, int]]:
    """(card id, cubes placed) for every card the player took, and the kept spirit card."""
    cards = list(player.cards)
    cards.extend((c, card(c).cube_count) for c in player.completed)
    if player.spirit is not None:
        cards.append((player.spirit, 1 if player.spirit_placed else 0))
    return cards


def score_sheet(state: GameState, seat: int) -> ScoreSheet:
    player = state.players[seat]
    return score_board(state.config.side, player.stacks, player.cube_mask, scored_cards(player))


def score_sheets(state: GameState) -> tuple[ScoreSheet, ...]:
    """Every player's score as the board stands now (the final score once the game is over)."""
    return tuple(score_sheet(state, seat) for seat in range(len(state.players)))


def animal_cubes(player: PlayerState) -> int:
    """Animal cubes on the board, the tie-break count (§0 D6: the spirit cube does not count)."""
    return sum(k for _, k in player.cards) + sum(card(c).cube_count for c in player.completed)


@dataclass(frozen=True)
class Placing:
    """One line of the final ranking. Tied players share `place` and have `shared` set."""

    place: int
    seat: int
    total: int
    animal_cubes: int
    shared: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "seat": self.seat,
            "total": self.total,
            "animal_cubes": self.animal_cubes,
            "shared": self.shared,
        }


def ranking(state: GameState, sheets: tuple[ScoreSheet, ...] | None = None) -> tuple[Placing, ...]:
    """Players best first: total, then animal cubes on the board, then a shared place (§9.10)."""
    if sheets is None:
        sheets = score_sheets(state)
    keys = [(sheets[s].total, animal_cubes(p)) for s, p in enumerate(state.players)]
    order = sorted(range(len(keys)), key=lambda s: (-keys[s][0], -keys[s][1], s))
    out = []
    for seat in order:
        key = keys[seat]
        place = 1 + sum(1 for k in keys if k > key)
        shared = sum(1 for k in keys if k == key) > 1
        out.append(Placing(place, seat, key[0], key[1], shared))
    return tuple(out)


def winners(state: GameState) -> tuple[int, ...]:
    """The seats in first place (several when the victory is shared)."""
    return tuple(p.seat for p in ranking(state) if p.place == 1)


def suns(state: GameState, total: int | None = None) -> int | None:
    """Solo only: the suns for the final score (§11); None in a multiplayer game."""
    if not state.config.solo:
        return None
    if total is None:
        total = score_sheet(state, 0).total
    spirit = state.players[0].spirit if state.config.spirits else None
    return solo_suns(total, state.config.side, spirit)
