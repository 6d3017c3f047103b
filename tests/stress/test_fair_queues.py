"""Fair queues (issue 12, point 4): bot turns have their own Celery queue, so a worker busy with
a pile of them does not delay anyone's email.

Two real worker processes, as production runs them: one on the bots queue, one on mail and the
default queue. Many tables of hard bots keep the first busy; a turn ended meanwhile in a game of
two people must have its email sent within 2 s. Before the queues were split, the email waited
behind every bot turn queued before it (36.5 s in the report).

The routes are the site's own (settings.CELERY_TASK_ROUTES), with each queue renamed for this
test, so a developer's running worker cannot take the tasks instead.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.conf import settings

from games import services
from games.models import Move
from games.services.bots import bots_for
from tests.celery_workers import (
    celery_worker,
    purge,
    tasks_routed,
    wait_until_ready,
    worker_environment,
)
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game, user_to_move

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PREFIX = "harmonies-test-fair-"
EMAIL_WITHIN_SECONDS = 2
BOT_TABLES = 12  # 4 players, 3 hard bots each: a backlog of tens of seconds of bot turns


def queue_name(name: str) -> str:
    return PREFIX + name


@pytest.fixture
def workers(tmp_path):
    """A bots worker and a mail worker, as docs/operating.md runs them; stopped and purged."""
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    queues = [queue_name(q) for q in ("bots", "mail", "celery")]
    purge(queues)
    env = worker_environment(mail_dir)
    bots_queues, mail_queues = [queue_name("bots")], [queue_name("celery"), queue_name("mail")]
    try:
        with (
            celery_worker(bots_queues, tmp_path / "bots.log", env, "bots") as bots_log,
            celery_worker(mail_queues, tmp_path / "mail.log", env, "mail") as mail_log,
        ):
            for log_path in (bots_log, mail_log):
                wait_until_ready(log_path)
            yield mail_dir, [bots_log, mail_log]
    finally:
        purge(queues)


@pytest.fixture
def site_routes_to_test_queues():
    """Queue on Redis (the session runs tasks in-process), through the site's routes renamed."""
    routes = getattr(settings, "CELERY_TASK_ROUTES", None) or {}
    renamed = {
        name: {**route, "queue": queue_name(route["queue"])} for name, route in routes.items()
    }
    with tasks_routed(renamed, default_queue=queue_name("celery")):
        yield


def bot_turns_waiting(tables) -> int:
    return sum(1 for game in tables if user_to_move(game).is_bot)


def turn_email_to(mail_dir: Path, address: str) -> bool:
    return any(f"To: {address}" in f.read_text() for f in mail_dir.glob("*.log"))


def test_a_turn_email_is_not_kept_waiting_by_bot_turns(workers, site_routes_to_test_queues):
    mail_dir, logs = workers
    # Tables of hard bots, by several players (one player's number of bot tables is capped).
    tables = []
    for n in range(BOT_TABLES):
        creator = UserFactory(username=f"botfan{n}")
        tables.append(
            services.create_game(
                creator=creator, players=4, side="A", spirits=False,
                bots=bots_for(["hard", "hard", "hard"]),
            )
        )  # fmt: skip
    assert bot_turns_waiting(tables) >= BOT_TABLES // 2  # a bot starts at most tables

    # Wait until the bots worker is at work: no person has moved at these tables yet.
    deadline = time.monotonic() + 60
    while not Move.objects.filter(game__in=tables).exists():
        assert time.monotonic() < deadline, Path(logs[0]).read_text()
        time.sleep(0.2)

    bob, carol = UserFactory(username="bob"), UserFactory(username="carol")
    game = start_game(bob, carol)
    waiting = carol if user_to_move(game) == bob else bob
    play_turns(game, turns=1)  # ending the turn queues the email, after the commit
    ended = time.monotonic()
    while not turn_email_to(mail_dir, waiting.email):
        waited = time.monotonic() - ended
        assert waited < EMAIL_WITHIN_SECONDS, (
            f"no turn email after {waited:.1f} s; mail worker:\n{Path(logs[1]).read_text()}"
        )
        time.sleep(0.05)
    # And the bots worker was still busy with the backlog when it went out.
    assert bot_turns_waiting(tables) > 0
