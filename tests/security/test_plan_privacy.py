"""A private plan is its author's alone: the other seat's page, its fragments and poll, the
talk page, every email, the game's export, a watcher's page and the other player's personal
data never hold the notes or the pencil marks; the author's own data download does.

Alice writes a planted note and pencils tokens on her board; Bob, a watcher and the mail are
then asked for everything they can get about the game."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.mail import endings, turns
from games.models import Game, Plan, Seat
from games.presenters.plans import PENCIL_CLASS
from games.services import plans, watching
from harmonies_site import personal_data
from records import export
from tests.clients import as_user
from tests.games.helpers import play_to_the_end, play_turns, start_game, user_to_move

pytestmark = pytest.mark.django_db

NOTE = "ALICE-PRIVATE-PLAN: bears go top left"
# What betrays a pencil mark in a page: its ring, its words, the plan's list.
PLAN_SIGNS = (NOTE, PENCIL_CLASS, "pencilled in your plan", "Pencilled on your board", "plan-row")


@pytest.fixture
def planned(player, other_player):
    """Alice (player) to move, with a note and two pencilled tokens; Bob waiting."""
    game = start_game(player, other_player)
    while user_to_move(game) != player:
        game = play_turns(game, turns=1)
    position = game.seats.get(user=player).position
    geo = engine.geometry(game.side)
    stacks = game.engine_state().players[position].stacks
    empty = [geo.names[i] for i, s in enumerate(stacks) if not s]
    plans.save_notes(game_id=game.pk, user=player, notes=NOTE)
    plans.pencil(game_id=game.pk, user=player, cell=empty[0], colour="brown")
    plans.pencil(game_id=game.pk, user=player, cell=empty[0], colour="green")
    return Game.objects.get(pk=game.pk)


def leaked(text: str) -> list[str]:
    return [sign for sign in PLAN_SIGNS if sign in text]


def test_alices_own_page_shows_her_plan(planned, player):
    page = as_user(player).get(planned.get_absolute_url()).content.decode()
    assert NOTE in page and PENCIL_CLASS in page and "Pencilled on your board" in page


def test_bob_gets_nothing_of_it_from_any_page_fragment_or_poll(planned, other_player):
    bob = as_user(other_player)
    base = planned.get_absolute_url()
    hx = {"HX-Request": "true"}
    colour = planned.engine_state().hand[0] if planned.engine_state().hand else "blue"
    answers = {
        "page": bob.get(base),
        "game fragment": bob.get(base, {"fragment": "game"}, headers=hx),
        "select fragment": bob.get(base, {"fragment": "select", "token": colour}, headers=hx),
        "log": bob.get(base + "log/"),
        "talk": bob.get(reverse("games:talk", args=[planned.pk])),
        "talk fragment": bob.get(reverse("games:talk", args=[planned.pk]), headers=hx),
        "poll": bob.get(reverse("games:poll", args=[planned.pk]), {"v": 0}),
        "alice's pad": bob.get(reverse("games:plan", args=[planned.pk])),
        "my games": bob.get(reverse("games:mine")),
    }
    for label, response in answers.items():
        assert response.status_code < 500, label
        assert not leaked(response.content.decode()), label
    assert answers["page"].status_code == 200


def test_bob_cannot_write_into_alices_plan(planned, other_player, player):
    bob = as_user(other_player)
    for name, data in (
        ("games:plan-notes", {"notes": "Bob was here"}),
        ("games:plan-clear", {}),
        ("games:plan-erase", {"cell": "0,0"}),
    ):
        bob.post(reverse(name, args=[planned.pk]), data)
    alices = Plan.objects.get(seat__user=player)
    assert alices.notes == NOTE and len(alices.marks) == 2


def test_a_watcher_gets_nothing_of_it(planned, player, client):
    token = watching.share(game_id=planned.pk, user=player)
    url = reverse("games:watch-link", args=[planned.pk, token])
    for response in (
        client.get(url),
        client.get(url, {"fragment": "game"}, headers={"HX-Request": "true"}),
        client.get(reverse("games:poll", args=[planned.pk]), {"v": 0, "w": token}),
    ):
        assert response.status_code == 200
        assert not leaked(response.content.decode())


def test_no_email_carries_it(planned, player, other_player):
    Seat.objects.update(notified_turn=None)
    mail.outbox = []
    cache.clear()  # nobody is looking: the turn email goes out
    assert turns.send_turn(planned.pk, planned.engine_state().turn)
    seat = Seat.objects.get(game=planned, user=player)
    due = timezone.now() - timedelta(minutes=1)
    Seat.objects.filter(pk=seat.pk).update(remind_at=due)
    turns.send_reminder(seat.pk, due)
    finished = play_to_the_end(planned)
    endings.send_game_over(finished.pk)
    assert mail.outbox
    for message in mail.outbox:
        text = "\n".join([message.subject, message.body, *(a[0] for a in message.alternatives)])
        assert not leaked(text), message.subject


def test_the_export_and_bobs_data_hold_nothing_of_it_and_alices_holds_her_plan(
    planned, player, other_player
):
    finished = play_to_the_end(planned)
    seats = list(finished.seats.select_related("user"))
    record = json.dumps(export.game_record(finished, seats, list(finished.moves.all())))
    assert NOTE not in record and '"marks"' not in record
    exported = as_user(other_player).get(reverse("records:export", args=[finished.pk]))
    assert NOTE not in exported.content.decode()
    bobs = json.dumps(personal_data.personal_data(other_player), default=str)
    assert NOTE not in bobs and '"your_plan": {' not in bobs
    alices = personal_data.personal_data(player)
    (entry,) = [g for g in alices["games"] if g["id"] == finished.pk]
    assert entry["your_plan"]["notes"] == NOTE
    assert [m["colour"] for m in entry["your_plan"]["marks"]] == ["brown", "green"]


def test_every_plan_column_is_given_or_left_out_for_a_reason():
    columns = {f.name for f in Plan._meta.concrete_fields}
    given = set(personal_data.PLAN_FIELDS)
    assert columns - given - set(personal_data.PLAN_FIELDS_LEFT_OUT) == set()
    assert not given & set(personal_data.PLAN_FIELDS_LEFT_OUT)
