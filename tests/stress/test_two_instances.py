"""Two web instances over one PostgreSQL and one Redis, as the site runs beyond one machine.

Each instance is a real gunicorn with two worker processes. A player's tabs and their opponent's
page are spread over both at random, step after step: a move posted to one instance is seen at
once by a poll answered by the other (0 stale answers), the presence one instance records is
the one the rest of the site reads (it decides turn emails), and the same move posted to both
instances at the same moment is applied once. What is shared must be shared: the database and
the Redis cache (harmonies_site/checks.py refuses a cache per process for several processes).
"""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse
from django.utils.crypto import get_random_string

from games import engine, presence
from games.models import Game, Move
from games.models.replaying import verify
from tests.celery_workers import worker_environment
from tests.games.helpers import start_game

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

STEPS = 24
READY_SECONDS = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def web_instance(log_path: Path, env: dict[str, str]) -> Iterator[str]:
    """A gunicorn of the site with two workers on a port of its own; always stopped."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "harmonies_site.wsgi", "--preload",
             "--bind", f"127.0.0.1:{port}", "--workers", "2", "--access-logfile", "-"],
            cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + READY_SECONDS
            while True:
                try:
                    requests.get(f"{base}/accounts/login/", timeout=2)
                    break
                except requests.ConnectionError as exc:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError(f"no web instance:\n{log_path.read_text()}") from exc
                    time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def browser_of(user) -> requests.Session:
    """A logged-in browser: a session stored in the shared database, and a CSRF secret (Django
    takes the unmasked 32-character secret as the token)."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "accounts.backends.PlayerBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    csrf = get_random_string(32)
    browser = requests.Session()
    browser.headers.update(
        {"Cookie": f"sessionid={store.session_key}; csrftoken={csrf}", "X-CSRFToken": csrf}
    )
    return browser


def answered(response: requests.Response) -> int:
    return int(response.headers.get("X-Refused-Status", response.status_code))


def poll(browser: requests.Session, base: str, game: Game, user, version: int) -> int:
    url = base + reverse("games:poll", args=[game.pk])
    token = presence.token_for(game.pk, user.pk)
    answer = browser.get(url, params={"v": version, "p": token}, timeout=10, allow_redirects=False)
    return answer.status_code


def post_at_once(posts: list[tuple[requests.Session, str, dict]]) -> list[int]:
    """The same click from several tabs in the same instant."""
    barrier, statuses = threading.Barrier(len(posts)), [0] * len(posts)

    def click(index: int, browser: requests.Session, url: str, data: dict) -> None:
        barrier.wait(timeout=10)
        response = browser.post(
            url, data=data, headers={"HX-Request": "true"}, timeout=30, allow_redirects=False
        )
        statuses[index] = answered(response)

    threads = [threading.Thread(target=click, args=(i, *post)) for i, post in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=40)
    return statuses


def test_two_web_instances_over_one_database_and_redis_agree_on_every_step(
    player, other_player, tmp_path
):
    game = start_game(player, other_player)
    browsers = {user.pk: browser_of(user) for user in (player, other_player)}
    env = worker_environment(
        tmp_path / "mail", CELERY_TASK_ALWAYS_EAGER="true", WEB_CONCURRENCY="2"
    )
    rng = random.Random(11)
    stale, double_posts = [], 0
    moves_before = Move.objects.filter(game=game).count()
    with (
        web_instance(tmp_path / "one.log", env) as one,
        web_instance(tmp_path / "two.log", env) as two,
    ):
        for step in range(STEPS):
            game.refresh_from_db()
            state = game.engine_state()
            mover = game.seats.get(position=state.current_seat).user
            waiter = player if mover == other_player else other_player
            legal = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
            action = rng.choice(legal).to_json()
            before = game.version
            # The waiting player's page polls through one instance, at random.
            here = rng.choice([one, two])
            assert poll(browsers[waiter.pk], here, game, waiter, before) == 204
            assert presence.is_looking(game.pk, waiter.pk), "presence is one instance's only"
            # The mover's two tabs click the same move, one on each instance, at once.
            url = reverse("games:act", args=[game.pk])
            data = {**{k: str(v) for k, v in action.items()}, "version": str(before)}
            statuses = post_at_once(
                [(browsers[mover.pk], one + url, data), (browsers[mover.pk], two + url, data)]
            )
            assert sorted(statuses) == [200, 409], f"step {step}: {statuses}"
            double_posts += 1
            # Both instances tell the waiting page at once that the game changed.
            for base in (one, two):
                if poll(browsers[waiter.pk], base, game, waiter, before) != 200:
                    stale.append((step, base))
    game.refresh_from_db()
    assert stale == []
    assert double_posts == STEPS
    assert Move.objects.filter(game=game).count() == moves_before + STEPS  # each step once
    assert verify(game) is None
