"""Who gets which email about their games, and exactly once.

Each sender claims before it sends, with a conditional UPDATE (0 rows: another run did it), and
gives the claim back if the mail server fails, so that the task's retry sends it. The finders
below feed the periodic sweeps in `games.tasks`, which catch up on anything a down worker or
broker missed. Preferences are read at sending time; a switched-off email is still claimed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import emails, mail_pictures, presence
from games.models import Game, Move, Seat, names_in_words
from games.narration import describe, end_words
from games.reminders import next_reminder
from games.services.talk import unread_for

# A turn email not claimed this long after the turn started was missed (broker or worker down).
MISSED_AFTER = timedelta(minutes=2)
# A turn email claimed this long ago and still not sent was lost with its worker.
STALE_CLAIM = timedelta(minutes=5)
# Sweeps look this far back; older misses are left to the reminders.
CATCH_UP_WINDOW = timedelta(days=1)
# The daily digest goes out from 8:00 local time (after quiet hours), until 20:00 at the latest.
DIGEST_FROM_HOUR, DIGEST_UNTIL_HOUR = 8, 20
SWEEP_BATCH = 500


@contextmanager
def _give_back_on_failure(claimed: QuerySet, **unclaimed: Any) -> Iterator[None]:
    """If sending fails, undo the claim (only if it is still ours) so that a retry can send."""
    try:
        yield
    except Exception:
        claimed.update(**unclaimed)
        raise


def _to_move(prefix: str = "") -> Q:
    """Seats whose turn it is in a game with other players (a solo game waits for nobody)."""
    return Q(
        **{
            f"{prefix}game__status": Game.Status.ACTIVE,
            f"{prefix}game__players__gt": 1,
            f"{prefix}position": F(f"{prefix}game__current_seat"),
            f"{prefix}resigned_at__isnull": True,
            f"{prefix}dropped_at__isnull": True,
        }
    )


def _names(users: list[User]) -> str:
    return names_in_words([u.public_name for u in users])


def _game_context(game: Game, seats: list[Seat], user: User) -> dict[str, Any]:
    return {
        "game": game,
        "game_url": settings.SITE_URL + game.get_absolute_url(),
        "opponents": _names([s.user for s in seats if s.user_id != user.pk]),
    }


# --- Your turn ------------------------------------------------------------------------------------


def send_turn(game_id: int, turn: int) -> bool:
    """The "your turn" email for the engine's turn `turn`; False when none was sent."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None or game.solo or game.engine_state().turn != turn:
        return False  # over, solo, or already played: the email would be stale
    seats = list(game.seats.select_related("user"))
    by_position = {s.position: s for s in seats}
    seat = by_position[game.current_seat]
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
        # (early, or at the end of the time away) sends it (games.returns), once.
        ours.update(notified_turn=seat.notified_turn, turn_email_claimed_at=None)
        return False
    if now < held_until(game, seats, seat, now):
        # Watching only postpones the email: the claim is given back, and the missed-turn sweep
        # sends it once the page has stopped polling for the grace period, if still their turn.
        ours.update(notified_turn=seat.notified_turn, turn_email_claimed_at=None)
        return False
    moves = _moves_of_turn(game, turn - 1) if turn > 0 else []
    previous = moves[-1].seat if moves else (seat.position - 1) % game.players
    mover = by_position[previous].user
    last = moves[-1] if moves else None
    ctx = {
        **_game_context(game, seats, user),
        "mover": mover,
        "game_started": turn == 0,  # the first turn: nobody has moved yet
        # Played for the player (they resigned, or their time ran out), not by them.
        "stand_in": last is not None and last.user_id is None and not last.detail.get("bot"),
        "timed_out": last is not None and bool(last.detail.get("timed_out")),
        "sentences": [describe(m.action, m.detail, mover.public_name) for m in moves],
        **_talk(seat),
    }
    mover_seat = by_position[previous] if moves else None
    ctx["pictures"] = mail_pictures.turn_pictures(game, seat, mover_seat)
    with _give_back_on_failure(ours, notified_turn=seat.notified_turn, turn_email_claimed_at=None):
        emails.turn(user, ctx)
    ours.update(turn_email_claimed_at=None)
    return True


