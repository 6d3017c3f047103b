"""Queue a task after the commit, without letting a broker outage undo a move's response.

`delay_on_commit` raises after the commit when Redis is unreachable: the move is saved but the
player would see an error. Here the failure is logged instead, and the periodic sweeps
(games.tasks) find the game later and do the work once the broker is back.

A task is named by its registered name (`enqueue("games.notify_turn", game.pk, turn)`), the
contract the routes (`CELERY_TASK_ROUTES`) and beat (`harmonies_site.celery.SWEEPS`) already use:
the writer queues its follow-ups without importing the tasks, which import the writer. The names
are checked against the registry by tests/site/test_layers.py.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue(name: str, *args, **options) -> None:
    """`apply_async(args, **options)` of the task registered as `name`, after the commit."""
    transaction.on_commit(lambda: send_now(name, *args, **options))


def send_now(name: str, *args, **options) -> bool:
    """Queue (or, when eager, run) the task now; False if that failed. Never raises."""
    try:
        task_named(name).apply_async(args, **options)
    except Exception:  # the broker is down, or an eager run failed: a sweep catches up
        logger.exception("could not queue %s%r; a periodic sweep will catch up", name, args)
        return False
    return True


def task_named(name: str):
    """The registered task: the apps' tasks modules are imported on first need, as a worker does."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.loader.import_default_modules()
    return tasks[name]
