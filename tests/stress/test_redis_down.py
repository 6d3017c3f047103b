"""Redis is down (cache and broker both unreachable): players still move, the page and the poll
still answer, and the turn email follows once Redis is back, sent by the missed-turn sweep.

Redis is not stopped here (other tests and developers share it): the cache and the broker point
at a port where nothing listens, so the real clients fail the way they do when Redis is down.
"""

import random
import socket
import time
from contextlib import contextmanager
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games import engine, presence, services, tasks
from games.models import Game
from games.models.replaying import verify
from harmonies_site.celery import app
from tests.games.helpers import start_game, user_to_move

pytestmark = pytest.mark.django_db

NOWHERE = "redis://127.0.0.1:9/0"  # the discard port: connection refused


@contextmanager
def redis_down():
    """The cache and the Celery broker on an address where nothing answers, tasks not eager."""
    cache = {"default": {"BACKEND": "harmonies_site.cache.RedisCache", "LOCATION": NOWHERE}}
    with override_settings(CACHES=cache), pytest.MonkeyPatch.context() as patch:
        patch.setitem(app.conf, "task_always_eager", False)
        patch.setitem(app.conf, "broker_url", NOWHERE)
        # Celery keeps its connection pools once made: start from none, restored afterwards.
        patch.setattr(app, "_pool", None)
        patch.setattr(app.amqp, "_producer_pool", None)
        yield


def play_until_the_end_of_the_turn(game: Game) -> None:
    """Everything of the mover's turn except ending it."""
    rng = random.Random(3)
    state = game.engine_state()
    while not (state.taken_space is not None and not state.hand):
        actions = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
        actions = [a for a in actions if not isinstance(a, engine.EndTurn)]
        services.play(
            game_id=game.pk,
            user=user_to_move(game),
            action=rng.choice(actions).to_json(),
            expected_version=game.version,
        )
        game.refresh_from_db()
        state = game.engine_state()


def test_moves_are_accepted_with_redis_down_and_the_turn_email_follows_when_it_is_back(
    client, player, other_player, django_capture_on_commit_callbacks
):
    game = start_game(player, other_player)
    play_until_the_end_of_the_turn(game)
    mover = user_to_move(game)
    waiting = other_player if mover == player else player
    client.force_login(mover)
    act = reverse("games:act", args=[game.pk])
    poll = reverse("games:poll", args=[game.pk])

    with redis_down():
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                act, {"type": "end_turn", "version": game.version}, HTTP_HX_REQUEST="true"
            )
        assert response.status_code == 200
        game.refresh_from_db()
        assert user_to_move(game) == waiting
        # The version cache is unreachable: the poll reads the database instead.
        token = presence.token_for(game.pk, mover.pk)
        assert client.get(poll, {"v": game.version - 1, "p": token}).status_code == 200
        assert client.get(poll, {"v": game.version, "p": token}).status_code == 204
        assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200
        client.force_login(waiting)
        state = game.engine_state()
        take = next(a for a in engine.legal_actions(state) if isinstance(a, engine.TakeTokens))
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(act, {**take.to_json(), "version": game.version})
        assert response.status_code == 302
    assert mail.outbox == []  # the task could not be queued

    # Redis is back: the sweep finds the turn nobody was told about, and tells them once.
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        assert tasks.sweep_missed_turns() == 1
        assert tasks.sweep_missed_turns() == 0
    assert [m.to for m in mail.outbox] == [[waiting.email]]
    last_two = game.moves.order_by("-seq").values_list("action__type", flat=True)[:2]
    assert list(last_two) == ["take_tokens", "end_turn"]  # both accepted actions are logged
    game.refresh_from_db()
    assert verify(game) is None


@pytest.mark.redis  # the production cache settings (with their timeouts) are those of REDIS_URL
def test_a_redis_that_hangs_costs_the_poll_a_moment_not_seconds(client, player, other_player):
    game = start_game(player, other_player)
    options = settings.CACHES["default"]["OPTIONS"]
    # A listening socket that nobody accepts from: connections open, and no answer ever comes.
    with socket.create_server(("127.0.0.1", 0), backlog=16) as hung:
        location = f"redis://127.0.0.1:{hung.getsockname()[1]}/0"
        cache = {"default": {"BACKEND": settings.CACHES["default"]["BACKEND"],
                             "LOCATION": location, "OPTIONS": options}}  # fmt: skip
        with override_settings(CACHES=cache):
            started = time.monotonic()
            token = presence.token_for(game.pk, player.pk)  # as the page polls
            response = client.get(
                reverse("games:poll", args=[game.pk]), {"v": game.version, "p": token}
            )
            elapsed = time.monotonic() - started
    assert response.status_code == 204  # read from the database instead
    # Three cache calls (mark the player present, read the version, publish it), each cut short
    # by the socket timeout; redis-py's default would have been 5 s each.
    assert elapsed < 2 * 3 * options["socket_timeout"]
