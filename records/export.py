"""A finished game as one JSON file that anyone can check with the engine alone.

`python -m games.engine replay FILE` replays its "config", "seed" and "actions" and checks the
final "boards" (rules §14 interchange format) against the replay; the other fields are for
people and other tools. The seed is in the file: once the game is over, the pouch and deck
order it decides are no secret, and without it the moves cannot be replayed.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from games import engine
from games.engine.interchange import player_board
from games.models import Game, Move, Seat
from games.presenters.clocks import clock_words
from games.results import SITE_EVENTS

FORMAT = "harmonies-game/1"


def _left(seat: Seat) -> str | None:
    if seat.resigned_at:
        return "resigned"
    if seat.dropped_at:
        return "dropped"
    if seat.timed_out_at:
        return "timed out"
    return None


def _when(moment: Any) -> str | None:
    return moment.isoformat() if moment else None


def move_list(moves: list[Move]) -> dict[str, list[dict[str, Any]]]:
    """A game's move log as the export gives it: the engine's actions, and apart from them the
    site events (a resignation, a game ended early), each with the number of engine actions
    played before it. Nothing in it is secret while the game goes on: every seat sees each
    action as it is played (the seed, which orders the pouch and the deck, is not in it)."""
    actions: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for move in moves:
        if move.action.get("type") in SITE_EVENTS:
            events.append(
                {"type": move.action["type"], "seat": move.seat, "after_actions": len(actions)}
            )
        else:
            actions.append(move.action)
    return {"actions": actions, "events": events}


def game_record(game: Game, seats: list[Seat], moves: list[Move]) -> dict[str, Any]:
    """The export of a finished game: settings, seats, the move list, final boards and scores."""
    state = game.engine_state()
    return {
        "format": FORMAT,
        "game": {
            "id": game.pk,
            "title": game.title,
            "url": settings.SITE_URL + reverse("records:sheet", args=[game.pk]),
            "players": game.players,
            "side": game.side,
            "spirits": game.spirits,
            "turn_limit_days": game.turn_limit_days,
            # The whole clock: a limit per turn ("turn", turn_limit_days) or a time bank.
            "clock": {
                "kind": game.clock,
                "turn_limit_days": game.turn_limit_days,
                "bank_days": game.bank_days,
                "increment_hours": game.increment_hours,
                "pause_weekends": game.pause_weekends,
                "words": clock_words(game),
            },
            "started_at": _when(game.started_at),
            "finished_at": _when(game.finished_at),
            "end_reason": game.end_reason,
        },
        "seats": [
            {
                "seat": seat.position,
                "name": seat.user.public_name,
                "final_score": seat.final_score,
                "rank": seat.rank,
                "left": _left(seat),
            }
            for seat in sorted(seats, key=lambda s: s.position)
        ],
        "config": game.config.to_json(),
        "seed": game.seed,
        **move_list(moves),
        "boards": [player_board(state, p) for p in range(len(state.players))],
        "scores": [sheet.as_dict() for sheet in engine.score_sheets(state)],
    }
