"""What the rest of the site calls when something happens at a table: each call queues the
announcing task by name (after the current transaction commits) when some hook may hear it, and
never raises. games.tasks calls the first two beside the turn and game-over emails; the table
talk's signal the third (webhooks.apps)."""

import logging

from django.db.models import Q

from games.queue import enqueue
from webhooks.models import Webhook

logger = logging.getLogger(__name__)


def _heard(game_id: int) -> bool:
    """Whether the table, or one of its players for all their tables, has a hook. A database
    that fails here costs the chats this event, never the email beside it."""
    try:
        return Webhook.objects.filter(
            Q(game_id=game_id) | Q(game__isnull=True, owner__seats__game_id=game_id)
        ).exists()
    except Exception:
        logger.exception("could not look for the chat hooks of game %s", game_id)
        return False


def turn_started(game_id: int, turn: int) -> None:
    if _heard(game_id):
        enqueue("webhooks.announce_turn", game_id, turn)


def game_finished(game_id: int) -> None:
    if _heard(game_id):
        enqueue("webhooks.announce_game_over", game_id)


def message_posted(game_id: int, message_id: int) -> None:
    """Only a table's own hook hears its talk."""
    try:
        heard = Webhook.objects.filter(game_id=game_id).exists()
    except Exception:
        logger.exception("could not look for the chat hook of game %s", game_id)
        return
    if heard:
        enqueue("webhooks.announce_message", message_id)
