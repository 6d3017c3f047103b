"""When to remind a player whose turn it is.

A reminder is a due time in `Seat.remind_at`, set when a turn starts (in the same transaction as
the turn change) and swept by beat every few minutes; sending one claims it by moving `remind_at`
to the following reminder. The player chooses the cadence and quiet hours in their profile; a game
with a turn time limit also warns before the limit, even when the cadence is "never", and
reminds of nothing once the limit has passed: the turn is then played for them or they are
dropped, and the timeout email says so. A player away on vacation is not reminded until they are
back.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Case, DateTimeField, F, Q, Value, When
from django.utils import timezone

from accounts.models import User
from games import clocks
from games.models import Game, Seat

# The warning comes 12 hours before the limit (half-way through a 1-day turn).
DEADLINE_WARNING = timedelta(hours=12)
# A reminder sent shortly before the warning already names the deadline: no second email.
WARNING_GAP = timedelta(hours=2)


def deadline_warning(game: Game, user: User | None = None) -> datetime | None:
    """When to warn `user`, the player to move, of the deadline: half-way through the turn or
    12 hours before its end, whichever is later, in the time their clock counts (a game paused
    at weekends in their time zone warns 12 counted hours before, never in a paused weekend)."""
    if game.turn_deadline is None or game.turn_started_at is None:
        return None
    zone = clocks.zone_for(game, user) if user is not None else None
    half = clocks.counted(game.turn_started_at, game.turn_deadline, zone) / 2
    return clocks.rewind(game.turn_deadline, min(half, DEADLINE_WARNING), zone)


def next_reminder(user: User, game: Game, now: datetime) -> datetime | None:
    """The next reminder after `now` for the player to move, or None if there is none to send."""
    if game.solo or not user.wants_email("reminder"):
        return None
    due = []
    if user.remind_every_hours:
        due.append(now + timedelta(hours=user.remind_every_hours))
    warning = deadline_warning(game, user)
    if warning is not None and warning > now + WARNING_GAP:
        due.append(warning)
    if not due:
        return None
    at = min(due)
    if user.is_away_at(at):
        at = user.back_at  # away: reminders wait for their return (their clocks paused too)
    later = user.after_quiet_hours(at)
    deadline = game.turn_deadline
    if deadline is not None and at < deadline <= later:
        return at  # better a reminder in the night than a missed time limit
    if deadline is not None and later >= deadline:
        return None  # by then the timeout sweep has acted, and its email tells them
    return later


def plan_turn(game: Game, mover: Seat) -> None:
    """A turn starts: plan the mover's first reminder; the others have nothing to be reminded of."""
    automatic = mover.user.is_bot or mover.left
    start = game.turn_started_at
    if mover.user.is_away_at(start):
        # Their turn email waits for their return (games.mail.returns), and so does the turn's
        # clock: the reminders count from then too, or the first would come with that email.
        start = mover.user.back_at
    at = None if automatic else next_reminder(mover.user, game, start)
    # One UPDATE for both (a turn starts on about one move in five): the mover's time, and none
    # for anyone else who still has one from their own turn.
    seats = game.seats.filter(Q(pk=mover.pk) | Q(remind_at__isnull=False))
    if at is None:
        seats.update(remind_at=None)  # (a CASE of two NULLs would be text to PostgreSQL)
    else:
        moment = Value(at, output_field=DateTimeField())
        seats.update(remind_at=Case(When(pk=mover.pk, then=moment), default=None))
    mover.remind_at = at


def replan_for(user: User, now: datetime) -> None:
    """The player changed their email preferences: the turns waiting for them follow at once,
    keeping the rhythm counted from each turn's start (switched on mid-turn, the next reminder
    comes at the next multiple of the cadence, not only from the next turn)."""
    waiting = Seat.objects.filter(
        user=user,
        resigned_at__isnull=True,
        dropped_at__isnull=True,
        game__status=Game.Status.ACTIVE,
        position=F("game__current_seat"),
    ).select_related("game")
    for seat in waiting:
        game = seat.game
        anchor = game.turn_started_at or now
        if user.remind_every_hours and anchor < now:
            step = timedelta(hours=user.remind_every_hours)
            anchor += (now - anchor) // step * step
        at = None if user.is_bot else next_reminder(user, game, anchor)
        Seat.objects.filter(pk=seat.pk).update(remind_at=at)


def on_email_preferences_changed(sender, user: User, **kwargs) -> None:
    replan_for(user, timezone.now())
