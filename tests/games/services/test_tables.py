"""Creating, joining and starting games through the one writer."""

import pytest

from games import engine, services
from games.models import Game, Invitation, Seat
from games.services.core import table_of
from tests.factories import UserFactory
from tests.games.helpers import start_game

pytestmark = pytest.mark.django_db


def test_a_solo_game_starts_at_once(player):
    game = services.create_game(creator=player, players=1, side="B", spirits=True)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get().position == 0
    state = game.engine_state()
    assert state.config == engine.GameConfig(players=1, side="B", spirits=True)
    assert game.current_seat == state.current_seat == 0


def test_a_game_starts_when_the_last_invited_friend_joins(player, other_player):
    game = services.create_game(
        creator=player, players=2, side="A", spirits=False, invitees=[other_player]
    )
    assert game.status == Game.Status.OPEN
    assert Invitation.objects.filter(game=game, user=other_player).exists()

    services.join_game(game_id=game.pk, user=other_player)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert sorted(game.seats.values_list("position", flat=True)) == [0, 1]
    assert game.seed is not None
    assert not game.invitations.exists()


def test_a_stranger_cannot_join_a_private_game(player, stranger):
    game = services.create_game(creator=player, players=2, side="A", spirits=False)
    with pytest.raises(services.NotAllowed, match="by invitation only"):
        services.join_game(game_id=game.pk, user=stranger)
    assert game.seats.count() == 1


def test_the_invitation_link_lets_anyone_join(player, stranger):
    game = services.create_game(creator=player, players=3, side="A", spirits=False)
    services.join_game(game_id=game.pk, user=stranger, invite_token=game.invite_token)
    assert game.seats.filter(user=stranger).exists()
    with pytest.raises(services.NotAllowed):
        services.join_game(game_id=game.pk, user=UserFactory(), invite_token="forged")


def test_anyone_may_join_a_public_table_until_it_is_full(player, stranger):
    game = services.create_game(creator=player, players=2, side="A", spirits=False, public=True)
    services.join_game(game_id=game.pk, user=stranger)
    with pytest.raises(services.Conflict, match="already started"):
        services.join_game(game_id=game.pk, user=UserFactory())


def test_joining_twice_is_harmless(player, other_player):
    game = services.create_game(creator=player, players=3, side="A", spirits=False, public=True)
    services.join_game(game_id=game.pk, user=other_player)
    services.join_game(game_id=game.pk, user=other_player)
    assert game.seats.count() == 2


def test_too_many_invitations_are_refused(player):
    friends = UserFactory.create_batch(2)
    with pytest.raises(services.GameError, match="room for 1"):
        services.create_game(creator=player, players=2, side="A", spirits=False, invitees=friends)
    assert not Game.objects.exists()


def test_a_player_leaves_an_open_game_and_the_creator_cancels_it(player, other_player):
    game = services.create_game(creator=player, players=3, side="A", spirits=False, public=True)
    services.join_game(game_id=game.pk, user=other_player)
    services.leave_game(game_id=game.pk, user=other_player)
    assert not Seat.objects.filter(game=game, user=other_player).exists()
    with pytest.raises(services.NotAllowed):
        services.cancel_game(game_id=game.pk, user=other_player)
    services.cancel_game(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_a_started_game_cannot_be_left_or_cancelled(player, other_player):
    game = start_game(player, other_player)
    with pytest.raises(services.Conflict):
        services.leave_game(game_id=game.pk, user=other_player)
    with pytest.raises(services.Conflict):
        services.cancel_game(game_id=game.pk, user=player)


def test_the_card_catalogue_agrees_with_the_engine():
    from games.models import Card

    ids = [*engine.ANIMAL_CARD_IDS, *engine.SPIRIT_CARD_IDS]
    assert sorted(Card.objects.values_list("id", flat=True)) == sorted(ids)
    for row in Card.objects.all():
        card = engine.card(row.id)
        assert (row.kind, row.number, row.name, row.cube_count) == (
            card.kind,
            card.number,
            card.name,
            card.cube_count,
        )
        assert row.points == list(card.points_top_to_bottom)


def test_the_table_is_read_in_seat_order_before_and_after_the_start(player, other_player):
    """services.core.table_of sorts in Python what Meta.ordering would have sorted in SQL."""
    game = services.create_game(creator=player, players=3, side="A", spirits=False, public=True)
    services.join_game(game_id=game.pk, user=other_player)
    assert [s.user for s in table_of(game)] == [player, other_player]  # by arrival
    game = services.join_game(game_id=game.pk, user=UserFactory())
    table = table_of(game)
    assert [s.position for s in table] == [0, 1, 2]
    assert table == list(game.seats.all())
