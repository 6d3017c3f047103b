"""Boards as rows: each seat's board at the end of each of its turns, written with the state."""

from __future__ import annotations

from games import engine
from games.models import Board, Game


def record_turn_end(game: Game, before: engine.GameState, after: engine.GameState) -> None:
    """If this change ended a turn, store the mover's board as it now stands. Called by the
    writer inside its transaction, after the move is logged (game.move_count counts it)."""
    if after.turn == before.turn and not (after.finished and not before.finished):
        return
    position = before.current_seat
    player = after.players[position]
    sheet = engine.score_sheet(after, position)
    Board.objects.create(
        game=game,
        position=position,
        turn=before.turn,
        move_seq=game.move_count,
        player=player.to_json(),
        score=sheet.as_dict(),
    )
