"""`make run` with nothing set, for real: a worker process takes the site's tasks from the
filesystem broker and reads the cache the other processes write.

Everything runs outside the test process, in a folder of its own (VAR_DIR): a migrated SQLite
database, the broker's folders, the file cache and the mail. A script plays a turn in each of two
games, as the web server would (the turn's email is queued on commit); the worker, started as
Procfile.dev starts it, sends the turn email of the game nobody watches and holds back the one
whose waiting player has the game open (their presence is in the shared file cache). Needs no
service, so it runs everywhere, CI included; about 15 s, mostly the migration.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 30
SITE_URL = "http://127.0.0.1:8123"
# Anything that would give the processes another shape than "nothing set".
SHAPING = {
    "DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "EMAIL_URL", "EMAIL_BACKEND",
    "EMAIL_FILE_PATH", "SITE_URL", "VAR_DIR", "DJANGO_SETTINGS_MODULE",
}  # fmt: skip

PLAY = """
from accounts.models import User
from games import presence
from tests.games.helpers import play_turns, start_game, user_to_move

def pair(a, b):
    users = [
        User.objects.create_user(name, f"{name}@example.com", "x", display_name=name.title())
        for name in (a, b)
    ]
    User.objects.filter(pk__in=[u.pk for u in users]).update(email_invitation=False)
    game = start_game(*users)
    mover = user_to_move(game)
    return game, next(u for u in users if u != mover)  # who plays the second turn

watched, watcher = pair("ann", "bob")
presence.mark_present(watched.pk, watcher.pk)  # their page of this game polls
play_turns(watched, turns=1)  # the watcher's turn now: no email while they look
alone, waiting = pair("cat", "dan")
play_turns(alone, turns=1)
print(watcher.email, waiting.email, alone.get_absolute_url())
"""


def embedded_env(var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SHAPING}
    return {**env, "VAR_DIR": str(var_dir), "SITE_URL": SITE_URL, "DEBUG": "true"}


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def wait_for(predicate, what: str, log: Path) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {WAIT_SECONDS} s; worker log:\n{log.read_text()}")


def turn_emails(mail_dir: Path) -> list[str]:
    messages = "".join(f.read_text() for f in sorted(mail_dir.glob("*.log")))
    return [m for m in messages.split("\n" + "-" * 79) if "your turn" in m]


def test_a_dev_worker_on_the_filesystem_broker_sends_the_turn_email_and_reads_the_shared_cache(
    tmp_path,
):
    env = embedded_env(tmp_path)
    manage(env, "migrate", "--no-input", "-v", "0")
    log = tmp_path / "worker.log"
    # As Procfile.dev's worker line, one process (solo) so that the tasks run in the order queued.
    command = [
        sys.executable, "-m", "celery", "-A", "harmonies_site", "worker", "-Q", "celery,mail",
        "--pool=solo", "--without-gossip", "--without-mingle", "--without-heartbeat",
        "--loglevel=INFO", "-n", "embedded-test@%h",
    ]  # fmt: skip
    with log.open("w") as out:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        watcher, waiting, game_url = manage(env, "shell", "--no-imports", "-c", PLAY).split()
        mail_dir = tmp_path / "mail"

        def turn_tasks() -> list[str]:
            lines = log.read_text().splitlines()
            return [line for line in lines if "games.notify_turn[" in line and "succeeded" in line]

        # Each game's start and its first turn: all four handled, in the order queued.
        wait_for(lambda: len(turn_tasks()) == 4, "four turn emails handled", log)
        emails = turn_emails(mail_dir)
        assert not any(f"To: {watcher}" in m for m in emails)
        (email,) = [m for m in emails if f"To: {waiting}" in m]
        assert SITE_URL + game_url in email  # the address the site is served at
        assert not list((tmp_path / "broker" / "queue").glob("*.mail.msg"))  # nothing left
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=5)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def test_the_embedded_brokers_handed_out_messages_are_pruned_after_a_day(tmp_path):
    from harmonies_site.celery import PROCESSED_KEPT_SECONDS, app, prune_broker_files

    old, new = tmp_path / "1_a.mail.msg", tmp_path / "2_b.mail.msg"
    for path in (old, new):
        path.write_text("{}")
    day_ago = time.time() - PROCESSED_KEPT_SECONDS - 60
    os.utime(old, (day_ago, day_ago))
    assert prune_broker_files() == 0  # the tests' broker is in memory: nothing to do
    saved = app.conf.broker_url, app.conf.broker_transport_options
    app.conf.update(
        broker_url="filesystem://localhost//",
        broker_transport_options={"processed_folder": str(tmp_path)},
    )
    try:
        assert prune_broker_files() == 1
    finally:
        app.conf.update(broker_url=saved[0], broker_transport_options=saved[1])
    assert not old.exists() and new.exists()
