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


MESSAGE_END = "-" * 79  # the line Django's file backend writes after every message


def wait_for_mail(folder: Path) -> list[str]:
    """The emails the worker wrote, once there is one and each is written to its end."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        texts = [f.read_text() for f in sorted(folder.glob("*.log"))]
        if texts and all(text.rstrip().endswith(MESSAGE_END) for text in texts):
            return texts
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


def wait_until(condition) -> bool:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if condition():
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
    # The folder may already hold the start email (to the first player): wait for this one.
    assert wait_until(lambda: turn_emails_to(mail_dir, waiting) >= 1), (
        f"no turn email within {WAIT_SECONDS} s; worker log:\n{log_path.read_text()}"
    )
    assert tasks.sweep_missed_turns() == 0  # claimed and sent: nothing left to catch up
    # Every turn email task the worker was given has finished (the start, the turn, the swept
    # one): had the swept one been sent twice, the second would be in the folder now.
    assert wait_for_log_lines(log_path, "games.notify_turn[", "succeeded in", times=3), (
        log_path.read_text()
    )
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


def emails_by_recipient(mail_dir: Path) -> dict[str, list[str]]:
    """The subjects the file backend wrote, by recipient (headers unfolded, as a client reads
    them: a long subject is written on several lines)."""
    from email import message_from_string, policy

    text = "".join(f.read_text() for f in sorted(mail_dir.glob("*.log")))
    found: dict[str, list[str]] = {}
    for chunk in text.split("-" * 79 + "\n"):
        if not chunk.strip():
            continue
        message = message_from_string(chunk.lstrip("\n"), policy=policy.default)
        found.setdefault(str(message["To"]), []).append(str(message["Subject"]))
    return found


def succeeded(logs: list[Path], task: str) -> int:
    return sum(
        sum(f"{task}[" in line and "succeeded in" in line for line in log.read_text().splitlines())
        for log in logs
    )


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_real_workers_send_one_email_per_person_for_a_turn_that_timed_out(
    player, other_player, tmp_path, tasks_go_to_the_worker
):
    """Each task of the timeout queued three times, taken by whichever of two workers is free:
    the late player gets the notice (no reminder), the next player one turn email that tells
    it, the third player the notice."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services, tasks
    from games.models import Game, Seat
    from tests.celery_workers import wait_until_ready
    from tests.factories import UserFactory

    carol = UserFactory(username="carol", display_name="Carol")
    User.objects.update(email_invitation=False, quiet_start=0, quiet_end=0)
    game = services.create_game(
        creator=player, players=3, side="A", spirits=False, invitees=[other_player, carol],
        turn_limit_days=1,
    )  # fmt: skip
    for user in (other_player, carol):
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    late = user_to_move(game)
    position = game.seats.get(user=late).position
    nxt, third = (game.seats.get(position=(position + i) % 3).user for i in (1, 2))
    now = timezone.now()
    # The turn started a day ago and its limit has just passed; a reminder was due at the limit.
    Game.objects.filter(pk=game.pk).update(
        started_at=now - timedelta(days=1, minutes=5),
        turn_started_at=now - timedelta(days=1, minutes=5),
        turn_deadline=now - timedelta(minutes=5),
    )
    Seat.objects.filter(game=game, user=late).update(remind_at=now - timedelta(minutes=5))
    purge([QUEUE])  # the start's own emails are not what this test looks at
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    env = worker_environment(mail_dir)
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    with celery_worker([QUEUE], logs[0], env, "a"), celery_worker([QUEUE], logs[1], env, "b"):
        for log in logs:
            wait_until_ready(log)
        turn = game.engine_state().turn
        assert tasks.sweep_reminders() == 1  # queues the stale reminder
        assert services.act_on_timeout(game.pk, turn)  # queues the notice and the turn email
        for _ in range(2):  # redelivered, or queued again: both workers take some
            tasks.notify_timeout.delay(game.pk, turn)
            tasks.notify_turn.delay(game.pk, turn + 1)
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline and not (
            succeeded(logs, "games.notify_timeout") == 3
            and succeeded(logs, "games.notify_turn") == 3
            and succeeded(logs, "games.send_reminder") == 1
        ):
            time.sleep(0.2)
        worker_logs = "\n".join(log.read_text() for log in logs)
        assert succeeded(logs, "games.notify_turn") == 3, worker_logs
    sent = emails_by_recipient(mail_dir)
    assert len(sent.get(late.email, [])) == 1, sent
    assert "your turn ran out of time, a stand-in played it" in sent[late.email][0]
    assert len(sent.get(nxt.email, [])) == 1, sent
    assert "time ran out, a stand-in played: your turn in" in sent[nxt.email][0]
    assert len(sent.get(third.email, [])) == 1, sent
    assert f"{late.public_name}'s turn ran out of time" in sent[third.email][0]
