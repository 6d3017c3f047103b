"""The production path end to end: a move queues the turn email on Redis, and a real Celery worker
process (which reads the same PostgreSQL database) sends it.

With SQLite the worker could not see the test database, so this needs PostgreSQL as well as Redis.
"""

import time
from pathlib import Path

import pytest
from django.conf import settings

from accounts.models import User
from tests.celery_workers import celery_worker, purge, tasks_routed, worker_environment
from tests.games.helpers import play_turns, start_game, user_to_move

# The test's own queue, so a developer's running worker cannot take the task instead.
QUEUE = "harmonies-test-worker"
WAIT_SECONDS = 30


@pytest.fixture
def worker(tmp_path):
    """A Celery worker process on the test's queue, writing mail into a folder; always stopped."""
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    env = worker_environment(mail_dir)
    with celery_worker([QUEUE], tmp_path / "worker.log", env) as log_path:
        yield mail_dir, log_path


@pytest.fixture
def tasks_go_to_the_worker():
    """Queue on Redis (the session runs tasks in-process) and route games tasks to QUEUE."""
    purge([QUEUE])
    with tasks_routed({"games.*": {"queue": QUEUE}}):
        yield


def wait_for_mail(folder: Path) -> list[str]:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        files = sorted(folder.glob("*.log"))
        if files:
            time.sleep(0.2)  # let the backend finish writing
            return [f.read_text() for f in files]
        time.sleep(0.2)
    return []


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_the_turn_email(player, other_player, worker, tasks_go_to_the_worker):
    mail_dir, log_path = worker
    # Only the turn email is looked for here: the invitation and "your table is full" are not.
    User.objects.filter(pk__in=[player.pk, other_player.pk]).update(email_invitation=False)
    game = start_game(player, other_player)
    mover = user_to_move(game)
    waiting = other_player if mover == player else player
    play_turns(game, turns=1)  # each move commits; the end of the turn queues notify_turn

    messages = wait_for_mail(mail_dir)
    assert messages, f"no email within {WAIT_SECONDS} s; worker log:\n{log_path.read_text()}"
    (message,) = messages
    assert f"To: {waiting.email}" in message
    game.refresh_from_db()
    assert f"{mover.public_name} has played: your turn in {game.title}" in message
    assert settings.SITE_URL + game.get_absolute_url() in message
    # Both boards, drawn by the worker, travel inline with the HTML part.
    assert message.count("Content-Type: image/png") == 2
    assert "Content-Type: multipart/related" in message


def wait_for_log(log_path: Path, text: str, times: int = 1) -> bool:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if log_path.read_text().count(text) >= times:
            return True
        time.sleep(0.2)
    return False


def wait_for_log_lines(log_path: Path, *parts: str, times: int = 1) -> bool:
    """Wait until `times` lines of the worker's log hold every one of `parts`."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        lines = log_path.read_text().splitlines()
        if sum(all(part in line for part in parts) for line in lines) >= times:
            return True
        time.sleep(0.2)
    return False


def turn_emails_to(mail_dir: Path, user) -> int:
    """Turn emails (not the table's news) the file backend wrote for `user`."""
    messages = "".join(f.read_text() for f in mail_dir.glob("*.log")).split("\n" + "-" * 79)
    return sum(
        f"To: {user.email}" in m and ("your turn" in m or "you play first" in m) for m in messages
    )


def as_if_minutes_ago(game, user, minutes: int) -> None:
    """Time passes without waiting: the turn started, and the page last polled, `minutes` ago."""
    from datetime import timedelta

    from django.utils import timezone

    from games import presence
    from games.models import Game

    past = timezone.now() - timedelta(minutes=minutes)
    Game.objects.filter(pk=game.pk).update(turn_started_at=past)
    presence.mark_present(game.pk, user.pk, at=past)


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_holds_the_email_while_watched_and_the_sweep_sends_it_once_after_leaving(
    player, other_player, worker, tasks_go_to_the_worker
):
    from games import presence, tasks

    mail_dir, log_path = worker
    game = start_game(player, other_player)
    waiting = other_player if user_to_move(game) == player else player
    presence.mark_present(game.pk, waiting.pk)  # their page polls (through Redis, as in production)
    play_turns(game, turns=1)
    # Both turn emails so far (the game's start, then this turn) were tried (the table's own
    # emails run on the worker too). The start one goes to the first player, who may be the
    # creator, not on the page: only the watcher's turn email is held.
    assert wait_for_log_lines(log_path, "games.notify_turn[", "succeeded in", times=2), (
        log_path.read_text()
    )
    assert turn_emails_to(mail_dir, waiting) == 0  # held back while watched

    as_if_minutes_ago(game, waiting, minutes=3)  # they left 3 minutes ago, longer than the grace
    # The sweep beat runs every minute (here in this process): it queues the held email again.
    assert tasks.sweep_missed_turns() == 1
    messages = wait_for_mail(mail_dir)
    assert messages, f"no email within {WAIT_SECONDS} s; worker log:\n{log_path.read_text()}"
    assert tasks.sweep_missed_turns() == 0  # claimed and sent: nothing left to catch up
    time.sleep(2)
    assert turn_emails_to(mail_dir, waiting) == 1


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_nothing_to_a_player_who_acts_while_watching(
    player, other_player, worker, tasks_go_to_the_worker
):
    from games import presence, tasks

    mail_dir, log_path = worker
    game = start_game(player, other_player)
    mover = user_to_move(game)
    watcher = other_player if mover == player else player
    presence.mark_present(game.pk, watcher.pk)
    presence.mark_present(game.pk, mover.pk)  # both watch: no email for either while they play
    play_turns(game, turns=2)  # the watcher plays their turn in turn
    # The three turn emails (the start, then each turn) were tried; the table's own emails run on
    # the worker too, so its turn-email lines are the ones to wait for.
    assert wait_for_log_lines(log_path, "games.notify_turn[", "succeeded in", times=3), (
        log_path.read_text()
    )
    as_if_minutes_ago(game, mover, minutes=3)
    assert (
        tasks.sweep_missed_turns() == 1
    )  # as beat does: the mover's held email, not the watcher's
    messages = wait_for_mail(mail_dir)
    assert [m for m in messages if f"To: {watcher.email}" in m] == []
    assert [m for m in messages if f"To: {mover.email}" in m]  # the mover left: now told
