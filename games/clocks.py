"""Turn clocks that fit real lives: a limit per turn or a time bank, either of them paused at
weekends in the mover's own time zone.

Pure arithmetic on aware datetimes and the engine's state (no Django), so the writer, the pages,
the emails and the calendar feed all count time the same way. The rules it keeps:

- A limit per turn gives every turn the same allowance (today's clock). A time bank gives a turn
  whatever is left in the mover's bank; when the turn ends the bank loses the time counted and
  gains the increment (Fischer-style), never holding more than it started with, so quick moves
  buy back time spent without letting a bank grow without end.
- With `pause_weekends`, Saturday 00:00 to Monday 00:00 in the mover's time zone is not counted:
  a deadline moves on by the weekend hours it crosses (47 or 49 of them when the clocks change).
- A turn whose bank ran out is played by the stand-in (or its player dropped), as with a limit
  per turn. A stand-in turn resets nothing: the bank, at zero, gains its increment as after any
  turn. That is why a time bank whose late players are stood in for needs an increment: with none,
  a player who ran out once could never play again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any

from games import engine
from games.engine.state import TOKENS_PER_SPACE
from games.engine.words import _, ngettext

PER_TURN, BANK = "turn", "bank"
KINDS = (PER_TURN, BANK)
TURN_LIMIT_DAYS = (1, 3, 7, 14)
BANK_DAYS = (1, 30)  # smallest and largest bank, in days
INCREMENT_HOURS = (0, 48)  # smallest and largest time added per move, in hours
SATURDAY = 5
ZERO = timedelta(0)


class ClockError(ValueError):
    """A clock that cannot be: the message says why, in words for the player."""


@dataclass(frozen=True)
class Clock:
    """A game's clock as chosen at its creation (checked by `check_clock`)."""

    kind: str = PER_TURN
    turn_limit_days: int | None = None
    bank_days: int | None = None
    increment_hours: int = 0
    pause_weekends: bool = False

    @classmethod
    def of(cls, game: Any) -> Clock:
        """The clock a stored game was created with (its fields, read as they are)."""
        return cls(
            game.clock, game.turn_limit_days, game.bank_days, game.increment_hours,
            game.pause_weekends,
        )  # fmt: skip

    @property
    def bank(self) -> timedelta | None:
        """The bank each seat starts with (and may never exceed), or None without a bank."""
        return timedelta(days=self.bank_days) if self.kind == BANK and self.bank_days else None

    @property
    def increment(self) -> timedelta:
        return timedelta(hours=self.increment_hours) if self.kind == BANK else ZERO

    @property
    def timed(self) -> bool:
        return self.kind == BANK or self.turn_limit_days is not None


def zone_for(game: Any, user: Any) -> tzinfo | None:
    """The time zone whose weekends pause the game's clock for this player, or None."""
    return user.tzinfo if game.pause_weekends else None


def counting_from(user: Any, now: datetime) -> datetime:
    """From when a player's turn clock counts: now, or their return while they are away."""
    return user.back_at if user.is_away_at(now) else now


