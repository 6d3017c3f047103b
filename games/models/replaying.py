"""Rebuilding a stored game from its seed and move log: the check that nothing was lost."""

from __future__ import annotations

from collections.abc import Iterable

from games import engine
from games.models import Game
from games.models.history import SITE_EVENTS


def replay_log(game: Game, actions: Iterable[dict]) -> engine.GameState:
    """The engine state after these logged actions, in order, from the game's seed. Site events
    (a resignation, a game ended early) are in the log for people, not for the engine."""
    moves = [action for action in actions if action.get("type") not in SITE_EVENTS]
    return engine.replay(game.config, game.seed, moves)


def replayed_state(game: Game) -> engine.GameState:
    """The engine state after the whole move log."""
    return replay_log(game, game.moves.order_by("seq").values_list("action", flat=True))


def verify(game: Game) -> str | None:
    """None when the replay reproduces the stored state byte for byte, and every stored board
    the board of its seat at the end of its turn; else what differs."""
    if game.seed is None:
        return None if not game.state else "a state is stored but no seed"
    try:
        rebuilt = engine.state_to_json(replayed_state(game))
    except engine.ReplayError as exc:
        return f"the move log does not replay: {exc}"
    if rebuilt != game.state:
        return "the replayed state differs from the stored state"
    return _verify_boards(game)


def turn_end_boards(game: Game) -> dict[int, tuple[int, int, dict, dict]]:
    """turn -> (seat, move number, player JSON, score) at the end of each turn, by replay."""
    state = engine.new_game(game.config, game.seed)
    ends = {}
    for seq, raw in game.moves.order_by("seq").values_list("seq", "action"):
        if raw.get("type") in SITE_EVENTS:
            continue
        after = engine.apply(state, engine.action_from_json(raw))
        if after.turn != state.turn or (after.finished and not state.finished):
            seat = state.current_seat
            sheet = engine.score_sheet(after, seat)
            ends[state.turn] = (seat, seq, after.players[seat].to_json(), sheet.as_dict())
        state = after
    return ends


def _verify_boards(game: Game) -> str | None:
    stored = list(game.boards.values_list("turn", "position", "move_seq", "player", "score"))
    if not stored:
        return None  # games from before boards were stored
    expected = turn_end_boards(game)
    for turn, position, move_seq, player, score in stored:
        if expected.get(turn) != (position, move_seq, player, score):
            return f"the stored board of turn {turn} differs from the replay"
    return None
