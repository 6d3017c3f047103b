"""The "your turn" email, and the reminders while a turn waits.

A turn email is held while the player watches the game or is away, and a sweep sends any that a
down worker or broker missed; a reminder is a `remind_at` column swept by beat. Both are claimed
before sending and given back on failure (`games.mail.claims`).
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.language import speaking
from games import clocks, presence
from games.mail import pictures as mail_pictures
from games.mail import send as emails
from games.mail.claims import (
    CATCH_UP_WINDOW,
    MISSED_AFTER,
    STALE_CLAIM,
    SWEEP_BATCH,
    game_context,
    give_back_on_failure,
    to_move,
    unread_talk,
)
from games.mail.since import headline, turns_since_last
from games.models import Board, Game, Move, Seat
from games.presenters import recap
from games.reminders import next_reminder

# --- Your turn ------------------------------------------------------------------------------------


def send_turn(game_id: int, turn: int) -> bool:
    """The "your turn" email for the engine's turn `turn`; False when none was sent."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None or game.solo or game.engine_state().turn != turn:
        return False  # over, solo, or already played: the email would be stale
    seats = list(game.seats.select_related("user"))
    seat = next(s for s in seats if s.position == game.current_seat)
    user = seat.user
    if user.is_bot or seat.left:
        return False  # their turns are played for them
    now = timezone.now()
    # A claim is finished once the email is sent (or deliberately not sent). A claim left
    # unfinished for a while belonged to a worker that died mid-send: it may be taken again, so
    # each turn email goes out at least once rather than at most once.
    claimed = Seat.objects.filter(
        Q(notified_turn__isnull=True)
        | Q(notified_turn__lt=turn)
        | Q(notified_turn=turn, turn_email_claimed_at__lt=now - STALE_CLAIM),
        pk=seat.pk,
    ).update(notified_turn=turn, turn_email_claimed_at=now)
    if not claimed:
        return False
    ours = Seat.objects.filter(pk=seat.pk, notified_turn=turn, turn_email_claimed_at=now)
    if not user.wants_email("turn"):
        ours.update(turn_email_claimed_at=None)  # done: the sweep leaves this turn alone
        return False
    if user.is_away_at(now):
        # Away: no turn email until they are back; the claim is given back, and their return
        # (early, or at the end of the time away) sends it (games.mail.returns), once.
        ours.update(notified_turn=seat.notified_turn, turn_email_claimed_at=None)
        return False
    if now < held_until(game, seats, seat, now):
        # Watching only postpones the email: the claim is given back, and the missed-turn sweep
        # sends it once the page has stopped polling for the grace period, if still their turn.
        ours.update(notified_turn=seat.notified_turn, turn_email_claimed_at=None)
        return False
    with speaking(user):  # what happened, in the recipient's words
        told = turns_since_last(game, seats, seat, turn)
        ctx = {
            **game_context(game, seats, user),
            "game_started": turn == 0,  # the first turn: nobody has moved yet
            "told": told,
            "headline": headline(told),
            **unread_talk(seat),
        }
        since = _last_turn_end(game, seat, turn)
        recaps = recap.since_move(game, seats, seat, since) if told and since is not None else []
        ctx["pictures"] = mail_pictures.turn_pictures(game, seat, told, recaps)
    with give_back_on_failure(ours, notified_turn=seat.notified_turn, turn_email_claimed_at=None):
        emails.turn(user, ctx)
    ours.update(turn_email_claimed_at=None)
    return True


def held_until(game: Game, seats: list[Seat], seat: Seat, now: datetime) -> datetime:
    """Until when the turn email to `seat` waits: the grace period after the player's page last
    polled. The player whose own join (or game creation) started the game counts as looking from
    the start until a person moves, since they are taken to its page: no "the game has started" or
    "the bot has played" a second later, before their page has polled even once."""
    seen = [presence.last_seen(game.pk, seat.user_id)]
    people = [s for s in seats if not s.user.is_bot]
    starter = max(people, key=lambda s: (s.joined_at, s.pk))
    if (
        starter.pk == seat.pk
        and game.started_at is not None
        and now < game.started_at + presence.GRACE
        and not game.moves.filter(user__isnull=False).exists()
    ):
        seen.append(game.started_at)
    known = [moment for moment in seen if moment is not None]
    return max(known) + presence.GRACE if known else now


