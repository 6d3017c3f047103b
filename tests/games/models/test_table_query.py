"""The game page's own query (games/models/table_query.py) loads what Django's ORM would load."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Seat, table_query
from tests.factories import UserFactory
from tests.games.helpers import play_turns, start_game

pytestmark = pytest.mark.django_db


def values(instance) -> list:
    return [
        (field.attname, getattr(instance, field.attname), type(getattr(instance, field.attname)))
        for field in instance._meta.concrete_fields
    ]


def test_the_seats_game_and_players_are_those_the_orm_loads():
    players = [UserFactory(), UserFactory(), UserFactory()]
    game = play_turns(start_game(*players, spirits=True), turns=4, seed=2)
    players[1].away_until = timezone.localdate() + timedelta(days=3)
    players[1].away_since = timezone.now()
    players[1].save()
    Seat.objects.filter(game=game, position=2).update(resigned_at=timezone.now(), talk_muted=True)

    expected = sorted(
        Seat.objects.filter(game_id=game.pk).select_related("game", "user"), key=lambda s: s.pk
    )
    with CaptureQueriesContext(connection) as queries:
        seats = sorted(table_query.seats_with_game(game.pk), key=lambda s: s.pk)
        for seat in seats:  # everything loaded: no query on the way
            assert seat.game.state and seat.user.username

    assert len(queries) == 1
    assert [values(s) for s in seats] == [values(s) for s in expected]
    assert [values(s.user) for s in seats] == [values(s.user) for s in expected]
    assert values(seats[0].game) == values(expected[0].game)
    assert len({id(seat.game) for seat in seats}) == 1  # one game, as the page shares it
    assert all(not s._state.adding and s._state.db == "default" for s in seats)
    assert all(s.user.get_deferred_fields() == set() for s in seats)


def test_a_game_nobody_sits_at_and_a_missing_game_give_no_seats():
    game = start_game(UserFactory(), UserFactory())
    Seat.objects.filter(game=game).delete()
    assert table_query.seats_with_game(game.pk) == []
    assert table_query.seats_with_game(Game.objects.order_by("pk").last().pk + 1) == []


def test_a_locked_game_reads_its_seats_and_players_as_the_orm_would():
    players = [UserFactory(), UserFactory()]
    game = start_game(*players)
    expected = sorted(game.seats.select_related("user"), key=lambda s: s.pk)
    with CaptureQueriesContext(connection) as queries:
        seats = sorted(table_query.seats_of(game), key=lambda s: s.pk)
        assert all(seat.game is game and seat.user.username for seat in seats)
    assert len(queries) == 1
    assert [values(s) for s in seats] == [values(s) for s in expected]
    assert [values(s.user) for s in seats] == [values(s.user) for s in expected]


def test_a_saved_game_row_is_the_row_save_writes():
    players = [UserFactory(), UserFactory()]
    game = play_turns(start_game(*players), turns=2, seed=4)
    twin = Game.objects.create(
        **{
            f.attname: getattr(game, f.attname)
            for f in Game._meta.concrete_fields
            if not f.primary_key and f.attname != "invite_token"
        }
    )
    deadline = timezone.now() + timedelta(days=1)
    for row in (game, twin):
        row.refresh_from_db()
        row.version += 1
        row.name = "Évening game, l'été"
        row.turn_deadline = deadline
        row.current_seat = 1

    table_query.save_game(game)
    twin.save()

    game.refresh_from_db()
    twin.refresh_from_db()
    skipped = {"id", "invite_token", "created_at", "updated_at"}
    mine = [v for v in values(game) if v[0] not in skipped]
    assert mine == [v for v in values(twin) if v[0] not in skipped]
    assert game.updated_at > game.created_at  # auto_now set, as save() sets it


def test_saving_a_game_that_is_gone_fails_loudly():
    game = start_game(UserFactory(), UserFactory())
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(Game.DoesNotExist):
        table_query.save_game(game)
