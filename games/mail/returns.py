"""A player back from being away hears of the games that waited for them.

While a player is away their turn emails are held (`games.mail.turns.send_turn` gives the
claim back), and a turn that started more than a day before their return is past the missed-turn
sweep's reach. So on their return each turn still waiting for them, whose email was never sent,
gets it: at once when they come back early (clearing "Away until"), or from the sweep when the
time away ends. The email is the turn's ordinary one, through its exactly-once claim.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.models import User
from games.mail.claims import CATCH_UP_WINDOW, SWEEP_BATCH
from games.mail.turns import untold_turns
from games.models import Seat
from games.queue import enqueue

# `away_until` is a local date: the return (midnight after it) is within a day of that date in UTC.
_ZONE_SLACK = timedelta(days=2)


def untold_turns_of(user: User, now: datetime) -> list[tuple[int, int]]:
    """(game id, turn) of each turn waiting for `user` whose email was never sent."""
    seats = untold_turns(Seat.objects.filter(user=user), now)
    return list(seats.values_list("game_id", "current_turn"))


def back_from_away(now: datetime) -> list[tuple[int, int]]:
    """(game id, turn) of turns waiting, untold, for players whose time away ended lately."""
    lately = (now - CATCH_UP_WINDOW - _ZONE_SLACK).date(), now.date()
    seats = untold_turns(Seat.objects.filter(user__away_until__range=lately), now)
    found = []
    for seat in seats.select_related("user")[:SWEEP_BATCH]:
        back = seat.user.back_at
        if back is not None and now - CATCH_UP_WINDOW <= back <= now:
            found.append((seat.game_id, seat.current_turn))
    return found


def tell_of_waiting_turns(user: User, now: datetime) -> None:
    """Back early: the turn emails held while they were away go out after the commit (each
    through its claim, so a turn already told is not told again)."""
    for game_id, turn in untold_turns_of(user, now):
        enqueue("games.notify_turn", game_id, turn)
