"""The review page: each of the player's turns beside the hard bot's choice, boards included."""

from __future__ import annotations

from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.models import Game, Review, Seat
from games.pictures.boards import board_svg
from games.pictures.sprite import sprite_url

# A turn whose choice the bot valued within this many points of its own is "as the bot would".
CLOSE_ENOUGH = 1.0
# The turns with the most to learn from open on the page; the others are one line each until
# opened (a phone showed every turn's four lists and two boards: 13,700 px of page).
OPEN_TURNS = 3


def _board(side: str, player: dict[str, Any], title: str) -> str:
    names = engine.geometry(side).names
    stacks = {names[i]: stack for i, stack in enumerate(player["stacks"]) if stack}
    cubes = [names[i] for i in range(len(names)) if player["cube_mask"] >> i & 1]
    return board_svg(side, stacks, cubes, title=title, compact=True, sprite=sprite_url())


def progress(review: Review) -> dict[str, Any]:
    """How far a review being made has got: "Reviewing: turn 3 of 12"."""
    total, done = review.turns_total, min(review.turns_done, review.turns_total)
    return {
        "started": review.status == Review.Status.RUNNING and total > 0,
        "done": done,
        "total": total,
        "current": min(done + 1, total),
    }


def points_words(points: float) -> str:
    """ "1 point", "7.1 points": a gain in words, never a bare "+7.1"."""
    figure = f"{points:g}".replace(".", get_format("DECIMAL_SEPARATOR"))
    count = int(points) if float(points).is_integer() else 2
    return ngettext("%(points)s point", "%(points)s points", count) % {"points": figure}


def review_page(game: Game, seat: Seat, review: Review | None) -> dict[str, Any]:
    """What the page shows: the offer, the wait and how far it has got, or the turns with
    both boards."""
    context: dict[str, Any] = {"game": game, "seat": seat, "review": review, "turns": []}
    if review is None:
        return context
    if review.status != Review.Status.DONE:
        context["progress"] = progress(review)
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
                "gain_words": points_words(gain),
                "close": gain <= CLOSE_ENOUGH,
                "played_points": turn["played_points"],
                "suggested_points": turn["suggested_points"],
                # Worth counts what a turn sets up too: the better choice may show fewer points.
                "fewer_now": turn["suggested_points"] < turn["played_points"],
                "played_board": _board(game.side, turn["played_player"], _("Your board after it")),
                "suggested_board": _board(
                    game.side, turn["suggested_player"], _("The bot's board after its choice")
                ),
            }
        )
    biggest = [t for t in sorted(turns, key=lambda t: -t["gain"]) if not t["close"]][:OPEN_TURNS]
    opened = {t["number"] for t in biggest}
    for turn in turns:
        turn["open"] = turn["number"] in opened
    total_gain = round(sum(max(t["gain"], 0) for t in turns if not t["close"]), 1)
    context["turns"] = turns
    context["close_count"] = sum(1 for t in turns if t["close"])
    context["total_gain"] = total_gain
    context["total_gain_words"] = points_words(total_gain)
    context["biggest"] = biggest
    return context
