"""Fair queues: which Celery queue each task goes to (a worker per queue: docs/operating.md)."""

import pytest

from harmonies_site.celery import app


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("games.play_automatic_turn", "bots"),
        ("games.notify_turn", "mail"),
        ("games.send_reminder", "mail"),
        ("games.send_digest", "mail"),
        ("games.notify_game_over", "mail"),
        ("games.finalize_game", "mail"),
        ("games.sweep_automatic_turns", "celery"),
        ("games.sweep_missed_turns", "celery"),
        ("records.record_game", "celery"),
        ("records.rebuild_records", "celery"),
        ("records.sweep_unrecorded", "celery"),
    ],
)
def test_each_task_goes_to_its_queue(task, queue):
    assert app.amqp.router.route({}, task)["queue"].name == queue


def test_a_worker_started_without_queues_consumes_all_three():
    assert {q.name for q in app.conf.task_queues} == {"celery", "bots", "mail"}


def test_a_bot_turn_is_queued_on_the_bots_queue(monkeypatch):
    from games.queue import send_now

    sent = []
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setattr(
        "kombu.messaging.Producer.publish",
        lambda self, body, **options: sent.append(options.get("routing_key")),
    )
    assert send_now("games.play_automatic_turn", 1, 2, countdown=1)
    assert send_now("games.notify_turn", 1, 2)
    assert sent == ["bots", "mail"]
