"""Celery tasks for Web Push, on the "mail" queue beside the emails but never inside them: a
slow push service holds no email. Each takes ids, keeps no result and is safe to run twice (every
device's push is claimed in push.deliveries)."""

from celery import shared_task
from django.utils import timezone

from push import deliveries
from push.sender import PushFailed

# A push service that failed (unreachable, 429, 5xx) is tried again after up to 1, 2, 4, 8, 16
# minutes (jittered), within the broker's one-hour visibility timeout.
PUSH_RETRY = {
    "autoretry_for": (PushFailed,),
    "retry_backoff": 60,
    "retry_backoff_max": 30 * 60,
    "max_retries": 5,
}


@shared_task(name="push.push_turn", ignore_result=True, **PUSH_RETRY)
def push_turn(game_id: int, turn: int) -> int:
    return deliveries.send_turn(game_id, turn)


@shared_task(name="push.push_game_over", ignore_result=True, **PUSH_RETRY)
def push_game_over(game_id: int) -> int:
    return deliveries.send_game_over(game_id)


@shared_task(name="push.push_message", ignore_result=True, **PUSH_RETRY)
def push_message(game_id: int, message_id: int, author_id: int, text: str) -> int:
    return deliveries.send_message(game_id, message_id, author_id, text)


@shared_task(name="push.prune_deliveries", ignore_result=True)
def prune_deliveries() -> int:
    """Old claims, no longer needed to keep a push from going twice."""
    return deliveries.prune(timezone.now())