def describe(clock: Clock) -> str:
    """ "3 days per turn", "a 7-day time bank, +12 h per move, paused at weekends": the clock in
    words for the table page, the game page and the emails."""
    weekends = clock.pause_weekends
    values = {"days": clock.bank_days, "hours": clock.increment_hours}
    if clock.kind == BANK and clock.increment_hours and weekends:
        words = _("a %(days)s-day time bank, +%(hours)s h per move, paused at weekends")
    elif clock.kind == BANK and clock.increment_hours:
        words = _("a %(days)s-day time bank, +%(hours)s h per move")
    elif clock.kind == BANK and weekends:
        words = _("a %(days)s-day time bank, no time added per move, paused at weekends")
    elif clock.kind == BANK:
        words = _("a %(days)s-day time bank, no time added per move")
    elif clock.turn_limit_days:
        values["days"] = days = clock.turn_limit_days
        if weekends:
            words = ngettext(
                "%(days)s day per turn, paused at weekends",
                "%(days)s days per turn, paused at weekends",
                days,
            )
        else:
            words = ngettext("%(days)s day per turn", "%(days)s days per turn", days)
    else:
        return _("no time limit")
    return words % values


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_clock(
    kind: object,
    turn_limit_days: object = None,
    bank_days: object = None,
    increment_hours: object = 0,
    pause_weekends: object = False,
    *,
    stand_in: bool = True,
) -> Clock:
    """The clock these values make, or ClockError saying why they make none. Both the form and
    the writer ask, so a forged request meets the same refusal as the page. `stand_in`: whether a
    late player's turn is played by the stand-in (rather than the player dropped)."""
    if kind not in KINDS:
        raise ClockError(_("Choose a clock: a limit per turn or a time bank."))
    if not isinstance(pause_weekends, bool):
        raise ClockError(_("Pausing at weekends is a yes or a no."))
    if kind == PER_TURN:
        if bank_days is not None or increment_hours not in (None, 0):
            raise ClockError(_("Choose a limit per turn or a time bank, not both."))
        if turn_limit_days is not None and (
            not _whole(turn_limit_days) or turn_limit_days not in TURN_LIMIT_DAYS
        ):
            raise ClockError(_("A turn's time limit is 1, 3, 7 or 14 days."))
        if turn_limit_days is None and pause_weekends:
            raise ClockError(_("Pausing at weekends needs a time limit or a time bank."))
        return Clock(PER_TURN, turn_limit_days, None, 0, pause_weekends)
    if turn_limit_days is not None:
        raise ClockError(_("Choose a limit per turn or a time bank, not both."))
    low, high = BANK_DAYS
    if not _whole(bank_days) or not low <= bank_days <= high:
        raise ClockError(
            _("A time bank holds %(low)s to %(high)s days.") % {"low": low, "high": high}
        )
    low, high = INCREMENT_HOURS
    increment = 0 if increment_hours is None else increment_hours
    if not _whole(increment) or not low <= increment <= high:
        raise ClockError(
            _("The time added per move is %(low)s to %(high)s hours.") % {"low": low, "high": high}
        )
    if stand_in and increment == 0:
        raise ClockError(
            _(
                "With no time added per move, a player whose bank ran out could never play "
                "again: add some hours per move, or drop late players."
            )
        )
    return Clock(BANK, None, bank_days, increment, pause_weekends)


# Weekends, in a time zone ---------------------------------------------------------------------


def _midnight(day, zone: tzinfo) -> datetime:
    """The first instant of `day` in `zone`, in UTC. A midnight the clocks skip (a spring-forward
    at 00:00) maps, with fold 0, to the instant the day really begins."""
    return datetime.combine(day, time(), zone).astimezone(UTC)


def is_weekend(moment: datetime, zone: tzinfo) -> bool:
    return moment.astimezone(zone).weekday() >= SATURDAY


def weekend_end(moment: datetime, zone: tzinfo) -> datetime:
    """Monday 00:00 in `zone` after the weekend `moment` falls in (UTC)."""
    local = moment.astimezone(zone)
    return _midnight(local.date() + timedelta(days=7 - local.weekday()), zone)


def _next_weekend(moment: datetime, zone: tzinfo) -> datetime:
    """Saturday 00:00 in `zone` after a `moment` on a weekday (UTC)."""
    local = moment.astimezone(zone)
    return _midnight(local.date() + timedelta(days=SATURDAY - local.weekday()), zone)


def deadline(start: datetime, allowance: timedelta, zone: tzinfo | None) -> datetime:
    """When a clock started at `start` with `allowance` runs out; with a `zone`, weekends there
    are not counted (a turn started on a Saturday starts counting on Monday)."""
    at = start.astimezone(UTC)
    left = max(allowance, ZERO)
    if zone is None:
        return at + left
    while True:
        if is_weekend(at, zone):
            at = weekend_end(at, zone)
        pause = _next_weekend(at, zone)
        if at + left <= pause:
            return at + left
        left -= pause - at
        at = pause


def counted(start: datetime, end: datetime, zone: tzinfo | None) -> timedelta:
    """The time a clock counts between `start` and `end` (zero when `end` is not later); with a
    `zone`, weekends there are left out."""
    at, end = start.astimezone(UTC), end.astimezone(UTC)
    if end <= at:
        return ZERO
    if zone is None:
        return end - at
    total = ZERO
    while at < end:
        if is_weekend(at, zone):
            at = weekend_end(at, zone)
            continue
        pause = min(_next_weekend(at, zone), end)
        total += pause - at
        at = pause
    return total


