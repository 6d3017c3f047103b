"""The production path: a push task queued on Redis, run by a real Celery worker process (which
reads the same PostgreSQL database), posting to the local HTTPS push service."""

import time

import pytest
from django.conf import settings

from push import tasks as push_tasks
from tests.celery_workers import celery_worker, purge, tasks_routed, worker_environment
from tests.games.helpers import play_turns, start_game, user_to_move
from tests.push.conftest import SUBJECT
from tests.push.service import verify_vapid

QUEUE = "harmonies-test-push-worker"
WAIT_SECONDS = 30


def test_push_tasks_run_on_the_mail_queue_beside_the_emails():
    assert settings.CELERY_TASK_ROUTES["push.*"] == {"queue": "mail"}
    assert settings.CELERY_TASK_ROUTES["games.notify_turn"] == {"queue": "mail"}


@pytest.fixture
def worker(tmp_path, vapid, push_service):
    env = worker_environment(
        VAPID_PUBLIC_KEY=vapid.public,
        VAPID_PRIVATE_KEY=vapid.private,
        VAPID_SUBJECT=SUBJECT,
        PUSH_ALLOW_PRIVATE_ENDPOINTS="true",
        PUSH_CA_BUNDLE=str(push_service.cert),
    )
    with celery_worker([QUEUE], tmp_path / "worker.log", env) as log_path:
        yield log_path


@pytest.fixture
def push_tasks_go_to_the_worker():
    purge([QUEUE])
    with tasks_routed({"push.*": {"queue": QUEUE}}):
        yield


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("push_on")
def test_a_real_worker_pushes_your_turn_once(
    player, other_player, device, push_service, vapid, worker, push_tasks_go_to_the_worker
):
    game = play_turns(start_game(player, other_player), turns=1)
    mover = user_to_move(game)
    subscription, browser = device(mover)
    turn = game.engine_state().turn

    push_tasks.push_turn.delay(game.pk, turn)
    push_tasks.push_turn.delay(game.pk, turn)  # queued twice (a retry of the email task)

    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and worker.read_text().count("succeeded in") < 2:
        time.sleep(0.2)
    assert worker.read_text().count("succeeded in") == 2, worker.read_text()
    (received,) = push_service.received
    assert browser.decrypt(received.body)["title"] == f"Your turn in {game.title}"
    verify_vapid(received.headers["authorization"], vapid, push_service.origin)
    subscription.refresh_from_db()
    assert subscription.last_ok_at is not None
