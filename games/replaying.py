"""Rebuilding a stored game from its seed and move log: the check that nothing was lost."""

from __future__ import annotations

from collections.abc import Iterable

from games import engine
from games.models import Game
from games.services import SITE_EVENTS


def replay_log(game: Game, actions: Iterable[dict]) -> engine.GameState:
    """The engine state after these logged actions, in order, from the game's seed. Site events
    (a resignation, a game ended early) are in the log for people, not for the engine."""
    moves = [action for action in actions if action.get("type") not in SITE_EVENTS]
    return engine.replay(game.config, game.seed, moves)


def replayed_state(game: Game) -> engine.GameState:
    """The engine state after the whole move log."""
    return replay_log(game, game.moves.order_by("seq").values_list("action", flat=True))


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
