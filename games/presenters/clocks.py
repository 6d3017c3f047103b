"""What the pages say about a game's clock: the deadline line of the game page, the clock in
words (`clock_words`) wherever a game's pace is told: the table page, the lobby, the invitation
and table-started emails, the records export and the admin.

The time left is what the clock counts (games/clocks.py): a weekend paused, or the mover's days
away, are not in it, so a time bank's figure is the bank itself and not the hours until the
deadline on a wall clock.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from django.utils import timezone

from games import clocks
from games.models import Game, Seat


def clock_line(game: Game, mover: Seat, viewer: Seat | None, now: datetime | None = None) -> str:
    """The game page's deadline line for a turn in progress with a deadline ("" without one):
    the time left (or the mover's bank, and a waiting player's own) and, during a paused
    weekend, until when."""
    if game.turn_deadline is None:
        return ""
    now = now or timezone.now()
    mine = viewer is not None and viewer.pk == mover.pk
    zone = clocks.zone_for(game, mover.user)
    left = clocks.duration_words(
        clocks.counted(clocks.counting_from(mover.user, now), game.turn_deadline, zone)
    )
    clock = clocks.Clock.of(game)
    if clock.kind == clocks.BANK:
        whose = "Time bank" if mine else f"{mover.user.public_name}'s time bank"
        added = f" (+{clock.increment_hours} h per move)" if clock.increment_hours else ""
        lines = [f"{whose}: {left} left{added}."]
    else:
        lines = [f"Time left for this turn: {left}."]
    if zone is not None and clocks.is_weekend(now, zone) and not mover.user.is_away_at(now):
        lines.append(_pause_words(mover, viewer, zone, now))
    if clock.kind == clocks.BANK and viewer is not None and not mine and not viewer.left:
        # A seated player waiting sees their own bank too (untouched until their turn).
        own = viewer.bank if viewer.bank is not None else clock.bank
        lines.append(f"Your bank: {clocks.duration_words(own or clocks.ZERO)}.")
    return " ".join(lines)


def _pause_words(mover: Seat, viewer: Seat | None, zone: tzinfo, now: datetime) -> str:
    """Until when the mover's weekend pauses the clock: Monday 00:00 in their time zone, told to
    another player in that player's own time (their Monday 00:00 may be a Sunday evening). A
    watcher is not told the mover's time zone, a setting no page shows outside the table."""
    if viewer is not None and viewer.pk == mover.pk:
        return "Paused for the weekend until Monday 00:00 your time."
    name = mover.user.public_name
    if viewer is None:
        return f"Paused for {name}'s weekend until Monday 00:00 their time."
    end = clocks.weekend_end(now, zone).astimezone(viewer.user.tzinfo)
    return f"Paused for {name}'s weekend until {end:%A %H:%M} your time."


def clock_words(game: Game) -> str:
    """ "3 days per turn", "a 7-day time bank, +12 h per move, paused at weekends", "no time
    limit": a game's pace in words, the one wording of every page and email that tells it."""
    return clocks.describe(clocks.Clock.of(game))


def deadline_words(game: Game) -> str:
    """ "time bank runs out" or "time limit": what a turn's deadline is, before its date, by the
    game's clock (the daily digest's "time bank runs out Monday 3 March, 18:00")."""
    return "time bank runs out" if clocks.Clock.of(game).kind == clocks.BANK else "time limit"


def table_clock_words(game: Game) -> str:
    """ "Clock: A 7-day time bank, +12 h per move, paused at weekends." for the table page."""
    words = clock_words(game)
    return f"Clock: {words[:1].upper()}{words[1:]}."
