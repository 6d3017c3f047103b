"""A player away on vacation: the clocks of the turns waiting for them pause while they are away."""

import logging
from datetime import datetime

from django.db.models import F

from accounts.models import User
from games import reminders
from games.models import Game
from games.queue import enqueue
from games.services.core import _bump, _locked

logger = logging.getLogger(__name__)


def move_turn_clocks(user: User, was_back: datetime, now: datetime) -> int:
    """The player's return date changed (in the caller's transaction): move the time limit of
    each turn waiting for them by the change in their return. Going away until R moves a limit on
    by the time until R; coming back early moves it back by the time not taken; so a turn's clock
    only runs while they are here. A turn that starts while they are away counts its limit from
    their return instead (`_start_turn_clock`). Returns how many games changed."""
    shift = (user.back_at if user.is_away_at(now) else now) - was_back
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
            game = _locked(game_id)  # one at a time, in id order, as every writer locks one game
            if game.status != Game.Status.ACTIVE or game.turn_deadline is None:
                continue
            game.turn_deadline += shift
            _bump(game)
            game.save(update_fields=["turn_deadline", "version", "updated_at"])
            moved += 1
    reminders.replan_for(user, now)
    return moved


def tell_of_waiting_turns(user: User, now: datetime) -> None:
    """Back early: the turn emails held while they were away go out after the commit (each
    through its claim, so a turn already told is not told again)."""
    from games import returns, tasks  # tasks import services; import here to keep it acyclic

    for game_id, turn in returns.untold_turns_of(user, now):
        enqueue(tasks.notify_turn, game_id, turn)


def on_away_changed(sender, user: User, was_back: datetime, now: datetime, **kwargs) -> None:
    move_turn_clocks(user, was_back, now)
    if not user.is_away_at(now):
        tell_of_waiting_turns(user, now)
