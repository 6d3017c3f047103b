"""Twenty clients race on one game, step after step: the referee accepts exactly one action per
step, the move log has no gap and no duplicate, nobody sees a server error, and the replay of the
log is the stored state.

Each client is a Django test client in its own thread, so each has its own database connection
and goes through the whole view layer (session, CSRF-free form post as htmx sends it, fragments).
"""

import queue
import random
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Game
from games.models.replaying import verify
from tests.answers import answered
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 20
STEPS = 30
WAIT_SECONDS = 60


class RacingClient(threading.Thread):
    """A logged-in player's browser tab: posts what it is given, reports the status code."""

    def __init__(self, user, game_id: int, results: queue.Queue) -> None:
        super().__init__(daemon=True)
        self.user, self.url, self.results = user, reverse("games:act", args=[game_id]), results
        self.orders: queue.Queue = queue.Queue()

    def run(self) -> None:
        client = Client()
        client.force_login(self.user)
        try:
            while (order := self.orders.get()) is not None:
                barrier, data = order
                try:
                    barrier.wait(timeout=WAIT_SECONDS)
                    response = client.post(self.url, data, HTTP_HX_REQUEST="true")
                    self.results.put((self.user.pk, answered(response), data))
                except Exception as exc:  # a crash in the view counts as a server error
                    self.results.put((self.user.pk, 599, repr(exc)))
        finally:
            connection.close()


def test_twenty_clients_racing_on_every_step_get_exactly_one_move_each_step():
    players = [UserFactory() for _ in range(4)]
    game = start_game(*players, spirits=True)
    start_version, rng = game.version, random.Random(7)
    results: queue.Queue = queue.Queue()
    # Five tabs per player: the player to move races against their own other tabs (same turn,
    # same version, different actions) and against the three players who are waiting.
    clients = [RacingClient(players[i % 4], game.pk, results) for i in range(CLIENTS)]
    for c in clients:
        c.start()
    try:
        for step in range(STEPS):
            game.refresh_from_db()
            state = game.engine_state()
            legal = [a for a in engine.legal_actions(state) if not isinstance(a, engine.ResetTurn)]
            barrier = threading.Barrier(CLIENTS)
            for c in clients:
                action = rng.choice(legal).to_json()
                c.orders.put((barrier, {**action, "version": game.version}))
            answers = [results.get(timeout=WAIT_SECONDS) for _ in clients]
            statuses = sorted(status for _, status, _ in answers)
            assert statuses == [200] + [409] * (CLIENTS - 1), f"step {step}: {answers}"
    finally:
        for c in clients:
            c.orders.put(None)
        for c in clients:
            c.join(timeout=WAIT_SECONDS)

    game = Game.objects.get(pk=game.pk)
    assert list(game.moves.values_list("seq", flat=True)) == list(range(1, STEPS + 1))
    assert game.version == start_version + STEPS
    assert verify(game) is None
