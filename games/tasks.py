"""Celery tasks. Each takes ids, keeps no result, and is safe to run twice."""

from datetime import date, datetime
from smtplib import SMTPException

from celery import shared_task
from django.utils import timezone

from games import services
from games.mail import digest, endings, returns, turns
from games.mail import tables as table_mail
from games.mail.claims import MISSED_AFTER, SWEEP_BATCH
from games.models import Game
from games.services import coaching, weekly
from push import notify as push
from records.tasks import record_game
from webhooks import notify as webhooks

# Mail tasks retry when the mail server fails, after up to 1, 2, 4, 8, 16 minutes (jittered): all
# well within the broker's one-hour visibility timeout, so a waiting retry is never redelivered.
MAIL_RETRY = {
    "autoretry_for": (SMTPException, OSError),
    "retry_backoff": 60,
    "retry_backoff_max": 30 * 60,
    "max_retries": 5,
}


@shared_task(name="games.finalize_game", ignore_result=True)
def finalize_game(game_id: int) -> bool:
    """Final scores and ranks for a finished game; a second run finds nothing to claim."""
    finalized = services.finalize(game_id)
    if finalized:  # then the results tables, ratings and leaderboards (records app)
        record_game.delay_on_commit(game_id)
        notify_game_over.delay(game_id)
    return finalized


@shared_task(name="games.play_automatic_turn", ignore_result=True)
def play_automatic_turn(game_id: int, turn: int) -> bool:
    """A bot's (or a resigned player's) turn; a late or repeated run finds it already played."""
    return services.play_automatic_turn(game_id, turn)


@shared_task(name="games.review_seat", ignore_result=True)
def review_seat(review_id: int) -> bool:
    """The hard bot's review of one seat's turns; a second run finds it claimed or done."""
    return coaching.make_review(review_id)


@shared_task(name="games.make_hint", ignore_result=True)
def make_hint(game_id: int, version: int) -> bool:
    """The hard bot's hint for one version of a game; kept in the cache, made once."""
    return coaching.make_hint(game_id, version)


# --- Emails (games.mail decides who gets what, once) ------------------------------------


@shared_task(name="games.notify_turn", ignore_result=True, **MAIL_RETRY)
def notify_turn(game_id: int, turn: int) -> bool:
    """The "your turn" email; a second run finds the turn already claimed."""
    push.turn_started(game_id, turn)  # its own task and claim: a slow push service holds no email
    webhooks.turn_started(game_id, turn)  # the chats too, each post its own task
    return turns.send_turn(game_id, turn)


@shared_task(name="games.send_reminder", ignore_result=True, **MAIL_RETRY)
def send_reminder(seat_id: int, due: str) -> bool:
    """One reminder, named by the `remind_at` it was due at, which the send claims."""
    return turns.send_reminder(seat_id, datetime.fromisoformat(due))


@shared_task(name="games.send_digest", ignore_result=True, **MAIL_RETRY)
def send_digest(user_id: int, day: str) -> bool:
    return digest.send_digest(user_id, date.fromisoformat(day))


@shared_task(name="games.notify_timeout", ignore_result=True, **MAIL_RETRY)
def notify_timeout(game_id: int, turn: int) -> int:
    """What the timeout sweep did on `turn`, to every player; each player's email is claimed."""
    return endings.send_timeout(game_id, turn)


@shared_task(name="games.act_on_timeout", ignore_result=True)
def act_on_timeout(game_id: int, turn: int) -> bool:
    """A turn past its limit: stand-in or drop, as the creator chose; a second run finds the
    turn already moved on."""
    return services.act_on_timeout(game_id, turn)


@shared_task(name="games.notify_game_over", ignore_result=True, **MAIL_RETRY)
def notify_game_over(game_id: int) -> int:
    push.game_finished(game_id)
    webhooks.game_finished(game_id)
    return endings.send_game_over(game_id)


