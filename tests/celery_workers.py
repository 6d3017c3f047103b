"""Real Celery worker processes for the tests of the production path, and the routing of the
test session's tasks to them.

A worker process reads the test's own PostgreSQL database (SQLite's would be invisible to it) and
takes tasks from Redis; each test uses queues of its own, so that a developer's running worker
cannot take its tasks instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from harmonies_site.celery import app


def test_database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


def worker_environment(mail_dir: Path | None = None, **extra: str) -> dict[str, str]:
    """The site's settings for a worker of the test: its database, Redis, tasks queued for real,
    and with `mail_dir` the file mail backend writing there."""
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        **extra,
    }
    if mail_dir is not None:
        env.pop("EMAIL_URL", None)
        env.update(
            EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
            EMAIL_FILE_PATH=str(mail_dir),
            SITE_URL=settings.SITE_URL,
        )
    return env


@contextmanager
def celery_worker(
    queues: list[str], log_path: Path, env: dict[str, str], name: str = "worker"
) -> Iterator[Path]:
    """A worker process on `queues`, logging to `log_path`; always stopped."""
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "harmonies_site", "worker", "--pool=solo",
             "--concurrency=1", "--loglevel=INFO", "-Q", ",".join(queues), "-n", f"{name}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            yield log_path
        finally:
            # The test is over: a worker gets 2 s to stop (an idle one needs about 1), then is
            # killed. One busy with a bot turn would finish it first, which took up to 14 s.
            # Whatever is left on its queues is purged by the tests.
            process.terminate()
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until_ready(log_path: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if " ready." in log_path.read_text():
            return
        time.sleep(0.2)
    raise AssertionError(f"worker not ready in {timeout} s:\n{log_path.read_text()}")


def purge(queues: list[str]) -> None:
    """Drop what an interrupted run left on the test's queues."""
    with app.connection_for_write() as conn:
        for queue in queues:
            conn.default_channel.queue_purge(queue)


@contextmanager
def tasks_routed(routes: dict[str, dict], default_queue: str | None = None) -> Iterator[None]:
    """Queue on Redis through `routes` (the test session otherwise runs tasks in-process)."""
    saved = (app.conf.task_always_eager, app.conf.task_routes, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_routes = routes
    if default_queue is not None:
        app.conf.task_default_queue = default_queue
    app.amqp.flush_routes()
    app.amqp.router = app.amqp.Router()
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_routes, app.conf.task_default_queue = saved
        app.amqp.flush_routes()
        app.amqp.router = app.amqp.Router()
