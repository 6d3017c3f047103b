"""Games have names: chosen at creation or taken from the players, shown in lists and emails."""

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Game
from harmonies_site.celery import SWEEPS, app
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def test_a_game_is_named_after_its_players_in_seat_order(player, other_player, stranger):
    game = start_game(player, other_player, stranger)
    names = [s.user.public_name for s in game.seats.order_by("position")]
    assert game.name == f"{names[0]}, {names[1]} and {names[2]}"
    assert game.title == game.name


def test_a_table_not_started_is_called_by_its_number(player):
    table = Game.objects.create(created_by=player, players=2)
    assert table.title == f"Game {table.pk}"


def test_the_creator_names_the_game_in_the_new_game_form(player, client):
    client.force_login(player)
    response = client.post(
        reverse("games:new"),
        {"players": 2, "side": "A", "seat_2": "easy", "name": "  Sunday   river  "},
    )
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert game.name == "Sunday river"  # kept when the game starts
    page = client.get(game.get_absolute_url()).content.decode()
    assert re.search(r"<title>(\(1\) )?Sunday river ·", page)  # (1) when the creator is first
    assert "Sunday river" in client.get(reverse("games:mine")).content.decode()


def test_a_name_too_long_is_refused_in_words(player, client):
    client.force_login(player)
    response = client.post(reverse("games:new"), {"players": 1, "side": "A", "name": "x" * 81})
    assert response.status_code == 200
    assert "at most 80 characters" in response.content.decode()
    assert not Game.objects.exists()


def test_my_games_lists_games_by_name(player, other_player):
    from django.test import Client

    game = start_game(player, other_player)
    client = Client()
    client.force_login(other_player)
    assert game.name in client.get(reverse("games:mine")).content.decode()


def test_run_sweeps_runs_exactly_the_sweeps_beat_runs(db):
    out = io.StringIO()
    call_command("run_sweeps", stdout=out)
    ran = [line.split(":")[0] for line in out.getvalue().splitlines()]
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert ran == [name for name, _, _ in SWEEPS]
    # The embedded broker's pruning is not the site's work; the rebuild is on no schedule.
    assert scheduled - set(ran) == {"harmonies_site.prune_broker_files"}
    assert "records.rebuild_records" not in scheduled and "records.sweep_unrecorded" in ran
    assert "games.sweep_automatic_turns" in ran


def test_the_name_is_in_every_turn_email_subject(player, django_capture_on_commit_callbacks):
    from django.core import mail

    from tests.games.helpers import play_turns

    friend = UserFactory()
    game = start_game(player, friend)
    with django_capture_on_commit_callbacks(execute=True):
        play_turns(game, turns=2)
    game.refresh_from_db()
    assert mail.outbox and all(game.name in m.subject for m in mail.outbox)