def _last_turn_end(game: Game, seat: Seat, turn: int) -> int | None:
    """The move that ended `seat`'s own turn before `turn` (0 before their first turn), which
    the pictures mark what is new since; None for a game from before boards were stored."""
    previous = turn - game.players
    if previous < 0:
        return 0
    rows = Board.objects.filter(game=game, position=seat.position, turn=previous)
    return rows.values_list("move_seq", flat=True).first()


def missed_turns(now: datetime) -> list[tuple[int, int]]:
    """(game id, turn) of turns that started a while ago and whose email was never claimed: lost
    with a down broker or worker, or held back while the player watched (`send_turn` decides).
    Players surely still away are left out: their return sends it (games.mail.returns)."""
    seats = Seat.objects.filter(
        game__turn_started_at__range=(now - CATCH_UP_WINDOW, now - MISSED_AFTER)
    ).exclude(
        # Back at midnight after `away_until` in their time zone: a day later still, in any zone.
        user__away_since__lte=now,
        user__away_until__gt=now.date(),
    )
    return list(untold_turns(seats, now).values_list("game_id", "current_turn")[:SWEEP_BATCH])


def untold_turns(seats: QuerySet[Seat], now: datetime) -> QuerySet[Seat]:
    """Those of `seats` whose player is to move and whose turn email was never claimed (or its
    claim went stale), annotated with the `current_turn` that email is for."""
    last_end = (
        Move.objects.filter(game=OuterRef("game_id"), action__type="end_turn")
        .order_by("-seq")
        .values("turn")[:1]
    )
    return (
        seats.filter(to_move(), user__bot_level="")
        # The first turn (no turn ended yet) is turn 0: its "the game has started" email too.
        .annotate(current_turn=Coalesce(Subquery(last_end) + 1, 0))
        .filter(
            Q(notified_turn__isnull=True)
            | Q(notified_turn__lt=F("current_turn"))
            | Q(notified_turn=F("current_turn"), turn_email_claimed_at__lt=now - STALE_CLAIM)
        )
    )


# --- Reminders ------------------------------------------------------------------------------------


def due_reminders(now: datetime) -> list[tuple[int, datetime]]:
    """(seat id, remind_at) of reminders due now; stale ones (the turn moved on) are dropped."""
    due = Seat.objects.filter(remind_at__lte=now)
    due.exclude(to_move()).update(remind_at=None)
    due = due.filter(to_move()).order_by("remind_at")
    return list(due.values_list("pk", "remind_at")[:SWEEP_BATCH])


def send_reminder(seat_id: int, due: datetime) -> bool:
    """The reminder that was due at `due`; claimed by moving `remind_at` on to the next one."""
    seat = (
        Seat.objects.filter(to_move(), pk=seat_id, remind_at=due)
        .select_related("game", "user")
        .first()
    )
    if seat is None:
        return False  # already sent by another run, or no longer this player's turn
    game, user, now = seat.game, seat.user, timezone.now()
    this_one = Seat.objects.filter(pk=seat_id, remind_at=due)
    deadline = game.turn_deadline
    if deadline is not None and deadline <= now:
        # The limit has passed: the timeout sweep plays the turn for them or drops them, and
        # its email tells them; a reminder of a turn about to stop being theirs would be stale.
        this_one.update(remind_at=None)
        return False
    if user.is_away_at(now):  # away since this reminder was planned: it waits for their return
        this_one.update(remind_at=user.after_quiet_hours(user.back_at))
        return False
    later = user.after_quiet_hours(now)
    if later != now and not (deadline is not None and now < deadline <= later):
        # Quiet hours chosen (or a time zone changed) since this reminder was planned.
        this_one.update(remind_at=later)
        return False
    following = next_reminder(user, game, now)
    if not this_one.update(remind_at=following):
        return False
    if not user.wants_email("reminder"):
        return False
    seats = list(game.seats.select_related("user"))
    zone = clocks.zone_for(game, user)
    with speaking(user):
        left = clocks.duration_words(clocks.counted(now, deadline, zone)) if deadline else ""
        ctx = {
            **game_context(game, seats, user),
            "deadline": deadline,
            # What the clock still counts (a paused weekend left out): the bank, in a time bank
            # game.
            "time_left": left,
        }
    with give_back_on_failure(Seat.objects.filter(pk=seat_id, remind_at=following), remind_at=due):
        emails.reminder(user, ctx)
    return True
