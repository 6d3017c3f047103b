"""Rebuilding a stored game from its seed and move log: the check that nothing was lost."""

from __future__ import annotations

from games import engine
from games.models import Game
from games.services import SITE_EVENTS


def replayed_state(game: Game, upto: int | None = None) -> engine.GameState:
    """The engine state after the first `upto` moves (all moves when None)."""
    moves = game.moves.order_by("seq").values_list("action", flat=True)
    if upto is not None:
        moves = moves[:upto]
    actions = [a for a in moves if a.get("type") not in SITE_EVENTS]
    return engine.replay(game.config, game.seed, actions)


def verify(game: Game) -> str | None:
    """None when the replay reproduces the stored state byte for byte, else what differs."""
    if game.seed is None:
        return None if not game.state else "a state is stored but no seed"
    try:
        rebuilt = engine.state_to_json(replayed_state(game))
    except engine.ReplayError as exc:
        return f"the move log does not replay: {exc}"
    if rebuilt != game.state:
        return "the replayed state differs from the stored state"
    return None
