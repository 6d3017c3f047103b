"""One finished game: its score sheet and its replay.

Unlike the other results pages these read the game itself: its stored final state for the
sheet, and for the replay its move log run through the engine.
"""

from __future__ import annotations

from typing import Any

from games import engine, results
from games.models import Game, Move, Seat
from games.models.replaying import replay_log
from games.narration import describe, end_words
from games.pictures.boards import board_svg
from games.pictures.sprite import sprite_url
from games.presenters.game import CATEGORIES, score_rows
from games.results import SITE_EVENTS
from records.models import SeatResult
from records.services import pool_of, results_for


def _names(seats: list[Seat]) -> dict[int, str]:
    return {seat.position: seat.user.public_name for seat in seats}


def score_sheet(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """The final sheet: the stored results once recorded, else the engine's (provisional)."""
    columns = list(SeatResult.objects.filter(game=game).order_by("position"))
    provisional = not columns
    if provisional:
        columns = results_for(game, seats, pool_of(game, seats))
    by_position = {seat.position: seat for seat in seats}
    state = game.engine_state()
    view = engine.view_for(state, None)
    sheets = engine.score_sheets(state)
    cell_names = engine.geometry(game.side).names
    players = []
    for column in columns:
        seat = by_position[column.position]
        pview = view["players"][column.position]
        name = seat.user.public_name
        players.append(
            {
                "result": column,
                "seat": seat,
                "won": results.is_winner(game, seat),
                "name": name,
                "view": pview,
                "board": board_svg(
                    game.side,
                    pview["stacks"],
                    pview["cube_hexes"],
                    emphasis=[cell_names[i] for i in sheets[column.position].river_path],
                    title=f"{name}'s board",
                    sprite=sprite_url(),
                ),
            }
        )
    rows = score_rows(columns, [c.animal_cubes for c in columns])
    return {
        "game": game,
        "players": players,
        "player_names": [p["name"] for p in players],
        "ranking": sorted(players, key=lambda p: (p["result"].place, p["result"].position)),
        "score_rows": rows,
        "provisional": provisional,
        "suns": columns[0].suns if game.solo else None,
        "end_words": end_words(game, seats),
        "counting": results.counting_sentence(game, seats),
        "ranking_rule": results.RANKING_RULE[:1].lower() + results.RANKING_RULE[1:],
    }


def replay(game: Game, seats: list[Seat], moves: list[Move], upto: int) -> dict[str, Any]:
    """The table after the first `upto` moves of the log (clamped to the log), as a spectator
    sees it: every board, the central board, the display, the scores so far."""
    total = len(moves)
    upto = max(0, min(upto, total))
    names = _names(seats)
    state = replay_log(game, [m.action for m in moves[:upto]])
    view = engine.view_for(state, None)
    sheets = engine.score_sheets(state)
    last = moves[upto - 1] if upto else None
    # The end of the log is the end of the game, even one ended early (a resignation, a stalled
    # game ended by the others) where the engine's state never reached its own end.
    at_end = upto == total
    players = []
    for position, pview in enumerate(view["players"]):
        name = names.get(position, f"Seat {position + 1}")
        players.append(
            {
                "name": name,
                "view": pview,
                "sheet": sheets[position],
                "moved": last is not None and last.seat == position,
                "to_play": position == state.current_seat and not at_end,
                "board": board_svg(
                    game.side,
                    pview["stacks"],
                    pview["cube_hexes"],
                    title=f"{name}'s board",
                    sprite=sprite_url(),
                    compact=len(view["players"]) > 2,
                ),
            }
        )
    return {
        "game": game,
        "state": state,
        "state_view": view,
        "players": players,
        "upto": upto,
        "total": total,
        "at_end": at_end,
        "previous": max(upto - 1, 0),
        "next": min(upto + 1, total),
        "said": _said(last, names),
        "turns": _turn_starts(moves, names, upto),
        "categories": CATEGORIES,
    }


def _said(move: Move | None, names: dict[int, str]) -> str:
    if move is None:
        return "The game is set up: step forward to see the first move."
    return describe(move.action, move.detail, names.get(move.seat, f"Seat {move.seat + 1}"))


def _turn_starts(moves: list[Move], names: dict[int, str], upto: int) -> list[dict[str, Any]]:
    """Where each turn starts in the log (the number of moves before its first one); the turn
    being shown is `current`, unless the replay is at the very end."""
    starts, by_turn = [], {}
    for index, move in enumerate(moves):
        if move.turn not in by_turn:
            by_turn[move.turn] = {"turn": move.turn, "move": index, "name": ""}
            starts.append(by_turn[move.turn])
        # Named by the seat that moved: a resignation logged during another's turn is not it.
        start = by_turn[move.turn]
        if not start["name"] and move.action.get("type") not in SITE_EVENTS:
            start["name"] = names.get(move.seat, "")
    for start in starts:
        if not start["name"]:  # a turn with nothing but a site event
            first = moves[start["move"]]
            start["name"] = names.get(first.seat, "")
    shown = [s for s in starts if s["move"] <= upto]
    if shown and upto < len(moves):
        shown[-1]["current"] = True
    return starts