def _talk(seat: Seat) -> dict[str, Any]:
    """The table talk the player has not seen yet (none from a muted game), for an email."""
    messages, more = unread_for(seat)
    return {"talk": messages, "more_talk": more}


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


def _moves_of_turn(game: Game, turn: int) -> list[Move]:
    """The moves that stood at the end of a turn: what came before a reset was taken back."""
    moves = list(game.moves.filter(turn=turn).order_by("seq"))
    resets = [i for i, m in enumerate(moves) if m.action.get("type") == "reset_turn"]
    return moves[resets[-1] + 1 :] if resets else moves


def missed_turns(now: datetime) -> list[tuple[int, int]]:
    """(game id, turn) of turns that started a while ago and whose email was never claimed: lost
    with a down broker or worker, or held back while the player watched (`send_turn` decides).
    Players surely still away are left out: their return sends it (games.returns)."""
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
        seats.filter(_to_move(), user__bot_level="")
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
    due.exclude(_to_move()).update(remind_at=None)
    due = due.filter(_to_move()).order_by("remind_at")
    return list(due.values_list("pk", "remind_at")[:SWEEP_BATCH])


def send_reminder(seat_id: int, due: datetime) -> bool:
    """The reminder that was due at `due`; claimed by moving `remind_at` on to the next one."""
    seat = (
        Seat.objects.filter(_to_move(), pk=seat_id, remind_at=due)
        .select_related("game", "user")
        .first()
    )
    if seat is None:
        return False  # already sent by another run, or no longer this player's turn
    game, user, now = seat.game, seat.user, timezone.now()
    this_one = Seat.objects.filter(pk=seat_id, remind_at=due)
    if user.is_away_at(now):  # away since this reminder was planned: it waits for their return
        this_one.update(remind_at=user.after_quiet_hours(user.back_at))
        return False
    later = user.after_quiet_hours(now)
    deadline = game.turn_deadline
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
    ctx = {
        **_game_context(game, seats, user),
        "deadline": deadline,
        "deadline_passed": deadline is not None and deadline <= now,
    }
    with _give_back_on_failure(Seat.objects.filter(pk=seat_id, remind_at=following), remind_at=due):
        emails.reminder(user, ctx)
    return True


# --- Daily digest ---------------------------------------------------------------------------------


def waiting_games(user: User) -> QuerySet[Game]:
    """The games waiting for this player's move, most urgent first: the nearest time limit, then
    the longest wait."""
    return (
        Game.objects.filter(Exists(Seat.objects.filter(_to_move(), game=OuterRef("pk"), user=user)))
        .prefetch_related("seats__user")
        .order_by(F("turn_deadline").asc(nulls_last=True), "turn_started_at", "pk")
    )


def due_digests(now: datetime) -> list[tuple[int, date]]:
    """(user id, their local date) of players whose digest for today is due and not yet sent."""
    waiting = Seat.objects.filter(_to_move(), user=OuterRef("pk"))
    users = (
        User.objects.filter(Exists(waiting), email_digest=True, is_active=True, bot_level="")
        .exclude(email="")
        .only(
            "pk", "time_zone", "quiet_start", "quiet_end", "last_digest_on", "away_until",
            "away_since",
        )
    )  # fmt: skip
    due = []
    for user in users:
        local = now.astimezone(user.tzinfo)
        if not DIGEST_FROM_HOUR <= local.hour < DIGEST_UNTIL_HOUR or user.is_quiet_at(now):
            continue
        if user.is_away_at(now):
            continue  # no digest while away
        if user.last_digest_on is None or user.last_digest_on < local.date():
            due.append((user.pk, local.date()))
    return due


