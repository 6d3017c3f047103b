"""Play again, clicked at the same moment: by both players and twice by each (a double click).
One table comes of it, both players sit at it, and nobody sees a server error."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_both_players_double_clicking_play_again_make_one_started_rematch():
    ann, bob = UserFactory(), UserFactory()
    old = start_game(ann, bob)
    services.resign(game_id=old.pk, user=bob)
    url = reverse("games:again", args=[old.pk])
    barrier = threading.Barrier(4)
    statuses: list[int] = []

    def click(user) -> None:
        client = Client()
        client.force_login(user)
        try:
            barrier.wait(timeout=30)
            statuses.append(client.post(url).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=click, args=(u,)) for u in (ann, bob, ann, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert statuses == [302] * 4
    rematch = Game.objects.get(rematch_of=old)
    assert Game.objects.count() == 2
    assert rematch.status == Game.Status.ACTIVE
    assert set(rematch.seats.values_list("user", flat=True)) == {ann.pk, bob.pk}
