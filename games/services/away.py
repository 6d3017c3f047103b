"""A player away on vacation: the clocks of the turns waiting for them pause while they are away."""

import logging
from datetime import datetime

from django.db.models import F

from accounts.models import User
from games import clocks, reminders
from games.models import Game
from games.services.core import bump, locked

logger = logging.getLogger(__name__)


def move_turn_clocks(user: User, was_back: datetime, now: datetime) -> int:
    """The player's return date changed (in the caller's transaction): move the time limit of
    each turn waiting for them by the change in their return. Going away until R moves a limit on
    by the time until R; coming back early moves it back by the time not taken; so a turn's clock
    only runs while they are here. A turn that starts while they are away counts its limit from
    their return instead (`start_turn_clock`). Returns how many games changed.

    Counted as the game's clock counts (games/clocks.py): the time the turn had left from when
    its clock would have run again is given again from the new moment, so a paused weekend stays
    paused and a time bank does not drain while its player is away."""
    back = user.back_at if user.is_away_at(now) else now
    shift = back - was_back
    moved = 0
    if shift:
        waiting = Game.objects.filter(
            status=Game.Status.ACTIVE,
            turn_deadline__gt=now,
            seats__user=user,
            seats__position=F("current_seat"),
            seats__resigned_at__isnull=True,
        ).order_by("pk")
        for game_id in list(waiting.values_list("pk", flat=True)):
            game = locked(game_id)  # one at a time, in id order, as every writer locks one game
            if game.status != Game.Status.ACTIVE or game.turn_deadline is None:
                continue
            zone = clocks.zone_for(game, user)
            left = clocks.counted(max(was_back, now), game.turn_deadline, zone)
            game.turn_deadline = clocks.deadline(back, left, zone)
            bump(game)
            game.save(update_fields=["turn_deadline", "version", "updated_at"])
            moved += 1
    reminders.replan_for(user, now)
    return moved
