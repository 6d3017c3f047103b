"""Celery tasks for chat webhooks, on the "mail" queue beside the emails but never inside them: a
slow chat holds no email. Each takes ids, keeps no result and is safe to run twice (each event is
recorded once per hook, each post claimed: webhooks.events, webhooks.posting)."""

from celery import shared_task

from games.queue import send_now
from webhooks import events, posting


def _queue(delivery_ids: list[int]) -> int:
    for delivery_id in delivery_ids:
        send_now("webhooks.deliver", delivery_id)
    return len(delivery_ids)


@shared_task(name="webhooks.announce_turn", ignore_result=True)
def announce_turn(game_id: int, turn: int) -> int:
    return _queue(events.announce_turn(game_id, turn))


@shared_task(name="webhooks.announce_message", ignore_result=True)
def announce_message(message_id: int) -> int:
    return _queue(events.announce_message(message_id))


@shared_task(name="webhooks.announce_game_over", ignore_result=True)
def announce_game_over(game_id: int) -> int:
    return _queue(events.announce_game_over(game_id))


@shared_task(
    name="webhooks.deliver", bind=True, ignore_result=True, max_retries=posting.MAX_RETRIES
)
def deliver(self, delivery_id: int) -> str:
    """One post; a chat that failed (unreachable, 429, 5xx) is tried again with backoff, after
    Retry-After when it says, and given up after the last attempt (shown beside the hook)."""
    result = posting.post_once(delivery_id, self.request.retries)
    if result.outcome == "retry":
        raise self.retry(countdown=result.countdown)
    return result.outcome
