"""A game page is light on the wire: compressed for every browser that accepts gzip."""

import gzip

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game

pytestmark = pytest.mark.django_db


def test_a_mid_game_four_player_page_is_under_40_kb_on_the_wire():
    players = [UserFactory() for _ in range(4)]
    game = play_turns(start_game(*players, spirits=True), turns=24, seed=3)
    client = Client()
    client.force_login(players[0])

    plain = client.get(game.get_absolute_url())
    packed = client.get(game.get_absolute_url(), headers={"Accept-Encoding": "gzip"})

    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content).count(b"<svg") == plain.content.count(b"<svg")
    print(f"game page: {len(plain.content):,} bytes, {len(packed.content):,} on the wire")
    assert len(packed.content) <= 40_000 < len(plain.content)


def test_the_sprite_is_public_and_kept_for_a_year(client):
    from games.pictures.sprite import sprite_url

    response = client.get(sprite_url())

    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "immutable" in response["Cache-Control"]
    assert b'<symbol id="card-animal_05"' in response.content


def test_an_old_sprite_address_leads_to_the_current_one(client):
    from games.pictures.sprite import sprite_url

    response = client.get("/games/pictures/sprite-000000000000.svg")

    assert response.status_code == 302
    assert response["Location"] == sprite_url()


def test_the_sprite_stays_public_for_a_logged_in_player(client):
    from games.pictures.sprite import sprite_url

    client.force_login(UserFactory())
    response = client.get(sprite_url())

    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
