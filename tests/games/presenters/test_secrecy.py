"""Pages never carry hidden information: the pouch order, the deck order, the seed, or the
Nature's Spirit cards dealt to another player."""

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Game
from tests.games.helpers import play_turns, start_game

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def page_for(user, game, **params) -> str:
    client = Client()
    client.force_login(user)
    html = client.get(reverse("games:detail", args=[game.pk]), params).content.decode()
    return CSRF.sub(r"\1…", html)


def reshuffle_hidden_orders(game: Game, seed: int) -> None:
    """Same game, other pouch and deck order: nothing a player may see changes."""
    state = json.loads(game.state)
    rng = random.Random(seed)
    rng.shuffle(state["pouch"])
    rng.shuffle(state["deck"])
    Game.objects.filter(pk=game.pk).update(state=json.dumps(state))


@pytest.mark.parametrize("spirits", [False, True])
def test_every_seat_sees_the_same_page_under_other_hidden_orders(player, other_player, spirits):
    game = start_game(player, other_player, spirits=spirits)
    play_turns(game, turns=3)
    game.refresh_from_db()
    for user in (player, other_player):  # a first look shows "since your last visit"
        page_for(user, game)
    before = {u.pk: page_for(u, game) for u in (player, other_player)}
    reshuffle_hidden_orders(game, seed=99)
    after = {u.pk: page_for(u, game) for u in (player, other_player)}
    assert before == after
    assert str(game.seed) not in before[player.pk] + before[other_player.pk]


def test_another_players_dealt_spirits_stay_secret(player, other_player):
    game = start_game(player, other_player, spirits=True)
    state = game.engine_state()
    for seat in game.seats.select_related("user"):
        mine = set(state.players[seat.position].spirit_options)
        theirs = set(state.players[1 - seat.position].spirit_options) - mine
        html = page_for(seat.user, game)
        if seat.position == state.current_seat:
            assert all(f"Keep {engine.card(c).name}" in html for c in mine)
        for card_id in theirs:
            name = engine.card(card_id).name
            assert card_id not in html
            assert f">{name}<" not in html and f"{name}:" not in html, "a spirit option leaked"
