"""Queue a task after the commit, without letting a broker outage undo a move's response.

`delay_on_commit` raises after the commit when Redis is unreachable: the move is saved but the
player would see an error. Here the failure is logged instead, and the periodic sweeps
(games.tasks) find the game later and do the work once the broker is back.
"""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue(task, *args, **options) -> None:
    """`task.apply_async(args, **options)` once the current transaction commits."""
    transaction.on_commit(lambda: send_now(task, *args, **options))


def send_now(task, *args, **options) -> bool:
    """Queue (or, when eager, run) the task now; False if that failed. Never raises."""
    try:
        task.apply_async(args, **options)
    except Exception:  # the broker is down, or an eager run failed: a sweep catches up
        logger.exception("could not queue %s%r; a periodic sweep will catch up", task.name, args)
        return False
    return True