# --- Table emails (games.mail.tables claims each before sending) ---------------------------------


@shared_task(name="games.notify_invitation", ignore_result=True, **MAIL_RETRY)
def notify_invitation(invitation_id: int) -> bool:
    return table_mail.send_invitation(invitation_id)


@shared_task(name="games.notify_table_started", ignore_result=True, **MAIL_RETRY)
def notify_table_started(game_id: int, joined_by_id: int) -> bool:
    return table_mail.send_table_started(game_id, joined_by_id)


@shared_task(name="games.notify_invitation_declined", ignore_result=True, **MAIL_RETRY)
def notify_invitation_declined(invitation_id: int) -> bool:
    return table_mail.send_declined(invitation_id)


@shared_task(name="games.notify_table_cancelled", ignore_result=True, **MAIL_RETRY)
def notify_table_cancelled(game_id: int) -> int:
    return table_mail.send_cancelled(game_id)


# --- Periodic sweeps (scheduled in harmonies_site/celery.py) -------------------------------------


@shared_task(name="games.sweep_reminders", ignore_result=True)
def sweep_reminders() -> int:
    due = turns.due_reminders(timezone.now())
    for seat_id, remind_at in due:
        send_reminder.delay(seat_id, remind_at.isoformat())
    return len(due)


@shared_task(name="games.sweep_digests", ignore_result=True)
def sweep_digests() -> int:
    due = digest.due_digests(timezone.now())
    for user_id, day in due:
        send_digest.delay(user_id, day.isoformat())
    return len(due)


@shared_task(name="games.sweep_missed_turns", ignore_result=True)
def sweep_missed_turns() -> int:
    """Turn emails whose task was never queued (broker down) or lost, or held while their player
    was away and now back; notify_turn claims."""
    now = timezone.now()
    missed = set(turns.missed_turns(now)) | set(returns.back_from_away(now))
    for game_id, turn in sorted(missed):
        notify_turn.delay(game_id, turn)
    return len(missed)


@shared_task(name="games.sweep_finished_games", ignore_result=True)
def sweep_finished_games() -> int:
    """Finished games never finalized, and game-over emails never claimed; both tasks claim."""
    now = timezone.now()
    waiting = Game.objects.filter(
        status=Game.Status.FINISHED,
        finalized_at__isnull=True,
        finished_at__lte=now - MISSED_AFTER,
    ).values_list("pk", flat=True)
    unfinalized = list(waiting[:SWEEP_BATCH])
    for game_id in unfinalized:
        finalize_game.delay(game_id)
    unsent = endings.games_missing_game_over(now)
    for game_id in unsent:
        notify_game_over.delay(game_id)
    return len(unfinalized) + len(unsent)


@shared_task(name="games.sweep_automatic_turns", ignore_result=True)
def sweep_automatic_turns() -> int:
    """Bot and stand-in turns whose task was never queued (broker down) or was lost."""
    due = services.overdue_automatic_turns(timezone.now())
    for game_id, turn in due:
        play_automatic_turn.delay(game_id, turn)
    return len(due)


@shared_task(name="games.sweep_reviews", ignore_result=True)
def sweep_reviews() -> int:
    """Reviews whose task was never queued or was lost with its worker (review_seat claims)."""
    due = coaching.lost_reviews(timezone.now())
    for review_id in due:
        review_seat.delay(review_id)
    return len(due)


@shared_task(name="games.sweep_timeouts", ignore_result=True)
def sweep_timeouts() -> int:
    """Turns whose time limit has passed are acted on without anyone opening the game."""
    due = services.due_timeouts(timezone.now())
    for game_id, turn in due:
        act_on_timeout.delay(game_id, turn)
    return len(due)


@shared_task(name="games.sweep_weekly_deal", ignore_result=True)
def sweep_weekly_deal() -> int:
    """This week's deal made on Monday, before anyone asks for it (the first visit would)."""
    return weekly.make_this_weeks_deal()
