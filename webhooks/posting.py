"""Posting one recorded delivery, exactly once however often its task runs.

The task claims the row with a conditional update before posting (a second run finds it claimed
or done), and finishes it as sent, refused (a 4xx other than 429: final) or, after the last
attempt, failed; a message deleted, hidden or blocked since it was recorded is dropped unposted.
A post worth retrying gives its claim back and tells the task when to try again. The hook keeps
the latest outcome for its owner to read beside it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import F, Q
from django.utils import timezone

from accounts.blocks import has_blocked
from games.models import Message
from webhooks import channels, sender
from webhooks.models import Delivery, Webhook

# A claim this old belonged to a worker that died mid-post: it may be taken again.
STALE_CLAIM = timedelta(minutes=5)
# After up to 1, 2, 4, 8, 16 minutes (jittered), or later if the chat asks: 6 attempts in all.
MAX_RETRIES = 5
BACKOFF_SECONDS = 60
BACKOFF_MAX = 30 * 60


@dataclass(frozen=True)
class Result:
    """What the task does next: nothing, or try again in `countdown` seconds."""

    # "sent", "refused", "failed", "retry", "dropped" (a message taken back before it went), or
    # "" (not ours to post)
    outcome: str
    countdown: int = 0


def backoff(retries: int) -> int:
    """Seconds before the next attempt after `retries` retries, jittered as Celery's own."""
    ceiling = min(BACKOFF_SECONDS * 2**retries, BACKOFF_MAX)
    return random.randint(ceiling // 2, ceiling)


def _taken_back(delivery: Delivery) -> bool:
    """Whether the message a delivery carries is no longer the table's to send: deleted by its
    author, hidden by staff, or by a player the hook's owner has blocked since it was recorded
    (webhooks.events checked the same when it was; a post may wait minutes for a retry)."""
    kind, _, message_id = delivery.key.partition(":")
    if kind != "message" or not message_id.isdigit():
        return False
    message = Message.objects.filter(pk=int(message_id)).select_related("author").first()
    return (
        message is None
        or message.deleted_at is not None
        or message.hidden_by_staff
        or message.author is None
        or has_blocked(delivery.hook.owner, message.author)
    )


def post_once(delivery_id: int, retries: int) -> Result:
    """Post the delivery if this run may: `retries` is how many attempts came before this one's
    task run (the task's own count)."""
    now = timezone.now()
    claimed = (
        Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING)
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - STALE_CLAIM))
        .update(claimed_at=now, attempts=F("attempts") + 1)
    )
    if not claimed:
        return Result("")  # posted, finished, removed with its hook, or being posted now
    delivery = Delivery.objects.select_related("hook__owner").get(pk=delivery_id)
    hook = delivery.hook
    ours = Delivery.objects.filter(pk=delivery.pk, claimed_at=now)
    if _taken_back(delivery):
        ours.delete()  # as if never announced: nothing of it is shown beside the hook
        return Result("dropped")
    outcome = sender.post(hook.url, delivery.payload)
    done = timezone.now()
    if outcome.ok:
        ours.update(status=Delivery.Status.SENT, done_at=done, claimed_at=None, error="")
        Webhook.objects.filter(pk=hook.pk).update(last_ok_at=done)
        channels.refresh(hook.game_id)
        return Result("sent")
    if outcome.retry and retries < MAX_RETRIES:
        ours.update(claimed_at=None, error=outcome.error)  # given back: the retry posts it
        return Result("retry", max(outcome.retry_after, backoff(retries)))
    if outcome.retry:
        error = f"Gave up after {delivery.attempts} attempts. {outcome.error}"
        status = Delivery.Status.FAILED
    else:
        error, status = outcome.error, Delivery.Status.REFUSED
    error = error[: sender.ERROR_CHARS]
    ours.update(status=status, done_at=done, claimed_at=None, error=error)
    Webhook.objects.filter(pk=hook.pk).update(last_error=error, last_error_at=done)
    channels.refresh(hook.game_id)
    return Result(status)
