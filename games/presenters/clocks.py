"""What the pages say about a game's clock: the deadline line of the game page, the clock in
words on the table page.

The time left is what the clock counts (games/clocks.py): a weekend paused, or the mover's days
away, are not in it, so a time bank's figure is the bank itself and not the hours until the
deadline on a wall clock.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games import clocks
from games.models import Game, Seat


def clock_line(game: Game, mover: Seat, viewer: Seat | None, now: datetime | None = None) -> str:
    """The game page's deadline line for a turn in progress with a deadline ("" without one):
    the time left (or the mover's bank) and, during a paused weekend, until when."""
    if game.turn_deadline is None:
        return ""
    now = now or timezone.now()
    mine = viewer is not None and viewer.pk == mover.pk
    name = mover.user.public_name
    zone = clocks.zone_for(game, mover.user)
    left = clocks.duration_words(
        clocks.counted(clocks.counting_from(mover.user, now), game.turn_deadline, zone)
    )
    clock = clocks.Clock.of(game)
    if clock.kind == clocks.BANK:
        whose = "Time bank" if mine else f"{name}'s time bank"
        lines = [f"{whose}: {left} left (+{clock.increment_hours} h per move)."]
    else:
        lines = [f"Time left for this turn: {left}."]
    if zone is not None and clocks.is_weekend(now, zone) and not mover.user.is_away_at(now):
        whose = "your time" if mine else f"{name}'s time ({mover.user.time_zone})"
        lines.append(f"Paused for the weekend until Monday 00:00 {whose}.")
    return " ".join(lines)


def table_clock_words(game: Game) -> str:
    """ "Clock: a 7-day time bank, +12 h per move, paused at weekends." for the table page."""
    words = clocks.describe(clocks.Clock.of(game))
    return f"Clock: {words[:1].upper()}{words[1:]}."
