"""The review page: each of the player's turns beside the hard bot's choice, boards included."""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Game, Review, Seat
from games.svg import board_svg

# A turn whose choice the bot valued within this many points of its own is "as the bot would".
CLOSE_ENOUGH = 1.0


def _board(side: str, player: dict[str, Any], title: str) -> str:
    names = engine.geometry(side).names
    stacks = {names[i]: stack for i, stack in enumerate(player["stacks"]) if stack}
    cubes = [names[i] for i in range(len(names)) if player["cube_mask"] >> i & 1]
    return board_svg(side, stacks, cubes, title=title, compact=True, sprite=True)


def review_page(game: Game, seat: Seat, review: Review | None) -> dict[str, Any]:
    """What the page shows: the offer, the wait, or the turns with both boards."""
    context: dict[str, Any] = {"game": game, "seat": seat, "review": review, "turns": []}
    if review is None or review.status != Review.Status.DONE:
        return context
    turns = []
    for turn in review.turns:
        gain = round(turn["suggested_value"] - turn["played_value"], 1)
        turns.append(
            {
                "number": turn["turn"],
                "played_words": turn["played_words"],
                "suggested_words": turn["suggested_words"],
                "gain": gain,
                "close": gain <= CLOSE_ENOUGH,
                "played_points": turn["played_points"],
                "suggested_points": turn["suggested_points"],
                "played_board": _board(game.side, turn["played_player"], "Your board after it"),
                "suggested_board": _board(
                    game.side, turn["suggested_player"], "The bot's board after its choice"
                ),
            }
        )
    context["turns"] = turns
    context["close_count"] = sum(1 for t in turns if t["close"])
    context["total_gain"] = round(sum(max(t["gain"], 0) for t in turns), 1)
    context["biggest"] = sorted(turns, key=lambda t: -t["gain"])[:3] if turns else []
    return context
