"""What one seat (or a spectator) may see of a game: the state minus its secrets.

Secrets are the pouch order, the draw-pile order and the Nature's Spirit cards dealt to other
players before they choose. Only counts of the pouch and the pile are shown, so two states that
differ only in hidden orders give identical views.
"""

from __future__ import annotations

from typing import Any

from .hexgrid import geometry
from .queries import animal_cubes, ranking, score_sheets, suns
from .rules import can_discard, spirit_pending
from .state import GameState, PlayerState


def _player_view(
    state: GameState, seat: int, player: PlayerState, viewer: int | None
) -> dict[str, Any]:
    geo = geometry(state.config.side)
    return {
        "seat": seat,
        "stacks": {geo.names[i]: list(s) for i, s in enumerate(player.stacks) if s},
        "cube_hexes": [geo.names[i] for i in range(geo.size) if player.cube_mask >> i & 1],
        "cards": [{"card_id": c, "cubes_placed": k} for c, k in player.cards],
        "completed": list(player.completed),
        "spirit": player.spirit,
        "spirit_placed": player.spirit_placed,
        # The two dealt spirits are face down: only their owner sees them, until one is kept.
        "spirit_options": list(player.spirit_options) if seat == viewer else [],
        "choosing_spirit": bool(player.spirit_options),
        "cards_held": player.cards_held,
        "animal_cubes": animal_cubes(player),
        "empty_hexes": player.empty_hexes,
        "turns": player.turns,
    }


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """A JSON-able dict of what `seat` (None: a spectator) may see now."""
    config = state.config
    players = [_player_view(state, s, p, seat) for s, p in enumerate(state.players)]
    mover = state.current_seat
    in_turn = not state.finished
    can_end = in_turn and state.taken_space is not None and not state.hand
    view = {
        "config": config.to_json(),
        "viewer": seat,
        "current_seat": mover,
        "first_seat": state.first_seat,
        "turn": state.turn,
        "central": [list(s) for s in state.central],
        "pouch_count": len(state.pouch),
        "display": list(state.display),
        "deck_count": len(state.deck),
        "discarded_tokens": state.discarded_tokens,
        "discarded_cards": list(state.discarded_cards),
        "players": players,
        "hand": list(state.hand),
        "taken_space": state.taken_space,
        "took_card": state.took_card,
        "choosing_spirit": in_turn and spirit_pending(state),
        "can_end_turn": can_end,
        "can_discard": can_end and can_discard(state) is None,
        "can_reset": in_turn and state.turn_start is not None,
        "ending": state.ending,
        "finished": state.finished,
    }
    if state.finished:
        sheets = score_sheets(state)
        view["scores"] = [sheet.as_dict() for sheet in sheets]
        view["ranking"] = [placing.to_json() for placing in ranking(state, sheets)]
        if config.solo:
            view["suns"] = suns(state, sheets[0].total)
    return view