def send_digest(user_id: int, day: date) -> bool:
    """Today's digest for one player: claimed by storing the day it was sent for."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return False
    claimed = User.objects.filter(
        Q(last_digest_on__isnull=True) | Q(last_digest_on__lt=day), pk=user_id
    ).update(last_digest_on=day)
    if not claimed or not user.wants_email("digest"):
        return False
    games = [
        {
            **_game_context(g, list(g.seats.all()), user),
            "deadline": g.turn_deadline,
            **_talk(next(s for s in g.seats.all() if s.user_id == user.pk)),
        }
        for g in waiting_games(user)
    ]
    if not games:
        return False
    with _give_back_on_failure(
        User.objects.filter(pk=user_id, last_digest_on=day), last_digest_on=user.last_digest_on
    ):
        emails.digest(user, {"games": games, "day": day})
    return True


# --- Game over ------------------------------------------------------------------------------------


def send_game_over(game_id: int) -> int:
    """Final scores to every player of a finalized game, once each; returns how many were sent."""
    game = Game.objects.filter(
        pk=game_id, status=Game.Status.FINISHED, finalized_at__isnull=False
    ).first()
    if game is None:
        return 0
    seats = list(game.seats.select_related("user").order_by("rank", "position"))
    sent = 0
    for seat in seats:
        user = seat.user
        if user.is_bot:
            continue
        claimed = Seat.objects.filter(pk=seat.pk, game_over_notified_at__isnull=True).update(
            game_over_notified_at=timezone.now()
        )
        if not claimed or not user.wants_email("game_over"):
            continue
        ctx = {
            **_game_context(game, seats, user),
            "seat": seat,
            "seats": seats,
            "place": _ordinal(seat.rank),
            "sheet_url": settings.SITE_URL + reverse("records:sheet", args=[game.pk]),
            "end_words": end_words(game, seats),
        }
        ctx["pictures"] = mail_pictures.game_over_pictures(game, seats, seat)
        with _give_back_on_failure(Seat.objects.filter(pk=seat.pk), game_over_notified_at=None):
            emails.game_over(user, ctx)
        sent += 1
    return sent


# --- A turn's time ran out -----------------------------------------------------------------------


def send_timeout(game_id: int, turn: int) -> int:
    """Tells every person at the table what the timeout sweep did on turn `turn` (a stand-in
    played it, or the late player was dropped), once each; returns how many were sent."""
    game = Game.objects.filter(pk=game_id).first()
    late_move = Move.objects.filter(game_id=game_id, turn=turn).order_by("seq").first()
    if game is None or late_move is None:
        return 0
    seats = list(game.seats.select_related("user"))
    late = next((s for s in seats if s.position == late_move.seat), None)
    if late is None:
        return 0
    sent = 0
    for seat in seats:
        user = seat.user
        if user.is_bot:
            continue
        claimed = (
            Seat.objects.filter(pk=seat.pk)
            .exclude(timeout_notified_turn=turn)
            .update(timeout_notified_turn=turn)
        )
        if not claimed or not user.wants_email("turn"):
            continue
        ctx = {
            **_game_context(game, seats, user),
            "late": late,
            "late_name": "you" if late.pk == seat.pk else late.user.public_name,
            "is_me": late.pk == seat.pk,
            "dropped": late.dropped_at is not None,
            "ended": game.status == Game.Status.FINISHED,
            "turn_number": turn + 1,
            "sheet_url": settings.SITE_URL + reverse("records:sheet", args=[game.pk]),
        }
        with _give_back_on_failure(Seat.objects.filter(pk=seat.pk), timeout_notified_turn=None):
            emails.timeout(user, ctx)
        sent += 1
    return sent


def _ordinal(n: int | None) -> str:
    if n is None:
        return ""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def games_missing_game_over(now: datetime) -> list[int]:
    """Games finalized a while ago where a player's game-over email was never claimed."""
    unclaimed = Seat.objects.filter(
        game=OuterRef("pk"), game_over_notified_at__isnull=True, user__bot_level=""
    )
    games = Game.objects.filter(
        Exists(unclaimed),
        status=Game.Status.FINISHED,
        finalized_at__range=(now - CATCH_UP_WINDOW, now - MISSED_AFTER),
    )
    return list(games.values_list("pk", flat=True)[:SWEEP_BATCH])