def rewind(end: datetime, span: timedelta, zone: tzinfo | None) -> datetime:
    """The moment a clock running until `end` has `span` left: the latest moment from which
    `counted` to `end` is `span` (deadline's inverse, for the warning before a deadline)."""
    at = end.astimezone(UTC)
    left = max(span, ZERO)
    if zone is None:
        return at - left
    while True:
        before = at - _INSTANT
        if is_weekend(before, zone):
            local = before.astimezone(zone)
            at = _midnight(local.date() - timedelta(days=local.weekday() - SATURDAY), zone)
            continue
        local = before.astimezone(zone)
        monday = _midnight(local.date() - timedelta(days=local.weekday()), zone)
        if at - left >= monday:
            return at - left
        left -= at - monday
        at = monday


_INSTANT = timedelta(microseconds=1)


def bank_after_turn(left: timedelta, clock: Clock) -> timedelta:
    """The mover's bank once their turn ends with `left` unspent: plus the increment, never more
    than the bank it started as."""
    full = clock.bank or ZERO
    return min(full, max(left, ZERO) + clock.increment)


def duration_words(span: timedelta) -> str:
    """ "2 days 4 h", "5 h 20 min", "12 min": time left, as the page and the emails say it."""
    minutes = max(int(span.total_seconds() // 60), 0)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    values = {"days": days, "hours": hours, "minutes": minutes}
    if days and hours:
        return ngettext("%(days)s day %(hours)s h", "%(days)s days %(hours)s h", days) % values
    if days:
        return ngettext("%(days)s day", "%(days)s days", days) % values
    if hours:
        return (_("%(hours)s h %(minutes)s min") if minutes else _("%(hours)s h")) % values
    return _("%(minutes)s min") % values if minutes else _("less than a minute")


# How long a game still has to go ----------------------------------------------------------------

# A player who has not played yet is assumed to cover this many empty hexes a turn (three tokens,
# some stacked); the slowest rate assumed keeps the estimate finite.
FIRST_RATE, SLOWEST_RATE = 2.5, 0.5
# Boards fill more slowly as they go (more tokens are stacked): the pace so far, slowed by this.
SLOWING = 0.8
MAX_TURNS = 400


def turns_left(state: engine.GameState) -> int:
    """Turns still to play, counting the one in progress: an honest estimate, not a promise.

    The end comes (§8) when a space cannot be refilled from the pouch (solo: fewer than three
    tokens left for the five spaces) or a player ends a turn with two empty hexes or fewer; the
    round is then completed. The pouch goes down by exactly three tokens a turn (solo: by the
    whole central board), so that trigger is known; the boards are guessed from each player's own
    pace so far, empty hexes covered per turn played. The turns are walked in seat order until
    the first trigger, then to the end of that round."""
    if state.finished:
        return 0
    players = state.config.players
    refill = TOKENS_PER_SPACE * (len(state.central) if state.config.solo else 1)
    pouch = len(state.pouch)
    empties = [float(p.empty_hexes) for p in state.players]
    rates = [
        max(SLOWING * (len(p.stacks) - p.empty_hexes) / p.turns, SLOWEST_RATE)
        if p.turns
        else FIRST_RATE
        for p in state.players
    ]
    seat, ending, last = state.current_seat, state.ending, (state.first_seat - 1) % players
    for turns in range(1, MAX_TURNS + 1):
        if state.config.solo:
            ending = ending or pouch < TOKENS_PER_SPACE
            pouch -= refill
        elif pouch:
            pouch = max(pouch - refill, 0)
        else:
            ending = True
        empties[seat] -= rates[seat]
        ending = ending or empties[seat] <= 2
        if ending and seat == last:
            return turns
        seat = (seat + 1) % players
    return MAX_TURNS


def seat_of_turn_ahead(current_seat: int, players: int, ahead: int) -> int:
    """Who plays the turn `ahead` turns after the current one (seats play in order)."""
    return (current_seat + ahead) % players
